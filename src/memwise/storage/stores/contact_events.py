"""Contact events' SQL: what happened to a customer (an order, a visit, a complaint), each
with labels kept in a table of their own for counting."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from sqlalchemy.engine import Connection

from memwise.storage.schema import event_labels, events


def insert(
    conn: Connection,
    event_id: str,
    ws_id: str,
    contact_id: str,
    conv_id: str | None,
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
