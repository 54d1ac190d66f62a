"""The record's SQL: conversations (open, find, close) and their turns (append in a batch,
page through). Full-text search over turns is ``memwise._storage.search``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise import errors
from memwise._domain.record import Author, Turn
from memwise._domain.tenancy import (
    Agent,
    Channel,
    Conversation,
    ConversationStatus,
    RecordPolicy,
)
from memwise._ids import ContactId, ConversationId, WorkspaceId
from memwise._storage.backend import Backend
from memwise._storage.schema import (
    agents,
    contact_identities,
    contacts,
    conversations,
    kept_turns,
    turns,
    users,
    workspaces,
)
from memwise._storage.stores.tenancy import agent_from_row, require
from memwise._text import scripts


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
        cleaned=getattr(row, "cleaned", None) or 0,
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
    workspace_id: WorkspaceId,
    *,
    contact_id: ContactId | None = None,
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


def holds_account(
    conn: Connection, workspace_id: WorkspaceId, contact_id: ContactId, normalized: str
) -> bool:
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


def record_policy(conn: Connection, workspace_id: WorkspaceId, agent_id: str) -> RecordPolicy:
    value = conn.execute(
        sa.select(agents.c.record_policy).where(
            agents.c.id == agent_id, agents.c.workspace_id == workspace_id
        )
    ).scalar_one()
    return RecordPolicy(value)


def append_turns(
    conn: Connection,
    backend: Backend,
    conversation_id: ConversationId,
    batch: Sequence[dict[str, Any]],
) -> list[int]:
    """Insert the turns (the backend numbers them) and move the conversation's last activity
    forward to the latest of them; returns their sequence numbers."""
    batch = [{**r, "grams": scripts.grams(r.get("text"))} for r in batch]
    seqs = backend.insert_turns(conn, batch)
    last = max(r["at"] for r in batch)
    said = [seq for seq, r in zip(seqs, batch, strict=True) if r.get("text") is not None]
    values: dict[str, Any] = {
        "last_activity_at": sa.case(
            (conversations.c.last_activity_at < last, last),
            else_=conversations.c.last_activity_at,
        )
    }
    if said:  # what record recall's index of the contact is built from
        values["said"] = conversations.c.said + len(said)
        values["said_seq"] = sa.case(
            (conversations.c.said_seq.is_(None), max(said)),
            (conversations.c.said_seq < max(said), max(said)),
            else_=conversations.c.said_seq,
        )
    conn.execute(conversations.update().where(conversations.c.id == conversation_id).values(values))
    return seqs


def turns_page(
    conn: Connection,
    workspace_id: WorkspaceId,
    conversation_id: ConversationId,
    after: int | None,
    limit: int,
) -> list[Turn]:
    q = sa.select(turns).where(
        turns.c.workspace_id == workspace_id, turns.c.conversation_id == conversation_id
    )
    if after is not None:
        q = q.where(turns.c.seq > after)
    return [turn_from_row(r) for r in conn.execute(q.order_by(turns.c.seq).limit(limit))]


def close(
    conn: Connection,
    workspace_id: WorkspaceId,
    conversation_id: ConversationId,
    status: str,
    at: datetime,
) -> tuple[bool, ContactId | None]:
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
    contact = conn.execute(
        sa.select(conversations.c.contact_id).where(conversations.c.id == conversation_id)
    ).scalar()
    return True, ContactId(contact) if contact else None


def conversation(conn: Connection, conversation_id: ConversationId) -> Conversation:
    """A conversation by id (the caller has checked its workspace)."""
    return conversation_from_row(
        conn.execute(sa.select(conversations).where(conversations.c.id == conversation_id)).one()
    )


def all_turns(conn: Connection, conversation_id: ConversationId) -> list[Turn]:
    """Every turn of one conversation, in order."""
    return [
        turn_from_row(r)
        for r in conn.execute(
            sa.select(turns).where(turns.c.conversation_id == conversation_id).order_by(turns.c.seq)
        )
    ]


# -- the window's state, kept on the conversation -------------------------------------------
_WINDOW_COLUMNS = (turns.c.seq, turns.c.role, turns.c.text, turns.c.at)


def last_turns(
    conn: Connection, conversation_id: ConversationId, after_seq: int, n: int
) -> list[Any]:
    """The last ``n`` turns after ``after_seq`` (seq, role, text, at), oldest first."""
    found = conn.execute(
        sa.select(*_WINDOW_COLUMNS)
        .where(turns.c.conversation_id == conversation_id, turns.c.seq > after_seq)
        .order_by(turns.c.seq.desc())
        .limit(n)
    ).all()
    return list(found)[::-1]


def turns_between(
    conn: Connection, conversation_id: ConversationId, after_seq: int, before_seq: int
) -> list[Any]:
    """Turns with after_seq < seq < before_seq (seq, role, text, at), in order."""
    return list(
        conn.execute(
            sa.select(*_WINDOW_COLUMNS)
            .where(
                turns.c.conversation_id == conversation_id,
                turns.c.seq > after_seq,
                turns.c.seq < before_seq,
            )
            .order_by(turns.c.seq)
        ).all()
    )


def save_summary(
    conn: Connection,
    conversation_id: ConversationId,
    seen_upto: int | None,
    summary: str | None,
    upto: int,
) -> None:
    """Store the window's summary, only if nobody else moved it since ``seen_upto``."""
    conn.execute(
        conversations.update()
        .where(
            conversations.c.id == conversation_id,
            conversations.c.summary_upto_seq.is_(None)
            if seen_upto is None
            else conversations.c.summary_upto_seq == seen_upto,
        )
        .values(summary=summary, summary_upto_seq=upto)
    )


def reset_window(conn: Connection, conversation_id: ConversationId) -> None:
    """The window starts after the last turn so far; summary and pending state cleared."""
    last = conn.execute(
        sa.select(sa.func.max(turns.c.seq)).where(turns.c.conversation_id == conversation_id)
    ).scalar()
    conn.execute(
        conversations.update()
        .where(conversations.c.id == conversation_id)
        .values(window_from_seq=last or 0, summary=None, summary_upto_seq=None, pending=None)
    )


def set_pending(
    conn: Connection, conversation_id: ConversationId, pending: dict[str, Any] | None
) -> None:
    conn.execute(
        conversations.update().where(conversations.c.id == conversation_id).values(pending=pending)
    )


def open_with_overrides(conn: Connection, workspace_id: WorkspaceId | None) -> list[Any]:
    """Every open conversation (of one workspace, or all) with its agent's window overrides."""
    return list(
        conn.execute(
            sa.select(
                conversations.c.id,
                conversations.c.workspace_id,
                conversations.c.channel,
                conversations.c.last_activity_at,
                agents.c.window_overrides,
            )
            .join(agents, agents.c.id == conversations.c.agent_id)
            .where(
                conversations.c.status == ConversationStatus.open.value,
                *([conversations.c.workspace_id == workspace_id] if workspace_id else []),
            )
        ).all()
    )


def open_thread(
    conn: Connection,
    workspace_id: WorkspaceId,
    channel: str,
    thread: str,
    contact_ids: Sequence[str],
) -> ConversationId | None:
    """The newest open conversation of this thread held by one of these contacts."""
    found = conn.execute(
        sa.select(conversations.c.id)
        .where(
            conversations.c.workspace_id == workspace_id,
            conversations.c.channel == channel,
            conversations.c.thread == thread,
            conversations.c.status == ConversationStatus.open.value,
            conversations.c.contact_id.in_(list(contact_ids)),
        )
        .order_by(conversations.c.started_at.desc())
    ).scalar()
    return ConversationId(str(found)) if found else None


@dataclass(frozen=True)
class Header:
    """What every turn of a conversation starts from, read in one round trip."""

    conv: Any  # the conversation's row (window state included)
    firm: str
    timezone: str
    agent: Agent
    person: str  # the staff user's name, else the contact's


_HEADER = (
    sa.select(
        conversations,
        workspaces.c.name.label("h_firm"),
        workspaces.c.timezone.label("h_timezone"),
        sa.func.coalesce(users.c.name, contacts.c.name).label("h_person"),
        *[c.label(f"h_agent_{c.name}") for c in agents.c],
    )
    .join(workspaces, workspaces.c.id == conversations.c.workspace_id)
    .join(agents, agents.c.id == conversations.c.agent_id)
    .outerjoin(users, users.c.id == conversations.c.user_id)
    .outerjoin(contacts, contacts.c.id == conversations.c.contact_id)
    .where(
        conversations.c.id == sa.bindparam("id"),
        conversations.c.workspace_id == sa.bindparam("ws"),
    )
)


def header(conn: Connection, workspace_id: WorkspaceId, conversation_id: ConversationId) -> Header:
    """The conversation with its workspace, agent and person, or NotFound."""
    row = conn.execute(_HEADER, {"id": conversation_id, "ws": workspace_id}).first()
    if row is None:
        raise errors.NotFound("no such conversation", code="conversation_not_found")
    m = row._mapping
    agent = SimpleNamespace(**{c.name: m[f"h_agent_{c.name}"] for c in agents.c})
    return Header(row, m["h_firm"], m["h_timezone"], agent_from_row(agent), m["h_person"])


def conversation_row(
    conn: Connection, workspace_id: WorkspaceId, conversation_id: ConversationId
) -> Any:
    """The conversation's row in this workspace (window state included), or NotFound."""
    return require(conn, conversations, workspace_id, conversation_id, "conversation")


# -- a contact's history across conversations -----------------------------------------------
def _contact_conversations(workspace_id: WorkspaceId, contact_id: ContactId) -> Any:
    return sa.select(conversations.c.id).where(
        conversations.c.workspace_id == workspace_id, conversations.c.contact_id == contact_id
    )


def history_version(
    conn: Connection, workspace_id: WorkspaceId, contact_id: ContactId
) -> tuple[int, int]:
    """(how many turns with text, the newest of them) of the contact's conversations: read
    from the conversations' own counts, never the turns."""
    count, newest = conn.execute(
        sa.select(sa.func.sum(conversations.c.said), sa.func.max(conversations.c.said_seq)).where(
            conversations.c.workspace_id == workspace_id, conversations.c.contact_id == contact_id
        )
    ).one()
    return int(count or 0), int(newest or 0)


def _said(workspace_id: WorkspaceId, *columns: Any) -> Any:
    """A select of turns with text, joined to their conversation, within the workspace."""
    return (
        sa.select(*columns)
        .select_from(turns.join(conversations, conversations.c.id == turns.c.conversation_id))
        .where(conversations.c.workspace_id == workspace_id, turns.c.text.is_not(None))
    )


_TURN_COLUMNS = (
    turns.c.seq,
    conversations.c.started_at,
    turns.c.id,
    turns.c.conversation_id,
    turns.c.role,
    turns.c.text,
    turns.c.at,
    conversations.c.agent_id,
    conversations.c.user_id,
    conversations.c.status,
    turns.c.embedder,
    turns.c.embedding,
    turns.c.token_vectors,
)


def _usable(embedder: str | None, fmt: int) -> Any:
    """Kept turns of layout ``fmt`` with ``embedder``'s vectors (None: whichever)."""
    found = kept_turns.c.format == fmt
    return found if embedder is None else sa.and_(found, kept_turns.c.embedder == embedder)


def contact_conversations(
    conn: Connection, workspace_id: WorkspaceId, contact_id: ContactId
) -> list[Any]:
    """The contact's conversations with turns that have text: id, start, agent, staff user,
    status, how many such turns and the newest of them."""
    return list(
        conn.execute(
            sa.select(
                conversations.c.id,
                conversations.c.started_at,
                conversations.c.agent_id,
                conversations.c.user_id,
                conversations.c.status,
                conversations.c.said,
                conversations.c.said_seq,
            ).where(
                conversations.c.workspace_id == workspace_id,
                conversations.c.contact_id == contact_id,
                conversations.c.said > 0,
            )
        )
    )


def kept_values(
    conn: Connection,
    backend: Backend,
    conversation_ids: Sequence[str],
    embedder: str | None,
    fmt: int,
) -> dict[str, tuple[int, int, bytes]]:
    """What is kept of these conversations in layout ``fmt`` with ``embedder``'s vectors
    (any, when None): {conversation id: (newest seq kept, how many turns, the value)}."""
    if not conversation_ids:
        return {}
    found = backend.binary_rows(
        conn,
        sa.select(
            kept_turns.c.conversation_id,
            kept_turns.c.upto_seq,
            kept_turns.c.turns,
            kept_turns.c.data,
        ).where(kept_turns.c.conversation_id.in_(list(conversation_ids)), _usable(embedder, fmt)),
    )
    return {str(c): (int(upto), int(count), bytes(data)) for c, upto, count, data in found}


def turn_pieces(
    conn: Connection,
    backend: Backend,
    workspace_id: WorkspaceId,
    turn_ids: Sequence[str],
    embedder: str,
) -> dict[str, bytes]:
    """The word pieces' vectors ``embedder`` made of these turns, by turn id (turns without
    them left out). Read by the turns' ids alone, the workspace and embedder checked after:
    the unique index serves it whatever the tables' statistics."""
    found = backend.binary_rows(
        conn,
        sa.select(turns.c.id, turns.c.workspace_id, turns.c.embedder, turns.c.token_vectors).where(
            turns.c.id.in_(list(turn_ids))
        ),
    )
    return {
        str(tid): bytes(data)
        for tid, ws, by, data in found
        if ws == workspace_id and by == embedder and data is not None
    }


def turns_of(
    conn: Connection, workspace_id: WorkspaceId, conversation_ids: Sequence[str], limit: int
) -> list[Any]:
    """The newest ``limit`` turns with text of these conversations, each with its
    conversation's start, agent, staff user and status, its vector and word pieces; ordered
    conversation by conversation, each one whole (record recall reads them)."""
    if not conversation_ids:
        return []
    found = list(
        conn.execute(
            _said(workspace_id, *_TURN_COLUMNS)
            .where(turns.c.conversation_id.in_(list(conversation_ids)))
            .order_by(turns.c.seq.desc())
            .limit(limit)
        )
    )
    found.sort(key=lambda r: (r.started_at, r.conversation_id, r.seq))
    return found


def conversation_turns(
    conn: Connection, workspace_id: WorkspaceId, conversation_id: ConversationId
) -> list[Any]:
    """A conversation's turns with text, as :func:`turns_of` gives them, in order."""
    return list(
        conn.execute(
            _said(workspace_id, *_TURN_COLUMNS)
            .where(turns.c.conversation_id == conversation_id)
            .order_by(turns.c.seq)
        )
    )


def conversation_state(
    conn: Connection, workspace_id: WorkspaceId, conversation_id: ConversationId
) -> Any | None:
    """A conversation's contact and status, or None."""
    return conn.execute(
        sa.select(conversations.c.contact_id, conversations.c.status).where(
            conversations.c.workspace_id == workspace_id, conversations.c.id == conversation_id
        )
    ).one_or_none()


def keep_turns(
    conn: Connection,
    workspace_id: WorkspaceId,
    kept: Sequence[tuple[str, int, int, bytes]],
    embedder: str | None,
    fmt: int,
    now: datetime,
) -> None:
    """Keep each (conversation id, newest seq, turns, value), replacing what was kept."""
    if not kept:
        return
    conn.execute(
        kept_turns.delete().where(
            kept_turns.c.workspace_id == workspace_id,
            kept_turns.c.conversation_id.in_([k[0] for k in kept]),
        )
    )
    conn.execute(
        kept_turns.insert(),
        [
            {
                "conversation_id": cid,
                "workspace_id": workspace_id,
                "format": fmt,
                "embedder": embedder,
                "upto_seq": upto,
                "turns": count,
                "data": data,
                "made_at": now,
            }
            for cid, upto, count, data in kept
        ],
    )


def set_turn_vectors(
    conn: Connection,
    workspace_id: WorkspaceId,
    embedder: str,
    vectors: dict[str, bytes],
    tokens: dict[str, bytes] | None = None,
) -> None:
    """Keep each turn's vector (by turn id) with the embedder that made it, and its word
    pieces' vectors when ``tokens`` gives them (else none: they were another embedder's)."""
    if not vectors:
        return
    conn.execute(
        turns.update()
        .where(turns.c.id == sa.bindparam("tid"), turns.c.workspace_id == workspace_id)
        .values(
            embedder=embedder,
            embedding=sa.bindparam("vec"),
            token_vectors=sa.bindparam("tok"),
        ),
        [{"tid": tid, "vec": vec, "tok": (tokens or {}).get(tid)} for tid, vec in vectors.items()],
    )


def ended_conversations(
    conn: Connection, workspace_id: WorkspaceId, contact_id: ContactId
) -> list[ConversationId]:
    """The contact's conversations that are no longer open, oldest first."""
    return [
        ConversationId(str(c))
        for c in conn.execute(
            sa.select(conversations.c.id)
            .where(
                conversations.c.workspace_id == workspace_id,
                conversations.c.contact_id == contact_id,
                conversations.c.status != ConversationStatus.open.value,
            )
            .order_by(conversations.c.started_at)
        ).scalars()
    ]


def memory_gate(
    conn: Connection, workspace_id: WorkspaceId, conversation_id: ConversationId
) -> Any | None:
    """What decides whether a conversation may become memory: the workspace's plan, the
    agent's memory switch, the conversation's exclusion and its contact."""
    return conn.execute(
        sa.select(
            workspaces.c.plan,
            agents.c.memory_enabled,
            conversations.c.excluded_from_memory,
            conversations.c.contact_id,
        )
        .select_from(
            conversations.join(agents, agents.c.id == conversations.c.agent_id).join(
                workspaces, workspaces.c.id == conversations.c.workspace_id
            )
        )
        .where(conversations.c.id == conversation_id, conversations.c.workspace_id == workspace_id)
    ).first()
