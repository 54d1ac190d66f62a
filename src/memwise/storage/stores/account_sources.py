"""Account sources' SQL: where each workspace's live account record is read from."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise.storage.schema import account_sources, contact_identities


def replace(
    conn: Connection, workspace_id: str, type_: str, config: dict[str, Any], at: datetime
) -> None:
    conn.execute(account_sources.delete().where(account_sources.c.workspace_id == workspace_id))
    conn.execute(
        account_sources.insert().values(
            workspace_id=workspace_id, type=type_, config=config, updated_at=at
        )
    )


def of(conn: Connection, workspace_id: str) -> Any | None:
    """The workspace's source row (type, config), or None."""
    return conn.execute(
        sa.select(account_sources).where(account_sources.c.workspace_id == workspace_id)
    ).first()


def account_refs(conn: Connection, contact_ids: Sequence[str]) -> list[tuple[str, str]]:
    """(contact id, account reference) of these contacts."""
    if not contact_ids:
        return []
    return [
        (str(r.contact_id), str(r.value))
        for r in conn.execute(
            sa.select(contact_identities.c.contact_id, contact_identities.c.value).where(
                contact_identities.c.contact_id.in_(list(contact_ids)),
                contact_identities.c.kind == "account_ref",
            )
        )
    ]
