"""Knowledge documents, search, lookup, unanswered items, lessons and receipts, tickets."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import Query

from memwise._api import routes
from memwise._api.auth import MW, Admin, Operator, ws
from memwise._api.schemas import (
    DocumentIn,
    LessonIn,
    LessonPatch,
    TicketIn,
    UnansweredIn,
    out,
    page,
)
from memwise._domain.knowledge import DocumentStatus, LessonStatus, UnansweredStatus
from memwise._ids import ContactId
from memwise._services.knowledge.knowledge import Hit
from memwise._web.threads import waiting
from memwise.client import models as m

router = routes.router("/v1")


def hit(h: Hit) -> dict[str, Any]:
    return vars(h)


@router.post("/knowledge/documents", status_code=201, response_model=m.Document)
def add_document(body: DocumentIn, caller: Operator, mw: MW) -> dict[str, Any]:
    """An operator's document is a draft until an admin approves it; an admin publishes."""
    data = body.model_dump()
    return out(mw.knowledge.add_document(ws(caller), actor=caller.actor, by=caller, **data))


@router.get("/knowledge/documents", response_model=m.Page[m.Document])
def documents(
    caller: Operator,
    mw: MW,
    include_superseded: bool = False,
    status: Literal["current", "draft", "superseded", "rejected"] | None = None,
) -> dict[str, Any]:
    docs = mw.knowledge.documents(
        ws(caller),
        include_superseded=include_superseded,
        status=DocumentStatus(status) if status else None,
    )
    return page([out(d) for d in docs], None)


@router.post("/knowledge/documents/{document_id}/approve", response_model=m.DocumentReceipt)
def approve_document(document_id: str, caller: Admin, mw: MW) -> dict[str, Any]:
    receipt = mw.knowledge.approve_document(
        ws(caller), document_id, approved_by=caller.actor, by=caller
    )
    return out(receipt)


@router.post("/knowledge/documents/{document_id}/reject", response_model=m.DocumentReceipt)
def reject_document(document_id: str, caller: Admin, mw: MW) -> dict[str, Any]:
    return out(
        mw.knowledge.reject_document(ws(caller), document_id, by_name=caller.actor, by=caller)
    )


@router.get("/knowledge/documents/{document_id}/receipts", response_model=m.Page[m.DocumentReceipt])
def document_receipts(document_id: str, caller: Operator, mw: MW) -> dict[str, Any]:
    return page([out(r) for r in mw.knowledge.receipts(ws(caller), document_id)], None)


@router.get("/knowledge/search", response_model=m.KnowledgeSearch)
def search(
    caller: Operator,
    mw: MW,
    q: str = Query(..., min_length=1, max_length=2000),
    recipe: Literal["lexical", "hybrid"] = "hybrid",
    limit: int = Query(5, ge=1, le=50),
) -> dict[str, Any]:
    hits, answer = mw.knowledge.search_answered(ws(caller), q, recipe=recipe, limit=limit)
    return {"items": [hit(h) for h in hits], "next_cursor": None, "answered": answer is not None}


@router.get("/knowledge/lookup", response_model=m.Page[m.KnowledgeHit])
def lookup(
    caller: Operator, mw: MW, identifier: str = Query(..., min_length=1, max_length=200)
) -> dict[str, Any]:
    docs = mw.knowledge.lookup(ws(caller), identifier)
    return page(
        [
            {
                "id": d.id,
                "part": "reference",
                "title": d.title,
                "excerpt": d.body[:320],
                "source_url": d.source_url,
                "version": d.version,
                "score": 1.0,
            }
            for d in docs
        ],
        None,
    )


@router.get("/unanswered", response_model=m.Page[m.Unanswered])
def list_unanswered(
    caller: Operator, mw: MW, status: Literal["open", "closed"] | None = "open"
) -> dict[str, Any]:
    chosen = UnansweredStatus(status) if status else None
    return page([out(u) for u in mw.teaching.unanswered(ws(caller), chosen)], None)


@router.post("/unanswered", status_code=201, response_model=m.Unanswered)
def record_unanswered(body: UnansweredIn, caller: Operator, mw: MW) -> dict[str, Any]:
    item, created = mw.teaching.record_unanswered(
        ws(caller), body.question, conversation_id=body.conversation_id, contact_id=body.contact_id
    )
    return out(item, created=created)


@router.post("/lessons", status_code=201, response_model=m.Lesson)
def draft_lesson(body: LessonIn, caller: Operator, mw: MW) -> dict[str, Any]:
    return out(
        mw.teaching.draft(
            ws(caller),
            body.question,
            body.answer,
            unanswered_id=body.unanswered_id,
            actor=caller.actor,
        )
    )


@router.get("/lessons", response_model=m.Page[m.Lesson])
def list_lessons(
    caller: Operator,
    mw: MW,
    status: Literal["draft", "published", "superseded", "withdrawn"] | None = None,
) -> dict[str, Any]:
    chosen = LessonStatus(status) if status else None
    return page([out(le) for le in mw.teaching.lessons(ws(caller), chosen)], None)


@router.post("/lessons/{lesson_id}/approve", response_model=m.Lesson)
def approve_lesson(lesson_id: str, caller: Admin, mw: MW) -> dict[str, Any]:
    receipt = mw.teaching.approve(ws(caller), lesson_id, approved_by=caller.actor, by=caller)
    return out(mw.teaching.lesson(ws(caller), lesson_id), receipt=out(receipt))


@router.post("/lessons/{lesson_id}/revise", status_code=201, response_model=m.Lesson)
def revise_lesson(lesson_id: str, body: LessonPatch, caller: Operator, mw: MW) -> dict[str, Any]:
    return out(
        mw.teaching.revise(
            ws(caller), lesson_id, question=body.question, answer=body.answer, actor=caller.actor
        )
    )


@router.post("/lessons/{lesson_id}/withdraw", response_model=m.Lesson)
def withdraw_lesson(lesson_id: str, caller: Admin, mw: MW) -> dict[str, Any]:
    receipt = mw.teaching.withdraw(ws(caller), lesson_id, by_name=caller.actor, by=caller)
    return out(mw.teaching.lesson(ws(caller), lesson_id), receipt=out(receipt))


@router.get("/receipts", response_model=m.Page[m.Receipt])
def list_receipts(caller: Operator, mw: MW, lesson_id: str | None = None) -> dict[str, Any]:
    return page([out(r) for r in mw.teaching.receipts(ws(caller), lesson_id)], None)


@router.get("/tickets", response_model=m.Page[m.Ticket])
def list_tickets(caller: Operator, mw: MW, contact_id: ContactId | None = None) -> dict[str, Any]:
    return page([out(t) for t in mw.tickets.find(ws(caller), contact_id)], None)


@router.post("/tickets", status_code=201, response_model=m.Ticket)
async def open_ticket(body: TicketIn, caller: Operator, mw: MW) -> dict[str, Any]:
    """A ticket, handed to the workspace's helpdesk (which answers in its own time: in the
    workspace's share of the threads for waiting, never in the working threads)."""
    opened = await waiting(
        mw.tickets.open, ws(caller), actor=caller.actor, share_of=ws(caller), **body.model_dump()
    )
    return out(opened)
