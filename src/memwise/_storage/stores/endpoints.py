"""Event endpoints' SQL: the URLs a workspace subscribed to its events."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._ids import WorkspaceId
from memwise._storage.schema import event_endpoints
from memwise._storage.stores.tenancy import require


def active(conn: Connection, workspace_id: WorkspaceId) -> list[Any]:
    """(id, events) of the workspace's active endpoints."""
    return list(
        conn.execute(
            sa.select(event_endpoints.c.id, event_endpoints.c.events).where(
                event_endpoints.c.workspace_id == workspace_id, event_endpoints.c.active.is_(True)
            )
        )
    )


def count(conn: Connection, workspace_id: WorkspaceId) -> int:
    return int(
        conn.execute(
            sa.select(sa.func.count())
            .select_from(event_endpoints)
            .where(event_endpoints.c.workspace_id == workspace_id)
        ).scalar_one()
    )


def insert(conn: Connection, **values: Any) -> None:
    conn.execute(event_endpoints.insert().values(**values))


def endpoint(conn: Connection, workspace_id: WorkspaceId, endpoint_id: str) -> Any:
    """The endpoint row in this workspace, or NotFound."""
    return require(conn, event_endpoints, workspace_id, endpoint_id, "endpoint")


def find(conn: Connection, workspace_id: WorkspaceId, endpoint_id: str) -> Any | None:
    """The endpoint row in this workspace, or None."""
    return conn.execute(
        sa.select(event_endpoints).where(
            event_endpoints.c.id == endpoint_id, event_endpoints.c.workspace_id == workspace_id
        )
    ).first()


def of(conn: Connection, workspace_id: WorkspaceId) -> list[Any]:
    return list(
        conn.execute(
            sa.select(event_endpoints)
            .where(event_endpoints.c.workspace_id == workspace_id)
            .order_by(event_endpoints.c.created_at)
        )
    )


def deactivate(conn: Connection, endpoint_id: str) -> None:
    conn.execute(
        event_endpoints.update().where(event_endpoints.c.id == endpoint_id).values(active=False)
    )
