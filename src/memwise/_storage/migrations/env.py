"""Alembic environment: runs on the engine memwise hands over (never from a config file)."""

from __future__ import annotations

from typing import Any

from alembic import context

from memwise._storage.schema import metadata


def _include(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
    # FTS shadow tables and generated search columns are managed by hand in migrations.
    n = name or ""
    return not n.endswith(("_fts", "_tsv", "_vec")) and "_fts_" not in n


engine = context.config.attributes["engine"]
with engine.connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        include_object=_include,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
