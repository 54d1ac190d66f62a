"""Memory items' SQL: insert, the active rows a new value meets, supersession and conflict
marks, mentions, vectors, and a contact's rows. No rules here: the domain decides what a new
value does to an old one, the memory service when."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._domain.memory import Evidence, Item, Kind, Lifecycle, Scope, Source
from memwise._ids import ContactId, ConversationId, WorkspaceId
from memwise._storage.schema import (
    contacts,
    conversations,
    memory_changes,
    memory_items,
    turns,
    workspaces,
)
from memwise._storage.stores import lacking_vectors


def item_from_row(r: Any) -> Item:
    return Item(
        id=r.id,
        workspace_id=r.workspace_id,
        contact_id=r.contact_id,
        kind=Kind(r.kind),
        scope=Scope(r.scope),
        text=r.text,
        key=r.key,
        source=Source(r.source),
        evidence=[
            Evidence(
                e["turn_id"], e["quote"], datetime.fromisoformat(e["at"]) if e.get("at") else None
            )
            for e in r.evidence
        ],
        recorded_at=r.recorded_at,
        last_mentioned_at=r.last_mentioned_at,
        occurs_on=r.occurs_on,
        lifecycle=Lifecycle(r.lifecycle),
        conflicted=r.conflicted,
        superseded_by=r.superseded_by,
        superseded_at=r.superseded_at,
        superseded_why=r.superseded_why,
        edited=r.edited,
        conversation_id=r.conversation_id,
        entities=list(r.entities or []),
        occurs_phrase=r.occurs_phrase,
        extractor=r.extractor,
        prompt_version=r.prompt_version,
        labels=dict(r.labels or {}),
    )


def evidence_json(evidence: Iterable[Evidence]) -> list[dict[str, Any]]:
    return [
        {"turn_id": e.turn_id, "quote": e.quote, "at": e.at.isoformat() if e.at else None}
        for e in evidence
    ]


# Every update raises the row's revision: (count, newest seq, sum of revisions) of a
# contact's rows changes with any write, which is what keeps a cache of them honest.
_NEXT = memory_items.c.revision + 1


_ZONE_VERSION = (
    sa.select(
        workspaces.c.timezone,
        sa.func.count(memory_items.c.seq),
        sa.func.max(memory_items.c.seq),
        sa.func.sum(memory_items.c.revision),
    )
    .select_from(contacts)
    .join(workspaces, workspaces.c.id == contacts.c.workspace_id)
    .outerjoin(
        memory_items,
        sa.and_(
            memory_items.c.workspace_id == contacts.c.workspace_id,
            memory_items.c.contact_id == contacts.c.id,
        ),
    )
    .where(contacts.c.id == sa.bindparam("c"), contacts.c.workspace_id == sa.bindparam("ws"))
    .group_by(workspaces.c.timezone)
)


def zone_and_version(
    conn: Connection, workspace_id: WorkspaceId, contact_id: ContactId
) -> tuple[str, tuple[int, int, int]] | None:
    """The contact's timezone (its workspace's) and its items' version — what changes
    whenever any item of the contact is written, changed or deleted, read from the version
    index alone — in one round trip;
    None when there is no such contact."""
    row = conn.execute(_ZONE_VERSION, {"ws": workspace_id, "c": contact_id}).first()
    if row is None:
        return None
    tz, n, newest, revisions = row
    return str(tz), (int(n or 0), int(newest or 0), int(revisions or 0))


def _owner(contact_id: ContactId | None) -> Any:
    return (
        memory_items.c.contact_id == contact_id
        if contact_id
        else memory_items.c.contact_id.is_(None)
    )


def contact_rows(
    conn: Connection,
    workspace_id: WorkspaceId,
    contact_id: ContactId,
    lifecycles: Iterable[str] | None = None,
) -> list[Any]:
    """Every item row of one contact (of these lifecycles), oldest first: read by the contact
    index, sorted here (asking the database to ORDER BY seq lets SQLite's planner walk the
    whole table in primary-key order instead of using the contact index)."""
    q = sa.select(memory_items).where(
        memory_items.c.workspace_id == workspace_id, memory_items.c.contact_id == contact_id
    )
    if lifecycles is not None:
        q = q.where(memory_items.c.lifecycle.in_(list(lifecycles)))
    return sorted(conn.execute(q), key=lambda r: r.seq)


def texts_by_turn(
    conn: Connection, workspace_id: WorkspaceId, contact_id: ContactId
) -> dict[str, list[str]]:
    """For each turn an item of this contact quotes, the texts of those items (any state: a
    superseded item still says what that turn was about)."""
    out: dict[str, list[str]] = {}
    for r in conn.execute(
        sa.select(memory_items.c.seq, memory_items.c.text, memory_items.c.evidence).where(
            memory_items.c.workspace_id == workspace_id,
            memory_items.c.contact_id == contact_id,
        )
    ):
        for e in r.evidence or []:
            if isinstance(e, dict) and e.get("turn_id"):
                out.setdefault(str(e["turn_id"]), []).append(str(r.text))
    return out


def active_matching(
    conn: Connection,
    workspace_id: WorkspaceId,
    contact_id: ContactId | None,
    key: str | None,
    norm: str,
) -> list[Any]:
    """The active rows a new value meets: the same words, or the same key."""
    match = memory_items.c.normalized == norm
    if key:
        match = sa.or_(match, memory_items.c.key == key)
    return list(
        conn.execute(
            sa.select(memory_items).where(
                memory_items.c.workspace_id == workspace_id,
                memory_items.c.lifecycle == Lifecycle.active.value,
                _owner(contact_id),
                match,
            )
        ).all()
    )


def due(
    conn: Connection, key: str, before: datetime, workspace_id: WorkspaceId | None = None
) -> list[Any]:
    """Active items of ``key`` whose date has come (every workspace, or one)."""
    q = sa.select(memory_items).where(
        memory_items.c.key == key,
        memory_items.c.lifecycle == Lifecycle.active.value,
        memory_items.c.occurs_at <= before,
    )
    if workspace_id is not None:
        q = q.where(memory_items.c.workspace_id == workspace_id)
    return list(conn.execute(q.order_by(memory_items.c.seq)).all())


def stated_since(
    conn: Connection, workspace_id: WorkspaceId, contact_id: ContactId, key: str, since: datetime
) -> list[Any]:
    """Items of ``key`` for the contact recorded at or after ``since`` (any lifecycle)."""
    return list(
        conn.execute(
            sa.select(memory_items).where(
                memory_items.c.workspace_id == workspace_id,
                memory_items.c.contact_id == contact_id,
                memory_items.c.key == key,
                memory_items.c.recorded_at >= since,
            )
        ).all()
    )


def mentioned(conn: Connection, item_id: str, evidence: list[dict[str, Any]], at: datetime) -> None:
    conn.execute(
        memory_items.update()
        .where(memory_items.c.id == item_id)
        .values(last_mentioned_at=at, evidence=evidence, revision=_NEXT)
    )


def insert(
    conn: Connection,
    item: Item,
    norm: str,
    occurs_at: datetime | None,
    superseded_by: str | None,
    now: datetime,
) -> None:
    conn.execute(
        memory_items.insert().values(
            id=item.id,
            workspace_id=item.workspace_id,
            contact_id=item.contact_id,
            conversation_id=item.conversation_id,
            kind=item.kind.value,
            scope=item.scope.value,
            text=item.text,
            normalized=norm,
            key=item.key,
            source=item.source.value,
            evidence=evidence_json(item.evidence),
            entities=item.entities,
            labels=item.labels,
            recorded_at=item.recorded_at,
            last_mentioned_at=item.last_mentioned_at,
            occurs_on=item.occurs_on,
            occurs_at=occurs_at,
            occurs_phrase=item.occurs_phrase,
            lifecycle=(Lifecycle.superseded if superseded_by else Lifecycle.active).value,
            conflicted=False,
            superseded_by=superseded_by,
            superseded_at=now if superseded_by else None,
            superseded_why="an older statement, recorded after a newer one"
            if superseded_by
            else None,
            edited=False,
            extractor=item.extractor,
            prompt_version=item.prompt_version,
        )
    )


def supersede(conn: Connection, old_id: str, new_id: str, now: datetime, why: str) -> None:
    conn.execute(
        memory_items.update()
        .where(memory_items.c.id == old_id)
        .values(
            lifecycle=Lifecycle.superseded.value,
            superseded_by=new_id,
            superseded_at=now,
            superseded_why=why[:300],
            conflicted=False,
            revision=_NEXT,
        )
    )


def settle_conflicts(
    conn: Connection, workspace_id: WorkspaceId, contact_id: ContactId | None, key: str | None
) -> None:
    """Active items sharing a key are conflicted exactly when there is more than one."""
    if not key:
        return
    live = sa.and_(
        memory_items.c.workspace_id == workspace_id,
        _owner(contact_id),
        memory_items.c.key == key,
        memory_items.c.lifecycle == Lifecycle.active.value,
    )
    count = conn.execute(sa.select(sa.func.count()).where(live)).scalar_one()
    conn.execute(memory_items.update().where(live).values(conflicted=count > 1, revision=_NEXT))


def unembedded(
    conn: Connection, embedder: str, limit: int, workspace_id: WorkspaceId | None = None
) -> list[Any]:
    """(id, text, seq) of items without a vector of ``embedder`` (none yet, or another
    embedder's), oldest first, at most ``limit`` (``ix_memory_items_embedder``)."""
    c = memory_items.c
    where = [] if workspace_id is None else [c.workspace_id == workspace_id]
    return lacking_vectors.rows(conn, memory_items, [c.id, c.text], embedder, limit, *where)


def set_vector(
    conn: Connection, item_id: str, embedder: str, vector: bytes, text: str | None = None
) -> None:
    """Keep the item's vector as ``embedder``'s; with ``text``, only while the item still
    says it (a sweep embeds outside the transaction: an edit in between keeps its own)."""
    where = memory_items.c.id == item_id
    if text is not None:
        where = sa.and_(where, memory_items.c.text == text)
    conn.execute(
        memory_items.update()
        .where(where)
        .values(embedder=embedder, embedding=vector, revision=_NEXT)
    )


def update(conn: Connection, item_id: str, **values: Any) -> None:
    conn.execute(
        memory_items.update().where(memory_items.c.id == item_id).values(**values, revision=_NEXT)
    )


def archive(conn: Connection, item_id: str, now: datetime) -> None:
    update(conn, item_id, lifecycle=Lifecycle.archived.value, archived_at=now, conflicted=False)


def by_key_in_conversation(
    conn: Connection, workspace_id: WorkspaceId, conversation_id: ConversationId, key: str
) -> Any | None:
    """The active item of this key that a conversation wrote (its session summary)."""
    return conn.execute(
        sa.select(memory_items).where(
            memory_items.c.workspace_id == workspace_id,
            memory_items.c.conversation_id == conversation_id,
            memory_items.c.key == key,
            memory_items.c.lifecycle == Lifecycle.active.value,
        )
    ).first()


def quoted_turn(conn: Connection, workspace_id: WorkspaceId, turn_id: str) -> Any | None:
    """The turn a quote cites, with its conversation and its contact (role, at, text,
    contact_id, conversation_id)."""
    return conn.execute(
        sa.select(
            turns.c.role,
            turns.c.at,
            turns.c.text,
            conversations.c.contact_id,
            turns.c.conversation_id,
            turns.c.seq,
        )
        .join(conversations, conversations.c.id == turns.c.conversation_id)
        .where(turns.c.id == turn_id, turns.c.workspace_id == workspace_id)
    ).first()


def turns_before(
    conn: Connection,
    workspace_id: WorkspaceId,
    conversation_id: ConversationId,
    seq: int,
    n: int = 2,
) -> list[str]:
    """The texts of the ``n`` turns of the customer or the assistant (never a tool's output
    or an operator's note) just before turn ``seq`` of a conversation: what it answers."""
    rows = conn.execute(
        sa.select(turns.c.text)
        .where(
            turns.c.workspace_id == workspace_id,
            turns.c.conversation_id == conversation_id,
            turns.c.seq < seq,
            turns.c.role.in_(("customer", "assistant")),
        )
        .order_by(turns.c.seq.desc())
        .limit(n)
    ).all()
    return [r.text or "" for r in reversed(rows)]


def archive_extracted(
    conn: Connection, workspace_id: WorkspaceId, contact_id: ContactId, now: datetime
) -> None:
    """Archive the contact's active items that extraction wrote (an operator's notes stay)."""
    conn.execute(
        memory_items.update()
        .where(
            memory_items.c.workspace_id == workspace_id,
            memory_items.c.contact_id == contact_id,
            memory_items.c.lifecycle == Lifecycle.active.value,
            memory_items.c.source != Source.operator.value,
        )
        .values(
            lifecycle=Lifecycle.archived.value, archived_at=now, conflicted=False, revision=_NEXT
        )
    )


# -- one memory's life ----------------------------------------------------------------------
def row(conn: Connection, workspace_id: WorkspaceId, item_id: str) -> Any | None:
    return conn.execute(
        sa.select(memory_items).where(
            memory_items.c.workspace_id == workspace_id, memory_items.c.id == item_id
        )
    ).first()


def insert_change(conn: Connection, **values: Any) -> None:
    """One change to an item: created, superseded, conflicted, edited or archived."""
    for name, size in (("why", 300), ("text", 1000), ("before", 1000), ("actor", 200)):
        if values.get(name) is not None:
            values[name] = str(values[name])[:size]
    conn.execute(memory_changes.insert().values(**values))


def changes(conn: Connection, workspace_id: WorkspaceId, item_ids: Iterable[str]) -> list[Any]:
    """The changes to these items, oldest first."""
    ids = list(item_ids)
    if not ids:
        return []
    return list(
        conn.execute(
            sa.select(memory_changes)
            .where(memory_changes.c.workspace_id == workspace_id, memory_changes.c.item_id.in_(ids))
            .order_by(memory_changes.c.seq)
        )
    )


def superseded_by(conn: Connection, workspace_id: WorkspaceId, item_id: str) -> list[Any]:
    """The items this one replaced (their supersession marks point at it)."""
    return list(
        conn.execute(
            sa.select(memory_items).where(
                memory_items.c.workspace_id == workspace_id,
                memory_items.c.superseded_by == item_id,
            )
        )
    )


def delete_item(conn: Connection, workspace_id: WorkspaceId, item_id: str) -> None:
    """Delete the item, its quotes and its changes; the items it replaced keep their mark,
    saying their replacement was deleted."""
    conn.execute(
        memory_items.update()
        .where(memory_items.c.workspace_id == workspace_id, memory_items.c.superseded_by == item_id)
        .values(
            superseded_by=None,
            superseded_why="replaced by an item that was later deleted",
            revision=_NEXT,
        )
    )
    conn.execute(
        memory_changes.delete().where(
            memory_changes.c.workspace_id == workspace_id, memory_changes.c.item_id == item_id
        )
    )
    conn.execute(
        memory_items.delete().where(
            memory_items.c.workspace_id == workspace_id, memory_items.c.id == item_id
        )
    )


def listing(
    conn: Connection,
    workspace_id: WorkspaceId,
    *,
    contact_id: ContactId | None,
    lifecycles: set[str],
    kind: str | None,
    key: str | None,
    since: datetime | None,
    until: datetime | None,
    limit: int,
    after: int | None,
) -> list[Any]:
    """A workspace's items, newest first, by contact, lifecycle, kind, key (a prefix with a
    trailing dot: "allergy."), and when recorded; paged by ``seq``."""
    q = sa.select(memory_items).where(
        memory_items.c.workspace_id == workspace_id,
        memory_items.c.lifecycle.in_(sorted(lifecycles)),
    )
    if contact_id is not None:
        q = q.where(memory_items.c.contact_id == contact_id)
    if kind is not None:
        q = q.where(memory_items.c.kind == kind)
    else:  # session summaries are a view of their own: listed when asked for by kind
        q = q.where(memory_items.c.kind != Kind.summary.value)
    if key is not None:
        q = q.where(
            memory_items.c.key.startswith(key, autoescape=True)
            if key.endswith(".")
            else memory_items.c.key == key
        )
    if since is not None:
        q = q.where(memory_items.c.recorded_at >= since)
    if until is not None:
        q = q.where(memory_items.c.recorded_at < until)
    if after is not None:
        q = q.where(memory_items.c.seq < after)
    return list(conn.execute(q.order_by(memory_items.c.seq.desc()).limit(limit)))
