"""Conversations, their record, and record search."""

from __future__ import annotations

from typing import Any

from fastapi import Query

from memwise import errors
from memwise._api import routes
from memwise._api.auth import MW, Caller, Operator, conversation_scope, ws
from memwise._api.schemas import ConversationIn, TurnIn, TurnsIn, out, page
from memwise._ids import ContactId, ConversationId
from memwise._services.conversation.record import NewTurn
from memwise.client import models as m

router = routes.router("/v1")


@router.post("/conversations", status_code=201, response_model=m.Conversation)
def start(body: ConversationIn, caller: Operator, mw: MW) -> dict[str, Any]:
    data = body.model_dump()
    agent_id, channel, external = data.pop("agent_id"), data.pop("channel"), data.pop("external_id")
    workspace = ws(caller)
    if external is not None and data["contact_id"] is not None:
        raise errors.Invalid(
            "name the customer once: contact_id or external_id", code="contact_required"
        )
    with mw.rt.db.write():  # a contact made by its external id only with its conversation
        if external is not None:
            data["contact_id"] = mw.tenancy.contact_for(workspace, user_id=external)
        agent = mw.tenancy.agent_for(workspace, agent_id)
        conv, token = mw.record.start(workspace, agent, channel, **data, live=True)
    return out(conv, visitor_token=token)


@router.get("/conversations", response_model=m.Page[m.Conversation])
def listing(
    caller: Operator,
    mw: MW,
    contact_id: ContactId | None = Query(None, max_length=64),
    cursor: str | None = Query(None, max_length=64),
    limit: int = Query(50, ge=1, le=500),
) -> dict[str, Any]:
    items = mw.record.conversations(ws(caller), contact_id=contact_id, before=cursor, limit=limit)
    return page([out(c) for c in items], items[-1].id if len(items) == limit else None)


@router.get("/conversations/{conversation_id}", response_model=m.Conversation)
def get(conversation_id: ConversationId, caller: Caller, mw: MW) -> dict[str, Any]:
    conv = mw.record.get(conversation_scope(caller, conversation_id), conversation_id)
    return out(conv)


@router.post("/conversations/{conversation_id}/turns", status_code=201, response_model=m.Turn)
def append(conversation_id: ConversationId, body: TurnIn, caller: Caller, mw: MW) -> dict[str, Any]:
    workspace = conversation_scope(caller, conversation_id)
    turn = mw.record.append(workspace, conversation_id, body.role, body.text, body.at, by=caller)
    return out(turn)


@router.post(
    "/conversations/{conversation_id}/turns/batch",
    status_code=201,
    response_model=m.Page[m.Turn],
)
def append_batch(
    conversation_id: ConversationId, body: TurnsIn, caller: Caller, mw: MW
) -> dict[str, Any]:
    """Up to 500 turns in one transaction, in order (the same rules as one turn each)."""
    workspace = conversation_scope(caller, conversation_id)
    new = [NewTurn(t.role, t.text, t.at) for t in body.turns]
    found = mw.record.append_many(workspace, conversation_id, new, by=caller)
    return page([out(t) for t in found], None)


@router.get("/conversations/{conversation_id}/turns", response_model=m.Page[m.Turn])
def turns(
    conversation_id: ConversationId,
    caller: Operator,
    mw: MW,
    cursor: int | None = Query(None, ge=0, le=2**62),
    limit: int = Query(500, ge=1, le=5000),
) -> dict[str, Any]:
    items = mw.record.turns(ws(caller), conversation_id, after=cursor, limit=limit)
    return page([out(t) for t in items], items[-1].seq if len(items) == limit else None)


@router.get("/record/search", response_model=m.Page[m.RecordHit])
def search(
    caller: Operator,
    mw: MW,
    q: str = Query(..., min_length=1, max_length=500),
    conversation_id: ConversationId | None = Query(None, max_length=64),
    limit: int = Query(20, ge=1, le=200),
) -> dict[str, Any]:
    hits = mw.record.search(ws(caller), q, limit=limit, conversation_id=conversation_id)
    return page([out(h) for h in hits], None)


@router.post("/conversations/{conversation_id}/end", response_model=m.Conversation)
def end(conversation_id: ConversationId, caller: Caller, mw: MW) -> dict[str, Any]:
    return out(mw.record.end(conversation_scope(caller, conversation_id), conversation_id))


@router.post("/conversations/{conversation_id}/reset", response_model=m.Flag)
def reset(conversation_id: ConversationId, caller: Caller, mw: MW) -> dict[str, Any]:
    mw.windows.reset(conversation_scope(caller, conversation_id), conversation_id)
    return {"reset": True}


@router.get("/conversations/{conversation_id}/window", response_model=m.Window)
def window_view(conversation_id: ConversationId, caller: Operator, mw: MW) -> dict[str, Any]:
    view = mw.windows.view(ws(caller), conversation_id)
    return {
        "kind": view.kind,
        "summary": view.summary,
        "messages": [out(m) for m in view.messages],
        "pending": mw.windows.pending(ws(caller), conversation_id),
    }
