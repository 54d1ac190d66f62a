"""Tickets' SQL: the tickets handed to the team, and each workspace's helpdesk webhook."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._domain.knowledge import Ticket, TicketStatus
from memwise._ids import ContactId, WorkspaceId
from memwise._storage.schema import ticket_adapters, tickets


def ticket_from_row(r: Any) -> Ticket:
    return Ticket(
        r.id,
        r.contact_id,
        r.conversation_id,
        r.unanswered_id,
        r.subject,
        r.body,
        TicketStatus(r.status),
        r.adapter,
        r.external_ref,
        r.error,
        r.created_at,
    )


def ticket(conn: Connection, ticket_id: str) -> Ticket:
    return ticket_from_row(conn.execute(sa.select(tickets).where(tickets.c.id == ticket_id)).one())


def open_of(conn: Connection, workspace_id: WorkspaceId, contact_id: ContactId) -> list[Any]:
    """The contact's tickets still pending or accepted."""
    return list(
        conn.execute(
            sa.select(tickets).where(
                tickets.c.workspace_id == workspace_id,
                tickets.c.contact_id == contact_id,
                tickets.c.status.in_(("pending", "accepted")),
            )
        )
    )


def insert(conn: Connection, **values: Any) -> Ticket:
    conn.execute(tickets.insert().values(**values))
    return ticket(conn, values["id"])


def answered(
    conn: Connection,
    ticket_id: str,
    status: str,
    external_ref: str | None,
    error: str | None,
    at: datetime,
) -> None:
    conn.execute(
        tickets.update()
        .where(tickets.c.id == ticket_id)
        .values(status=status, external_ref=external_ref, error=error, updated_at=at)
    )


def of(conn: Connection, workspace_id: WorkspaceId, contact_id: ContactId | None) -> list[Ticket]:
    q = sa.select(tickets).where(tickets.c.workspace_id == workspace_id)
    if contact_id:
        q = q.where(tickets.c.contact_id == contact_id)
    return [ticket_from_row(r) for r in conn.execute(q.order_by(tickets.c.created_at))]


def adapter(conn: Connection, workspace_id: WorkspaceId) -> Any | None:
    return conn.execute(
        sa.select(ticket_adapters).where(ticket_adapters.c.workspace_id == workspace_id)
    ).first()


def set_adapter(
    conn: Connection, workspace_id: WorkspaceId, url: str, headers: dict[str, str], at: datetime
) -> None:
    drop_adapter(conn, workspace_id)
    conn.execute(
        ticket_adapters.insert().values(
            workspace_id=workspace_id, url=url, headers=headers, updated_at=at
        )
    )


def drop_adapter(conn: Connection, workspace_id: WorkspaceId) -> None:
    conn.execute(ticket_adapters.delete().where(ticket_adapters.c.workspace_id == workspace_id))
