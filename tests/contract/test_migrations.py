"""Every migration goes down and up again on every backend."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import command

from memwise.storage.engine import Database, alembic_config
from memwise.storage.schema import metadata


def test_migrations_go_down_to_base_and_up_again(database_url: str) -> None:
    db = Database(database_url)
    head = db.current_revision()
    command.downgrade(alembic_config(db), "base")
    assert db.current_revision() is None
    assert set(sa.inspect(db.engine).get_table_names()) <= {"alembic_version"}
    db.migrate()
    assert db.current_revision() == head
    tables = set(sa.inspect(db.engine).get_table_names())
    assert set(metadata.tables) <= tables
    db.dispose()
