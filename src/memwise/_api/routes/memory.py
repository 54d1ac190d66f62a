"""Contact memory: items, edits, archive, recall, relations, and data requests."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from fastapi import Query

from memwise import errors
from memwise._api import routes
from memwise._api.auth import MW, Admin, Operator, ws
from memwise._api.schemas import MemoryNoteIn, MemoryPatch, RecallIn, RememberIn, out, page
from memwise._domain.shapes import served
from memwise._ids import ContactId, ConversationId
from memwise._services.memory.memory import NewItem
from memwise._web.threads import waiting
from memwise.client import models as m

router = routes.router("/v1")


@router.get("/contacts/{contact_id}/memory", response_model=m.Page[m.MemoryItem])
def items(
    contact_id: ContactId,
    caller: Operator,
    mw: MW,
    include: str = Query("", max_length=100, description="superseded,archived"),
    kind: str | None = Query(None, max_length=20),
    trust: str | None = Query(None, max_length=20),
) -> dict[str, Any]:
    wanted = [p.strip() for p in include.split(",") if p.strip()]
    found = mw.memory.items(ws(caller), contact_id, include=wanted, kind=kind, trust_filter=trust)
    return page([served(s) for s in found], None)


@router.get("/contacts/{contact_id}/summaries", response_model=m.Page[m.MemoryItem])
def summaries(contact_id: ContactId, caller: Operator, mw: MW) -> dict[str, Any]:
    """The contact's session summaries, newest conversation first: what each conversation
    wanted, decided and left open, every sentence with the turn it came from."""
    return page([served(s) for s in mw.memory.summaries(ws(caller), contact_id)], None)


@router.get("/conversations/{conversation_id}/summary", response_model=m.MemoryItem)
def conversation_summary(
    conversation_id: ConversationId, caller: Operator, mw: MW
) -> dict[str, Any]:
    """One conversation's session summary (404 ``no_summary`` until it is extracted, or
    when nothing in it could be grounded)."""
    workspace = ws(caller)
    mw.record.get(workspace, conversation_id)  # 404 for another workspace's conversation
    found = mw.memory.summary_of(workspace, conversation_id)
    if found is None:
        raise errors.NotFound("this conversation has no summary", code="no_summary")
    return served(found)


@router.post("/contacts/{contact_id}/memory", status_code=201, response_model=m.Written)
def add_note(contact_id: ContactId, body: MemoryNoteIn, caller: Operator, mw: MW) -> dict[str, Any]:
    """An operator's own note or fact about the contact (source: operator)."""
    written = mw.memory.write(
        ws(caller),
        contact_id,
        NewItem(
            kind=body.kind,
            text=body.text,
            key=body.key,
            source="operator",
            occurs_on=body.occurs_on,
            entities=body.entities,
        ),
    )
    return {
        "action": written.action,
        "affected": written.affected,
        "item": served(mw.memory.get(ws(caller), written.item.id)),
    }


@router.get("/memories", response_model=m.Page[m.MemoryItem])
def list_memories(
    caller: Operator,
    mw: MW,
    contact_id: ContactId | None = Query(None, max_length=40),
    kind: str | None = Query(None, max_length=20),
    trust: str | None = Query(None, max_length=20),
    key: str | None = Query(None, max_length=200, description='a key, or a prefix ending in "."'),
    since: datetime | None = Query(None, description="recorded at or after"),
    until: datetime | None = Query(None, description="recorded before"),
    include: str = Query("", max_length=100, description="superseded,archived"),
    limit: int = Query(50, ge=1, le=200),
    cursor: str | None = Query(None, max_length=40),
) -> dict[str, Any]:
    """The workspace's memory items, newest first, filtered by contact, kind, trust, key (or
    a key prefix) and when they were recorded; paged with ``next_cursor``."""
    wanted = [p.strip() for p in include.split(",") if p.strip()]
    found, next_cursor = mw.memory.listing(
        ws(caller),
        contact_id=contact_id,
        kind=kind,
        trust=trust,
        key=key,
        since=since,
        until=until,
        include=wanted,
        limit=limit,
        cursor=cursor,
    )
    return page([served(s) for s in found], next_cursor)


@router.get("/memories/{item_id}", response_model=m.MemoryItem)
def get_memory(item_id: str, caller: Operator, mw: MW) -> dict[str, Any]:
    return served(mw.memory.get(ws(caller), item_id))


@router.get("/memories/{item_id}/history", response_model=m.MemoryHistory)
def memory_history(item_id: str, caller: Operator, mw: MW) -> dict[str, Any]:
    """One memory's life: its versions from the first mention through every correction, and
    every change to each (created, superseded, conflicted, edited, archived) with its actor,
    time and reason."""
    life = mw.memory.history(ws(caller), item_id)
    return {
        "item_id": life.item_id,
        "versions": [served(s) for s in life.versions],
        "changes": [{**vars(c), "at": c.at.isoformat()} for c in life.changes],
    }


@router.delete("/memories/{item_id}", response_model=m.MemoryDeleted)
def delete_memory(item_id: str, caller: Admin, mw: MW) -> dict[str, Any]:
    """Erase one item, its quotes and its history (admins). The audit log keeps that it was
    deleted, by whom and when, never its text."""
    mw.memory.delete(ws(caller), item_id, actor=caller.actor)
    return {"deleted": item_id}


@router.patch("/memories/{item_id}", response_model=m.MemoryItem)
@router.patch("/memory/{item_id}", response_model=m.MemoryItem, include_in_schema=False)
def edit(item_id: str, body: MemoryPatch, caller: Operator, mw: MW) -> dict[str, Any]:
    """Change an item's text or date (``/v1/memory/{id}`` is the older path, kept)."""
    changes = body.model_dump(exclude_unset=True)
    return served(
        mw.memory.edit(
            ws(caller),
            item_id,
            text=changes.get("text"),
            occurs_on=changes.get("occurs_on", ...),
            actor=caller.actor,
        )
    )


@router.post("/memories/{item_id}/archive", response_model=m.MemoryItem)
@router.post("/memory/{item_id}/archive", response_model=m.MemoryItem, include_in_schema=False)
def archive(item_id: str, caller: Operator, mw: MW) -> dict[str, Any]:
    """Archive an item: it stays, marked (``/v1/memory/{id}/archive`` is the older path)."""
    return served(mw.memory.archive(ws(caller), item_id, actor=caller.actor))


@router.get("/contacts/{contact_id}/memory/relations", response_model=m.Graph)
def relations(contact_id: ContactId, caller: Operator, mw: MW) -> dict[str, Any]:
    return mw.memory.relations(ws(caller), contact_id)


@router.post("/contacts/{contact_id}/recall", response_model=m.Recall)
def recall(contact_id: ContactId, body: RecallIn, caller: Operator, mw: MW) -> dict[str, Any]:
    r = mw.recaller.recall(ws(caller), contact_id, body.request, limit=body.limit)
    return {
        "profile": [vars(line) for line in r.profile],
        "notes": [vars(line) for line in r.notes],
        "explain": [vars(c) for c in r.explain],
    }


@router.get("/contacts/{contact_id}/history", response_model=m.Page[m.HistoryHit])
def history(
    contact_id: ContactId,
    caller: Operator,
    mw: MW,
    q: str = Query(..., min_length=1, max_length=2000),
    k: int = Query(10, ge=1, le=100),
    asked_by: Literal["customer", "staff"] = Query(
        "customer", description='who asks: whose "I" the question speaks in'
    ),
) -> dict[str, Any]:
    """The contact's earlier turns that best answer ``q`` (recall over the record)."""
    hits = mw.history.recall(ws(caller), contact_id, q, k=k, asked_by=asked_by)
    return page([out(h) for h in hits], None)


@router.get("/contacts/{contact_id}/export", response_model=m.Export)
def export(contact_id: ContactId, caller: Admin, mw: MW) -> dict[str, Any]:
    return mw.data_requests.export(ws(caller), contact_id, by=caller)


@router.delete("/contacts/{contact_id}", response_model=m.Deleted)
def delete(contact_id: ContactId, caller: Admin, mw: MW) -> dict[str, Any]:
    return {
        "deleted": mw.data_requests.delete(ws(caller), contact_id, actor=caller.actor, by=caller)
    }


@router.post("/memories", status_code=201, response_model=m.Remembered)
async def remember(body: RememberIn, caller: Operator, mw: MW) -> dict[str, Any]:
    """The quick path: record these messages as one conversation of the contact, end it and
    extract now (the same harness and write boundary as the worker). A model extracts in its
    own time: in the workspace's share of the threads for waiting."""
    done = await waiting(
        mw.remember,
        ws(caller),
        body.contact_id,
        [m.model_dump() for m in body.messages],
        agent_id=body.agent_id,
        channel=body.channel,
        user_id=body.user_id,
        email=body.email,
        phone=body.phone,
        name=body.name,
        share_of=ws(caller),
    )
    return {
        "conversation_id": done.conversation_id,
        "contact_id": done.contact_id,
        "status": done.status,
        "reason": done.reason,
        "items": [served(s) for s in done.items],
        "refused": done.refused,
        "discarded": done.discarded,
    }
