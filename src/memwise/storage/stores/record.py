"""The record's SQL: conversations (open, find, close) and their turns (append in a batch,
page through). Full-text search over turns is ``memwise.storage.search``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise.domain.record import Author, Turn
from memwise.domain.tenancy import Channel, Conversation, ConversationStatus, RecordPolicy
from memwise.storage.backend import Backend
from memwise.storage.schema import agents, contact_identities, conversations, turns


def conversation_from_row(row: Any) -> Conversation:
    return Conversation(
        id=row.id,
        workspace_id=row.workspace_id,
        agent_id=row.agent_id,
        channel=Channel(row.channel),
        contact_id=row.contact_id,
        user_id=row.user_id,
        account_ref=row.account_ref,
        excluded_from_memory=row.excluded_from_memory,
        status=ConversationStatus(row.status),
        thread=row.thread,
        started_at=row.started_at,
        last_activity_at=row.last_activity_at,
        ended_at=row.ended_at,
        summary=row.summary,
    )


def turn_from_row(row: Any) -> Turn:
    return Turn(
        id=row.id,
        workspace_id=row.workspace_id,
        conversation_id=row.conversation_id,
        seq=row.seq,
        role=Author(row.role),
        channel=row.channel,
        text=row.text,
        at=row.at,
    )


def open_conversation(conn: Connection, **values: Any) -> None:
    conn.execute(conversations.insert().values(status=ConversationStatus.open.value, **values))


def by_token_hash(conn: Connection, token_hash: str) -> Conversation | None:
    """The open conversation a visitor token belongs to."""
    row = conn.execute(
        sa.select(conversations).where(
            conversations.c.visitor_token_hash == token_hash,
            conversations.c.status == ConversationStatus.open.value,
        )
    ).first()
    return conversation_from_row(row) if row else None


def listing(
    conn: Connection,
    workspace_id: str,
    *,
    contact_id: str | None = None,
    before: str | None = None,
    limit: int = 50,
) -> list[Conversation]:
    q = sa.select(conversations).where(conversations.c.workspace_id == workspace_id)
    if contact_id:
        q = q.where(conversations.c.contact_id == contact_id)
    if before:
        q = q.where(conversations.c.id < before)
    q = q.order_by(conversations.c.id.desc()).limit(limit)
    return [conversation_from_row(r) for r in conn.execute(q)]


def holds_account(conn: Connection, workspace_id: str, contact_id: str, normalized: str) -> bool:
    """Whether the account reference is one of the contact's."""
    return (
        conn.execute(
            sa.select(contact_identities.c.id).where(
                contact_identities.c.workspace_id == workspace_id,
                contact_identities.c.contact_id == contact_id,
                contact_identities.c.kind == "account_ref",
                contact_identities.c.normalized == normalized,
            )
        ).first()
        is not None
    )


def record_policy(conn: Connection, workspace_id: str, agent_id: str) -> RecordPolicy:
    value = conn.execute(
        sa.select(agents.c.record_policy).where(
            agents.c.id == agent_id, agents.c.workspace_id == workspace_id
        )
    ).scalar_one()
    return RecordPolicy(value)


def append_turns(
    conn: Connection, backend: Backend, conversation_id: str, batch: Sequence[dict[str, Any]]
) -> list[int]:
    """Insert the turns (the backend numbers them) and move the conversation's last activity
    forward to the latest of them; returns their sequence numbers."""
    seqs = backend.insert_turns(conn, batch)
    last = max(r["at"] for r in batch)
    conn.execute(
        conversations.update()
        .where(conversations.c.id == conversation_id)
        .values(
            last_activity_at=sa.case(
                (conversations.c.last_activity_at < last, last),
                else_=conversations.c.last_activity_at,
            )
        )
    )
    return seqs


def turns_page(
    conn: Connection, workspace_id: str, conversation_id: str, after: int | None, limit: int
) -> list[Turn]:
    q = sa.select(turns).where(
        turns.c.workspace_id == workspace_id, turns.c.conversation_id == conversation_id
    )
    if after is not None:
        q = q.where(turns.c.seq > after)
    return [turn_from_row(r) for r in conn.execute(q.order_by(turns.c.seq).limit(limit))]


def close(
    conn: Connection, workspace_id: str, conversation_id: str, status: str, at: datetime
) -> tuple[bool, str | None]:
    """Mark an open conversation closed: (whether it was open, its contact)."""
    done = conn.execute(
        conversations.update()
        .where(
            conversations.c.id == conversation_id,
            conversations.c.workspace_id == workspace_id,
            conversations.c.status == ConversationStatus.open.value,
        )
        .values(status=status, ended_at=at, pending=None)
    ).rowcount
    if not done:
        return False, None
    contact: str | None = conn.execute(
        sa.select(conversations.c.contact_id).where(conversations.c.id == conversation_id)
    ).scalar()
    return True, contact


def conversation(conn: Connection, conversation_id: str) -> Conversation:
    """A conversation by id (the caller has checked its workspace)."""
    return conversation_from_row(
        conn.execute(sa.select(conversations).where(conversations.c.id == conversation_id)).one()
    )


def all_turns(conn: Connection, conversation_id: str) -> list[Turn]:
    """Every turn of one conversation, in order."""
    return [
        turn_from_row(r)
        for r in conn.execute(
            sa.select(turns).where(turns.c.conversation_id == conversation_id).order_by(turns.c.seq)
        )
    ]
