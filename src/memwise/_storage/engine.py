"""Engines, transactions and migrations for both backends."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, Engine, make_url

from memwise import errors
from memwise._storage import postgres, sqlite
from memwise._storage.backend import Backend

MIGRATIONS = Path(__file__).parent / "migrations"


SQLITE_MMAP_BYTES = 256 << 20
# Connections kept open for a file database: as many as the server's threads use at once
# (the default pool kept 5 and opened the rest again, pragmas and all, on every request);
# more threads than this still get a connection, closed after use.
SQLITE_POOL = 40


def _sqlite_engine(url: URL) -> Engine:
    pooled = (
        {"pool_size": SQLITE_POOL, "max_overflow": -1}
        if url.database and url.database != ":memory:"
        else {}
    )
    engine = sa.create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        pool_pre_ping=False,
        hide_parameters=True,  # customer text never reaches a log through an error message
        **pooled,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves (below)
        cur = dbapi_conn.cursor()
        if url.database and url.database != ":memory:":
            cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA busy_timeout=30000")
        # Reads through a memory map (no copy through the page cache): a fifth off a
        # knowledge search at 100k chunks. The OS holds and drops the pages, not the process.
        cur.execute(f"PRAGMA mmap_size={SQLITE_MMAP_BYTES}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")

    return engine


def _postgres_engine(url: URL) -> Engine:
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    # Prepared lookups may settle on a generic plan (planning one cost about 1 ms here);
    # searches, whose plans depend on how common the words are, ask for custom plans in
    # their own transaction (PostgresBackend.custom_plans).
    engine = sa.create_engine(
        url,
        pool_size=10,
        max_overflow=10,
        pool_pre_ping=True,
        hide_parameters=True,  # customer text never reaches a log through an error message
    )

    @event.listens_for(engine, "commit")
    @event.listens_for(engine, "rollback")
    @event.listens_for(engine, "rollback_savepoint")
    def _transaction_over(conn: Connection, *_: Any) -> None:
        conn.info.pop(postgres.CUSTOM, None)  # a SET LOCAL ends with its transaction

    return engine


class Database:
    """An engine plus the backend's own SQL. Services get one of these and nothing else."""

    def __init__(self, url: str) -> None:
        try:
            parsed = make_url(url)
        except sa.exc.ArgumentError as exc:
            raise errors.Invalid(f"not a database URL: {url!r}", code="bad_database_url") from exc
        self.url = parsed
        self._unit: ContextVar[Connection | None] = ContextVar(
            f"memwise_unit_{id(self)}", default=None
        )
        self._reading: ContextVar[Connection | None] = ContextVar(
            f"memwise_reading_{id(self)}", default=None
        )
        if parsed.get_backend_name() == "sqlite":
            self.engine = _sqlite_engine(parsed)
            self.backend: Backend = sqlite.SQLiteBackend()
        elif parsed.get_backend_name() == "postgresql":
            self.engine = _postgres_engine(parsed)
            self.backend = postgres.PostgresBackend()
        else:
            raise errors.Invalid(
                f"unsupported database {parsed.get_backend_name()!r}: use sqlite or postgresql",
                code="bad_database_url",
            )

    @property
    def name(self) -> str:
        return self.backend.name

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One transaction that commits on success and rolls back on any error.

        Inside another ``write`` (a unit of work) it joins that transaction under a
        savepoint: everything commits together at the end of the outer one, or nothing.
        """
        outer = self._unit.get()
        if outer is not None:
            with outer.begin_nested():
                yield outer
            return
        conn = self.engine.connect()
        if self.name == "sqlite":
            conn = conn.execution_options(sqlite_begin="IMMEDIATE")
        token = self._unit.set(conn)
        try:
            with conn.begin():
                yield conn
        finally:
            self._unit.reset(token)
            conn.close()

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read transaction; inside a ``write`` it reads that transaction's own writes,
        inside a ``reading`` it is that one read."""
        outer = self._unit.get() or self._reading.get()
        if outer is not None:
            yield outer
            return
        with self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def reading(self) -> Iterator[None]:
        """One read transaction for every ``read`` inside it (the parts of one context read
        on one connection: one checkout, one BEGIN; one snapshot on SQLite). A ``write``
        inside it still has a transaction of its own."""
        if self._unit.get() is not None or self._reading.get() is not None:
            yield
            return
        with self.engine.connect() as conn, conn.begin():
            token = self._reading.set(conn)
            try:
                yield
            finally:
                self._reading.reset(token)

    def migrate(self, revision: str = "head") -> None:
        from alembic import command

        command.upgrade(alembic_config(self), revision)

    def current_revision(self) -> str | None:
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    def dispose(self) -> None:
        self.engine.dispose()


def alembic_config(db: Database) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["engine"] = db.engine
    return cfg


def open_database(url: str, *, migrate: bool = True) -> Database:
    db = Database(url)
    if migrate:
        db.migrate()
    return db
