"""The notebook's SQL: each staff user's working rules, oldest first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._domain.notebook import Entry
from memwise._ids import WorkspaceId
from memwise._storage.schema import notebook_entries


def entry_from_row(row: Any) -> Entry:
    return Entry(id=row.id, text=row.text, created_at=row.created_at)


def owned(conn: Connection, workspace_id: WorkspaceId, user_id: str) -> list[Any]:
    """The user's entry rows, oldest first."""
    return list(
        conn.execute(
            sa.select(notebook_entries)
            .where(
                notebook_entries.c.workspace_id == workspace_id,
                notebook_entries.c.user_id == user_id,
            )
            .order_by(notebook_entries.c.seq)
        )
    )


def same_words(
    conn: Connection, workspace_id: WorkspaceId, user_id: str, normalized: str
) -> Any | None:
    return conn.execute(
        sa.select(notebook_entries).where(
            notebook_entries.c.workspace_id == workspace_id,
            notebook_entries.c.user_id == user_id,
            notebook_entries.c.normalized == normalized,
        )
    ).first()


def insert(conn: Connection, **values: Any) -> None:
    conn.execute(notebook_entries.insert().values(**values))


def delete(conn: Connection, workspace_id: WorkspaceId, user_id: str, ids: Sequence[str]) -> int:
    """Delete these entries of this user; how many went."""
    if not ids:
        return 0
    return int(
        conn.execute(
            notebook_entries.delete().where(
                notebook_entries.c.workspace_id == workspace_id,
                notebook_entries.c.user_id == user_id,
                notebook_entries.c.id.in_(list(ids)),
            )
        ).rowcount
    )
