"""Inbound webhooks' SQL: each workspace's shared secret and the deliveries already seen."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._ids import WorkspaceId
from memwise._storage.schema import webhook_deliveries, webhook_secrets


def replace_secret(conn: Connection, workspace_id: WorkspaceId, secret: str, at: datetime) -> None:
    conn.execute(webhook_secrets.delete().where(webhook_secrets.c.workspace_id == workspace_id))
    conn.execute(
        webhook_secrets.insert().values(workspace_id=workspace_id, secret=secret, created_at=at)
    )


def secret(conn: Connection, workspace_id: WorkspaceId) -> str | None:
    found = conn.execute(
        sa.select(webhook_secrets.c.secret).where(webhook_secrets.c.workspace_id == workspace_id)
    ).scalar()
    return str(found) if found else None


def first_delivery(
    conn: Connection, workspace_id: WorkspaceId, key: str, now: datetime, keep_from: datetime
) -> bool:
    """Remember a delivery key (forgetting those received before ``keep_from``); False when
    it was already seen — also when a copy arrives at the same moment."""
    conn.execute(webhook_deliveries.delete().where(webhook_deliveries.c.received_at < keep_from))
    seen = conn.execute(
        sa.select(webhook_deliveries.c.id).where(
            webhook_deliveries.c.workspace_id == workspace_id,
            webhook_deliveries.c.delivery_key == key,
        )
    ).first()
    if seen is not None:
        return False
    try:
        with conn.begin_nested():  # two copies at once: the second is the duplicate
            conn.execute(
                webhook_deliveries.insert().values(
                    workspace_id=workspace_id, delivery_key=key, received_at=now
                )
            )
    except sa.exc.IntegrityError:
        return False
    return True
