"""Shared fixtures: a migrated, empty database per test on SQLite and PostgreSQL, and a
fixed clock.

Each backend is migrated once per session into a template (a file for SQLite, a template
database for PostgreSQL). SQLite copies the file for every test. PostgreSQL clones the
template once per test process and empties that database after each test (cloning costs
~0.5 s a test here, emptying ~20 ms); a test that changed the schema gets a new clone.
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
from sqlalchemy.pool import NullPool

from memwise import FixedClock, Memwise
from memwise._storage.engine import Database

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


_SCHEMA = """
SELECT md5(coalesce((SELECT string_agg(c.relname || '/' || c.relkind::text, ',' ORDER BY c.relname)
                     FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace), '')
        || coalesce((SELECT string_agg(a.attrelid::regclass::text || '.' || a.attname || ':'
                                       || format_type(a.atttypid, a.atttypmod), ','
                                       ORDER BY a.attrelid::regclass::text, a.attname)
                     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                     WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0
                       AND NOT a.attisdropped), '')
        || coalesce((SELECT string_agg(t.tgname, ',' ORDER BY t.tgname) FROM pg_trigger t
                     WHERE NOT t.tgisinternal), '')
        || coalesce((SELECT string_agg(version_num, ',') FROM alembic_version), ''))
"""


class PgWorkerDatabase:
    """The test process's PostgreSQL database: cloned from the template once, emptied after
    each test — every table's rows deleted and every sequence restarted, so a test sees what
    a fresh clone would show. Connections a test left open are ended first; a schema that
    differs from the template's (a migration test, a table a test made) means a new clone."""

    def __init__(self, template: str) -> None:
        self.template = template
        self._clone()
        with self.engine.connect() as conn:
            self.schema = str(conn.exec_driver_sql(_SCHEMA).scalar_one())
            tables = [
                r[0]
                for r in conn.exec_driver_sql(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                    "AND tablename <> 'alembic_version'"
                )
            ]
            sequences = [
                r[0]
                for r in conn.exec_driver_sql(
                    "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'"
                )
            ]
        self.emptying = (  # one round trip, one transaction; no FK checks
            "BEGIN; SET LOCAL session_replication_role = replica; "
            + "".join(f'DELETE FROM "{table}"; ' for table in tables)
            + "".join(f'ALTER SEQUENCE "{sequence}" RESTART; ' for sequence in sequences)
            + "COMMIT"
        )

    def _clone(self) -> None:
        self.name, self.url = _pg_clone(self.template)
        self.engine = sa.create_engine(self.url, isolation_level="AUTOCOMMIT", poolclass=NullPool)

    def empty(self) -> None:
        with self.engine.connect() as conn:
            conn.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            same = str(conn.exec_driver_sql(_SCHEMA).scalar_one()) == self.schema
            if same:
                conn.exec_driver_sql(self.emptying)
        if not same:  # a migration test, a table a test made: a new clone
            self.drop()
            self._clone()

    def drop(self) -> None:
        self.engine.dispose()
        _pg_drop(self.name)


@pytest.fixture(scope="session")
def pg_worker_database(pg_template: str) -> Iterator[PgWorkerDatabase]:
    database = PgWorkerDatabase(pg_template)
    yield database
    database.drop()


@pytest.fixture
def pg_database(pg_worker_database: PgWorkerDatabase) -> Iterator[str]:
    """The URL of an empty, migrated PostgreSQL database (the process's, emptied after)."""
    yield pg_worker_database.url
    pg_worker_database.empty()


@pytest.fixture
def pg_mw(request: pytest.FixtureRequest, clock: FixedClock) -> Iterator[Memwise]:
    """memwise on a PostgreSQL database of its own (for what only PostgreSQL does)."""
    mw = Memwise.open(request.getfixturevalue("pg_database"), clock=clock, migrate=False)
    yield mw
    mw.close()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A freshly migrated, empty database on each backend."""
    if request.param == "sqlite":
        template: Path = request.getfixturevalue("sqlite_template")
        target = tmp_path / "memwise.db"
        shutil.copy(template, target)
        yield f"sqlite:///{target}"
    else:
        yield request.getfixturevalue("pg_database")


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
