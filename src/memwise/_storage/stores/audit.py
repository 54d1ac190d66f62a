"""The audit log's SQL: append one entry; read entries newest first, filtered."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._ids import ContactId, WorkspaceId
from memwise._storage.schema import audit_log


def insert(conn: Connection, **values: Any) -> None:
    conn.execute(audit_log.insert().values(**values))


def entries(
    conn: Connection,
    workspace_id: WorkspaceId,
    *,
    tool: str | None,
    status: str | None,
    contact_id: ContactId | None,
    before: int | None,
    limit: int,
) -> list[Any]:
    q = sa.select(audit_log).where(audit_log.c.workspace_id == workspace_id)
    if tool:
        q = q.where(audit_log.c.tool == tool)
    if status:
        q = q.where(audit_log.c.status == status)
    if contact_id:
        q = q.where(audit_log.c.contact_id == contact_id)
    if before is not None:
        q = q.where(audit_log.c.seq < before)
    return list(conn.execute(q.order_by(audit_log.c.seq.desc()).limit(limit)))
