"""Metering's SQL: interactions counted per workspace and month."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._ids import WorkspaceId
from memwise._storage.schema import usage

_ADD = sa.text(
    "INSERT INTO usage (workspace_id, month, interactions) VALUES (:ws, :month, :n) "
    "ON CONFLICT (workspace_id, month) DO UPDATE SET interactions = usage.interactions + :n "
    "RETURNING interactions"
)


def used(conn: Connection, workspace_id: WorkspaceId, month: str) -> int:
    value = conn.execute(
        sa.select(usage.c.interactions).where(
            usage.c.workspace_id == workspace_id, usage.c.month == month
        )
    ).scalar()
    return int(value or 0)


def add(conn: Connection, workspace_id: WorkspaceId, month: str, n: int) -> int:
    """Count ``n`` interactions atomically (the same SQL on both backends; the row stays
    locked until the transaction ends); the month's new total."""
    return int(conn.execute(_ADD, {"ws": workspace_id, "month": month, "n": n}).scalar_one())
