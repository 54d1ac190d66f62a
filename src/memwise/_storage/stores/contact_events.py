"""Contact events' SQL: what happened to a customer (an order, a visit, a complaint), each
with labels kept in a table of their own for counting."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._ids import ContactId, ConversationId, WorkspaceId
from memwise._storage.schema import agents, event_labels, events, memory_items, workspaces


def insert(
    conn: Connection,
    event_id: str,
    ws_id: WorkspaceId,
    contact_id: ContactId,
    conv_id: ConversationId | None,
    type_: str,
    labels: Mapping[str, str],
    at: datetime,
    source: str,
    now: datetime,
) -> None:
    conn.execute(
        events.insert().values(
            id=event_id,
            workspace_id=ws_id,
            contact_id=contact_id,
            conversation_id=conv_id,
            type=type_,
            labels=dict(labels),
            at=at,
            source=source,
            created_at=now,
        )
    )
    if labels:
        conn.execute(
            event_labels.insert(),
            [
                {
                    "workspace_id": ws_id,
                    "event_id": event_id,
                    "contact_id": contact_id,
                    "conversation_id": conv_id,
                    "event_type": type_,
                    "label": k,
                    "value": v,
                }
                for k, v in labels.items()
            ],
        )


def label_counts(
    conn: Connection, workspace_id: WorkspaceId, contact_id: ContactId | None, shown_at: int
) -> list[Any]:
    """Per contact, label and value seen at least ``shown_at`` times (of one contact, or of
    the whole workspace): occurrences, distinct conversations, and the denominator."""
    where = [event_labels.c.workspace_id == workspace_id]
    if contact_id is not None:
        where.append(event_labels.c.contact_id == contact_id)
    per_value = (
        sa.select(
            event_labels.c.workspace_id,
            event_labels.c.contact_id,
            event_labels.c.label,
            event_labels.c.value,
            sa.func.min(event_labels.c.event_type).label("event_type"),
            sa.func.count().label("n"),
            sa.func.count(sa.distinct(event_labels.c.conversation_id)).label("convs"),
        )
        .where(*where)
        .group_by(
            event_labels.c.workspace_id,
            event_labels.c.contact_id,
            event_labels.c.label,
            event_labels.c.value,
        )
        .having(sa.func.count() >= shown_at)
        .subquery()
    )
    totals = (
        sa.select(event_labels.c.contact_id, event_labels.c.label, sa.func.count().label("total"))
        .where(*where)
        .group_by(event_labels.c.contact_id, event_labels.c.label)
        .subquery()
    )
    return list(
        conn.execute(
            sa.select(per_value, totals.c.total)
            .join(
                totals,
                sa.and_(
                    totals.c.contact_id == per_value.c.contact_id,
                    totals.c.label == per_value.c.label,
                ),
            )
            .order_by(
                per_value.c.contact_id, per_value.c.label, per_value.c.n.desc(), per_value.c.value
            )
        ).all()
    )


def analysed(conn: Connection, workspace_id: WorkspaceId) -> bool:
    """Whether any agent of the workspace has business intelligence on."""
    found = conn.execute(
        sa.select(agents.c.id).where(
            agents.c.workspace_id == workspace_id, agents.c.business_intelligence.is_(True)
        )
    ).first()
    return found is not None


def workspaces_analysed(conn: Connection) -> list[tuple[str, str]]:
    """(id, plan) of workspaces with an agent that has memory and business intelligence on."""
    return [
        (str(r.id), str(r.plan))
        for r in conn.execute(
            sa.select(workspaces.c.id, workspaces.c.plan).where(
                sa.exists().where(
                    agents.c.workspace_id == workspaces.c.id,
                    agents.c.memory_enabled.is_(True),
                    agents.c.business_intelligence.is_(True),
                )
            )
        )
    ]


def pattern_items(
    conn: Connection, workspace_id: WorkspaceId, contact_id: ContactId | None = None
) -> list[Any]:
    """Every pattern item of the workspace (or of one contact), any lifecycle."""
    q = sa.select(memory_items).where(
        memory_items.c.workspace_id == workspace_id, memory_items.c.kind == "pattern"
    )
    if contact_id is not None:
        q = q.where(memory_items.c.contact_id == contact_id)
    return list(conn.execute(q))
