"""Shared fixtures: a migrated database per test on SQLite and PostgreSQL, and a fixed clock.

Each backend is migrated once per session into a template (a file for SQLite, a template
database for PostgreSQL) and cloned for every test, so tests are isolated and fast.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa

from memwise import FixedClock, Memwise
from memwise.storage.engine import Database

PG_ADMIN_URL = os.environ.get(
    "MEMWISE_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
START = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)


def _pg_admin() -> sa.Engine:
    return sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT", pool_pre_ping=True)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tpl") / "template.db"
    db = Database(f"sqlite:///{path}")
    db.migrate()
    with db.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    db.dispose()
    return path


@pytest.fixture(scope="session")
def pg_template() -> Iterator[str]:
    try:
        admin = _pg_admin()
        with admin.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
    except Exception as exc:  # the server is not there
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required in CI and is unreachable: {exc}", pytrace=False)
        pytest.skip(f"PostgreSQL not reachable at {PG_ADMIN_URL}; its tests are skipped")
    name = f"mw_tpl_{uuid.uuid4().hex[:10]}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    url = sa.make_url(PG_ADMIN_URL).set(database=name).render_as_string(hide_password=False)
    db = Database(url)
    db.migrate()
    db.dispose()
    yield name
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.dispose()


def _pg_clone(template: str) -> tuple[str, str]:
    name = f"mw_t_{uuid.uuid4().hex[:12]}"
    admin = _pg_admin()
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    admin.dispose()
    return name, sa.make_url(PG_ADMIN_URL).set(database=name).render_as_string(hide_password=False)


def _pg_drop(name: str) -> None:
    admin = _pg_admin()
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.dispose()


@pytest.fixture
def pg_mw(request: pytest.FixtureRequest, clock: FixedClock) -> Iterator[Memwise]:
    """memwise on a PostgreSQL database of its own (for what only PostgreSQL does)."""
    name, url = _pg_clone(request.getfixturevalue("pg_template"))
    mw = Memwise.open(url, clock=clock, migrate=False)
    yield mw
    mw.close()
    _pg_drop(name)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A freshly migrated, empty database on each backend."""
    if request.param == "sqlite":
        template: Path = request.getfixturevalue("sqlite_template")
        target = tmp_path / "memwise.db"
        shutil.copy(template, target)
        yield f"sqlite:///{target}"
    else:
        name, url = _pg_clone(request.getfixturevalue("pg_template"))
        yield url
        _pg_drop(name)


@pytest.fixture
def sqlite_url(sqlite_template: Path, tmp_path: Path) -> str:
    target = tmp_path / "memwise.db"
    shutil.copy(sqlite_template, target)
    return f"sqlite:///{target}"


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(START)


@pytest.fixture
def mw(database_url: str, clock: FixedClock) -> Iterator[Memwise]:
    """The library on each backend (contract tests)."""
    m = Memwise.open(database_url, clock=clock, migrate=False)
    yield m
    m.close()


@pytest.fixture
def mw_sqlite(sqlite_url: str, clock: FixedClock) -> Iterator[Memwise]:
    """The library on SQLite only (integration tests that are not about storage)."""
    m = Memwise.open(sqlite_url, clock=clock, migrate=False)
    yield m
    m.close()
