"""Account sources' SQL: where each workspace's live account record is read from."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._ids import WorkspaceId
from memwise._storage.schema import account_sources


def replace(
    conn: Connection, workspace_id: WorkspaceId, type_: str, config: dict[str, Any], at: datetime
) -> None:
    conn.execute(account_sources.delete().where(account_sources.c.workspace_id == workspace_id))
    conn.execute(
        account_sources.insert().values(
            workspace_id=workspace_id, type=type_, config=config, updated_at=at
        )
    )


def of(conn: Connection, workspace_id: WorkspaceId) -> Any | None:
    """The workspace's source row (type, config), or None."""
    return conn.execute(
        sa.select(account_sources).where(account_sources.c.workspace_id == workspace_id)
    ).first()
