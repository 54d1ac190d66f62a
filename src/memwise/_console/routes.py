"""The console's pages. Each reads through the services, as the API does, and never
writes except through a form that carries the CSRF token."""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

from memwise import __version__, errors
from memwise._clock import current_workspace
from memwise._console.session import (
    COOKIE,
    REBUILD_COOKIE,
    LoginRequired,
    Operator,
    back,
    form,
    mw_of,
    operator,
    params,
    secure_request,
)
from memwise._domain.knowledge import DocumentStatus, LessonStatus, UnansweredStatus
from memwise._domain.shapes import served
from memwise._ids import ContactId, ConversationId
from memwise._services.platform.audit import status_of as audit_status
from memwise._web.threads import waiting

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.globals["version"] = __version__
router = APIRouter(prefix="/console", include_in_schema=False)


@pass_context
def when(ctx: Any, at: datetime | None, fmt: str = "%d %b %Y %H:%M") -> str:
    """A time in the workspace's timezone."""
    if at is None:
        return ""
    zone = ctx.get("zone")
    return (at.astimezone(zone) if zone else at).strftime(fmt)


templates.env.filters["when"] = when


def web_url(url: str | None) -> str:
    """The URL if it is http(s), else nothing: a javascript: or data: link is never rendered."""
    value = (url or "").strip()
    return value if urlsplit(value).scheme.lower() in ("http", "https") else ""


templates.env.filters["web_url"] = web_url

TRUST_BADGES = {
    "verified": "good",
    "stated": "good",
    "inferred": "info",
    "unverified": "warn",
    "conflicted": "bad",
    "stale": "muted",
}


# -- plumbing ------------------------------------------------------------------------------
def render(
    request: Request, who: Operator | None, name: str, status: int = 200, **ctx: Any
) -> Response:
    mw = mw_of(request)
    banner = None
    rebuilding = request.cookies.get(REBUILD_COOKIE)
    if who is not None and rebuilding:
        try:
            p = mw.rebuilds.progress(who.workspace_id, ContactId(rebuilding))
            banner = {"contact_id": rebuilding, **vars(p)}
        except errors.NotFound:
            banner = None
    zone = mw.tenancy.get_workspace(who.workspace_id).zone if who else None
    context = {
        "zone": zone,
        "who": who,
        "csrf": Markup(f'<input type="hidden" name="csrf" value="{who.csrf}">') if who else "",
        "note": request.query_params.get("note"),
        "error": request.query_params.get("error"),
        "banner": banner,
        "badges": TRUST_BADGES,
        "path": request.url.path,
        **ctx,
    }
    return templates.TemplateResponse(request, name, context, status_code=status)


def page(fn: Callable[[Request, Operator], Response]) -> Callable[[Request], Response]:
    """A GET page: logged in, with service errors shown as a page, not a stack trace."""

    def handler(request: Request) -> Response:
        try:
            who = operator(request)
        except LoginRequired:
            return RedirectResponse(f"/console/login?{params(next=request.url.path)}", 303)
        try:
            return fn(request, who)
        except errors.MemwiseError as exc:
            status = 404 if isinstance(exc, errors.NotFound) else 400
            if isinstance(exc, errors.Forbidden):
                status = 403
            return render(request, who, "error.html", status=status, problem=exc)

    handler.__name__ = fn.__name__
    return handler


def action(
    fn: Callable[[Request, Operator, dict[str, str]], Response], waits: bool = False
) -> Callable[[Request], Awaitable[Response]]:
    """A form POST: logged in, CSRF checked, errors sent back to the page they came from.
    ``waits``: the action waits on a model, in the threads for waiting (memwise._web.threads)."""

    async def handler(request: Request) -> Response:
        try:
            who = await run_in_threadpool(operator, request)
        except LoginRequired:
            return RedirectResponse("/console/login", 303)
        current_workspace.set(who.workspace_id)  # for the work below (its clock, under test)
        came_from = urlsplit(request.headers.get("referer", "")).path
        origin = came_from if came_from.startswith("/console/") else "/console/"
        try:
            data = await form(request, who)
            if waits:
                return await waiting(fn, request, who, data, share_of=who.workspace_id)
            return await run_in_threadpool(fn, request, who, data)
        except errors.MemwiseError as exc:
            return back(origin, error=exc.message)

    handler.__name__ = fn.__name__
    return handler


def get(path: str) -> Callable[[Callable[[Request, Operator], Response]], Any]:
    def register(fn: Callable[[Request, Operator], Response]) -> Any:
        router.add_api_route(path, page(fn), methods=["GET"], response_class=HTMLResponse)
        return fn

    return register


def post(
    path: str, *, waits: bool = False
) -> Callable[[Callable[[Request, Operator, dict[str, str]], Response]], Any]:
    def register(fn: Callable[[Request, Operator, dict[str, str]], Response]) -> Any:
        router.add_api_route(path, action(fn, waits), methods=["POST"])
        return fn

    return register


def arg(request: Request, name: str) -> str:
    return str(request.path_params[name])


# -- login ---------------------------------------------------------------------------------
@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request) -> Response:
    return render(request, None, "login.html", next=request.query_params.get("next", ""))


@router.post("/login")
async def login(request: Request) -> Response:
    from memwise._web.address import client_address

    origin = request.headers.get("origin") or request.headers.get("referer") or ""
    if origin and (origin == "null" or urlsplit(origin).netloc != request.headers.get("host", "")):
        # A login posted from another site would log the browser into someone else's
        # workspace (login CSRF): only the console's own page may log in.
        return back("/console/login", error="Log in from this console's own page.")
    throttle = request.app.state.auth_throttle
    address = client_address(request)
    data = await form(request)
    key = data.get("api_key", "").strip()
    settings = request.app.state.settings
    opened = (
        await run_in_threadpool(
            partial(mw_of(request).tenancy.open_session, hours=settings.console_session_hours),
            key,
        )
        if key
        else None
    )
    if not opened:  # a valid key always logs in: bad ones from an address cannot lock it out
        try:
            await run_in_threadpool(throttle.refuse_if_blocked, address)
            await run_in_threadpool(throttle.failed, address, key[:10])
        except errors.LimitExceeded:
            return back("/console/login", error="Too many failed logins: wait a minute.")
        return back("/console/login", error="That API key is not valid.")
    target = data.get("next", "")
    target = target if target.startswith("/console/") and "//" not in target else "/console/"
    if target == "/console/":
        target = "/console/conversations"
    response = RedirectResponse(target, 303)
    response.set_cookie(
        COOKIE,
        opened[0],
        httponly=True,
        samesite="strict",
        secure=secure_request(request),
        max_age=int(settings.console_session_hours * 3600),
        path="/console",
    )
    return response


@post("/logout")
def logout(request: Request, who: Operator, data: dict[str, str]) -> Response:
    mw_of(request).tenancy.close_session(who.key)
    response = RedirectResponse("/console/login", 303)
    response.delete_cookie(COOKIE, path="/console")
    response.delete_cookie(COOKIE)
    response.delete_cookie(REBUILD_COOKIE)
    return response


@get("/")
def home(request: Request, who: Operator) -> Response:
    query = request.url.query
    return RedirectResponse("/console/conversations" + (f"?{query}" if query else ""), 303)


# -- conversations and the record ----------------------------------------------------------
@get("/conversations")
def conversations(request: Request, who: Operator) -> Response:
    mw, ws = mw_of(request), who.workspace_id
    q = request.query_params.get("q", "").strip()[:500]
    hits = mw.record.search(ws, q, limit=50) if q else []
    cursor = request.query_params.get("cursor", "")[:64] or None
    convs = mw.record.conversations(ws, before=cursor, limit=50)
    names = mw.tenancy.contact_names(ws, {c.contact_id for c in convs if c.contact_id})
    return render(
        request,
        who,
        "conversations.html",
        q=q,
        hits=hits,
        conversations=convs,
        names=names,
        next_cursor=convs[-1].id if len(convs) == 50 else None,
    )


@get("/conversations/{conversation_id}")
def conversation(request: Request, who: Operator) -> Response:
    mw, ws = mw_of(request), who.workspace_id
    conv = mw.record.get(ws, ConversationId(arg(request, "conversation_id")))
    contact = mw.tenancy.get_contact(ws, conv.contact_id) if conv.contact_id else None
    user = mw.tenancy.get_user(ws, conv.user_id) if conv.user_id else None
    return render(
        request,
        who,
        "conversation.html",
        conv=conv,
        turns=mw.record.turns(ws, conv.id, limit=2000),
        contact=contact,
        user=user,
        agent=mw.tenancy.get_agent(ws, conv.agent_id),
        remembered=[
            s.item
            for s in (
                mw.memory.items(ws, contact.id, include=("superseded", "archived"))
                if contact
                else []
            )
            if s.item.conversation_id == conv.id
        ],
        extraction=mw.jobs.by_key(ws, f"extract:{conv.id}"),
        summary=(found := mw.memory.summary_of(ws, conv.id)) and served(found),
    )


# -- contacts and their memory -------------------------------------------------------------
@get("/contacts")
def contacts(request: Request, who: Operator) -> Response:
    q = request.query_params.get("q", "")[:100]
    found = mw_of(request).tenancy.contacts(who.workspace_id, q)
    return render(request, who, "contacts.html", q=q, contacts=found)


@get("/contacts/{contact_id}")
def contact(request: Request, who: Operator) -> Response:
    mw, ws = mw_of(request), who.workspace_id
    contact = mw.tenancy.get_contact(ws, ContactId(arg(request, "contact_id")))
    view = request.query_params.get("view", "items")
    include = [p for p in request.query_params.get("include", "").split(",") if p]
    include = [p for p in include if p in ("superseded", "archived")]
    ctx: dict[str, Any] = {"contact": contact, "view": view, "include": include}
    if view == "items":
        ctx["summaries"] = [served(s) for s in mw.memory.summaries(ws, contact.id)]
        ctx["items"] = [served(s) for s in mw.memory.items(ws, contact.id, include=include)]
        ctx["by_id"] = {i["id"]: i for i in ctx["items"]}
    elif view == "patterns":
        found, reason = mw.patterns.view(ws, contact.id)
        ctx["patterns"] = found
        ctx["reason"] = reason
        everything = mw.memory.items(ws, contact.id, include=("archived",), kind="pattern")
        ctx["pattern_items"] = [served(s) for s in everything]
    elif view == "graph":
        ctx["graph"] = layout(mw.memory.relations(ws, contact.id))
    ctx["estimate"] = mw.rebuilds.estimate(ws, contact.id)
    ctx["progress"] = mw.rebuilds.progress(ws, contact.id)
    ctx["conversations"] = mw.record.conversations(ws, contact_id=contact.id, limit=20)
    asked = request.query_params.get("q", "").strip()[:2000]
    ctx["asked"] = asked
    ctx["recalled"] = (
        mw.history.recall(ws, contact.id, asked, k=10, asked_by="staff") if asked else []
    )
    return render(request, who, "contact.html", **ctx)


def layout(graph: dict[str, Any], size: int = 640) -> dict[str, Any]:
    """Linked nodes on two rings (items outside, entities inside) — readable without a
    physics engine; nodes linked to nothing in a labelled row below, not among the rings."""
    nodes = graph["nodes"]
    linked = {e["from"] for e in graph["edges"]} | {e["to"] for e in graph["edges"]}
    items = [n for n in nodes if n["type"] == "item" and n["id"] in linked]
    entities = [n for n in nodes if n["type"] != "item" and n["id"] in linked]
    alone = [n for n in nodes if n["id"] not in linked]
    centre = size / 2
    placed: dict[str, dict[str, Any]] = {}
    for ring, radius in ((items, size * 0.40), (entities, size * 0.18)):
        for i, node in enumerate(ring):
            angle = 2 * math.pi * i / max(1, len(ring)) - math.pi / 2
            x, y = centre + radius * math.cos(angle), centre + radius * math.sin(angle)
            placed[node["id"]] = {**node, "x": round(x, 1), "y": round(y, 1)}
    per_row = 3
    for i, node in enumerate(alone):
        x = 24 + (i % per_row) * (size - 48) / per_row
        y = size + 40 + (i // per_row) * 28
        placed[node["id"]] = {**node, "x": round(x, 1), "y": round(y, 1), "alone": True}
    edges = [
        {**e, "a": placed[e["from"]], "b": placed[e["to"]]}
        for e in graph["edges"]
        if e["from"] in placed and e["to"] in placed
    ]
    kinds = sorted({n["kind"] for n in nodes})
    rows = (len(alone) + per_row - 1) // per_row
    height = size + (28 + rows * 28 if alone else 0)
    return {
        "nodes": list(placed.values()),
        "edges": edges,
        "kinds": kinds,
        "size": size,
        "height": height,
        "alone": len(alone),
    }


@post("/memory/{item_id}/occurs-on")
def set_occurs_on(request: Request, who: Operator, data: dict[str, str]) -> Response:
    mw = mw_of(request)
    value = None if "clear" in data else (data.get("occurs_on") or None)
    item = mw.memory.edit(
        who.workspace_id, arg(request, "item_id"), occurs_on=value, actor=who.actor
    )
    note = "Date cleared." if value is None else f"Occurs on {value}."
    return back(f"/console/contacts/{item.item.contact_id}", note=note)


@get("/memory/{item_id}")
def memory_life(request: Request, who: Operator) -> Response:
    """One memory's timeline (seed 001, FIG. 4): its versions from the first mention
    through every correction, and each change with its evidence, actor, time and reason."""
    mw, ws = mw_of(request), who.workspace_id
    life = mw.memory.history(ws, arg(request, "item_id"))
    versions = [served(s) for s in life.versions]
    by_id = {v["id"]: v for v in versions}
    asked = by_id[life.item_id]
    contact = mw.tenancy.get_contact(ws, asked["contact_id"]) if asked["contact_id"] else None
    return render(
        request,
        who,
        "memory.html",
        item=asked,
        versions=versions,
        by_id=by_id,
        changes=life.changes,
        contact=contact,
    )


@post("/memory/{item_id}/archive")
def archive(request: Request, who: Operator, data: dict[str, str]) -> Response:
    item = mw_of(request).memory.archive(who.workspace_id, arg(request, "item_id"), actor=who.actor)
    view = "?view=patterns" if data.get("view") == "patterns" else ""
    return back(f"/console/contacts/{item.item.contact_id}{view}", note="Archived.")


@post("/contacts/{contact_id}/rebuild")
def rebuild(request: Request, who: Operator, data: dict[str, str]) -> Response:
    contact_id = arg(request, "contact_id")
    progress = mw_of(request).rebuilds.start(
        who.workspace_id, ContactId(contact_id), by=who.principal
    )
    response = back(
        f"/console/contacts/{contact_id}",
        note=f"Rebuild started: {progress.total} conversations to re-read.",
    )
    response.set_cookie(REBUILD_COOKIE, contact_id, httponly=True, samesite="strict")
    return response


@router.get("/contacts/{contact_id}/rebuild/progress")
def rebuild_progress(request: Request, contact_id: ContactId) -> Response:
    """The banner's live figures (JSON for the script); the cookie goes once it is done."""
    try:
        who = operator(request)
    except LoginRequired:
        return Response(status_code=401)
    try:
        p = mw_of(request).rebuilds.progress(who.workspace_id, contact_id)
    except errors.NotFound:
        return Response(status_code=404)
    response = Response(json.dumps(vars(p)), media_type="application/json")
    if not p.running:
        response.delete_cookie(REBUILD_COOKIE)
    return response


@get("/contacts/{contact_id}/export")
def export(request: Request, who: Operator) -> Response:
    contact_id = arg(request, "contact_id")
    data = mw_of(request).data_requests.export(
        who.workspace_id, ContactId(contact_id), by=who.principal
    )
    disposition = f'attachment; filename="contact-{contact_id}.json"'
    return Response(
        json.dumps(data, indent=2, default=str),
        media_type="application/json",
        headers={"content-disposition": disposition},
    )


@get("/contacts/{contact_id}/delete")
def delete_confirm(request: Request, who: Operator) -> Response:
    mw, contact_id = mw_of(request), arg(request, "contact_id")
    held = mw.data_requests.held(who.workspace_id, ContactId(contact_id), by=who.principal)
    contact = mw.tenancy.get_contact(who.workspace_id, ContactId(contact_id))
    return render(request, who, "delete.html", contact=contact, held=held)


@post("/contacts/{contact_id}/delete")
def delete(request: Request, who: Operator, data: dict[str, str]) -> Response:
    mw, contact_id = mw_of(request), arg(request, "contact_id")
    contact = mw.tenancy.get_contact(who.workspace_id, ContactId(contact_id))
    if data.get("confirm_name", "").strip() != contact.name:
        raise errors.Invalid("type the contact's name exactly to confirm", code="not_confirmed")
    mw.data_requests.delete(
        who.workspace_id, ContactId(contact_id), actor=who.actor, by=who.principal
    )
    return back("/console/contacts", note=f"{contact.name} and everything about them deleted.")


# -- teaching and knowledge ----------------------------------------------------------------
@get("/teach")
def teach(request: Request, who: Operator) -> Response:
    mw, ws = mw_of(request), who.workspace_id
    drafts = mw.teaching.lessons(ws, LessonStatus.draft)
    drafted = {d.unanswered_id for d in drafts if d.unanswered_id}
    return render(  # a question with a draft waits under Drafts, not again as unanswered
        request,
        who,
        "teach.html",
        unanswered=[
            u for u in mw.teaching.unanswered(ws, UnansweredStatus.open) if u.id not in drafted
        ],
        drafts=drafts,
        receipts=mw.teaching.receipts(ws)[:30],
    )


@post("/teach/draft")
def draft(request: Request, who: Operator, data: dict[str, str]) -> Response:
    lesson = mw_of(request).teaching.draft(
        who.workspace_id,
        data.get("question", ""),
        data.get("answer", ""),
        unanswered_id=data.get("unanswered_id") or None,
        actor=who.actor,
    )
    return back("/console/teach", note=f"Draft saved ({lesson.id}); approve it to publish.")


@post("/lessons/{lesson_id}/approve")
def approve(request: Request, who: Operator, data: dict[str, str]) -> Response:
    receipt = mw_of(request).teaching.approve(
        who.workspace_id, arg(request, "lesson_id"), approved_by=who.actor, by=who.principal
    )
    return back("/console/teach", note=f"Published with receipt {receipt.id}.")


@post("/lessons/{lesson_id}/withdraw")
def withdraw(request: Request, who: Operator, data: dict[str, str]) -> Response:
    mw_of(request).teaching.withdraw(
        who.workspace_id, arg(request, "lesson_id"), by_name=who.actor, by=who.principal
    )
    return back("/console/knowledge", note="Lesson withdrawn.")


@get("/knowledge")
def knowledge(request: Request, who: Operator) -> Response:
    mw, ws = mw_of(request), who.workspace_id
    docs = mw.knowledge.documents(ws, include_superseded=True)
    docs += mw.knowledge.documents(ws, status=DocumentStatus.draft)
    return render(
        request,
        who,
        "knowledge.html",
        documents=docs,
        lessons=[le for le in mw.teaching.lessons(ws) if le.status != "draft"],
        kinds=["faq", "policy", "catalog", "manual", "software", "fitment", "note"],
    )


@post("/knowledge/documents")
def add_document(request: Request, who: Operator, data: dict[str, str]) -> Response:
    doc = mw_of(request).knowledge.add_document(
        who.workspace_id,
        kind=data.get("kind", "faq"),
        title=data.get("title", ""),
        body=data.get("body", ""),
        source_url=data.get("source_url") or None,
        version=data.get("version") or "1",
        identifiers=[x.strip() for x in data.get("identifiers", "").split(",") if x.strip()],
        actor=who.actor,
        by=who.principal,
    )
    if doc.status == "draft":
        return back(
            "/console/knowledge",
            note=f"{doc.title} (version {doc.version}) is a draft until an admin approves it.",
        )
    return back("/console/knowledge", note=f"{doc.title} (version {doc.version}) published.")


@post("/knowledge/documents/{document_id}/approve")
def approve_document(request: Request, who: Operator, data: dict[str, str]) -> Response:
    receipt = mw_of(request).knowledge.approve_document(
        who.workspace_id, arg(request, "document_id"), approved_by=who.actor, by=who.principal
    )
    return back(
        "/console/knowledge", note=f"{receipt.title} (version {receipt.version}) published."
    )


@post("/knowledge/documents/{document_id}/reject")
def reject_document(request: Request, who: Operator, data: dict[str, str]) -> Response:
    receipt = mw_of(request).knowledge.reject_document(
        who.workspace_id, arg(request, "document_id"), by_name=who.actor, by=who.principal
    )
    return back("/console/knowledge", note=f"{receipt.title} draft rejected.")


# -- events out ----------------------------------------------------------------------------
@get("/events")
def events_page(request: Request, who: Operator) -> Response:
    from memwise._services.platform.events import TYPES

    mw = mw_of(request)
    return render(
        request,
        who,
        "events.html",
        endpoints=mw.events.endpoints(who.workspace_id) if who.is_admin else [],
        deliveries=mw.events.deliveries(who.workspace_id),
        types=TYPES,
        adapter=mw.tickets.configured(who.workspace_id),
    )


@post("/events")
def add_event_endpoint(request: Request, who: Operator, data: dict[str, str]) -> Response:
    from memwise._services.platform.events import TYPES

    mw = mw_of(request)
    chosen = [t for t in TYPES if data.get(f"event_{t}")]
    _, secret = mw.events.add_endpoint(
        who.workspace_id, data.get("url", ""), chosen, by=who.principal
    )
    return render(
        request,
        who,
        "events.html",
        endpoints=mw.events.endpoints(who.workspace_id),
        deliveries=mw.events.deliveries(who.workspace_id),
        types=TYPES,
        secret=secret,
        adapter=mw.tickets.configured(who.workspace_id),
    )


@post("/ticket-adapter")
def set_ticket_adapter(request: Request, who: Operator, data: dict[str, str]) -> Response:
    auth = (data.get("authorization") or "").strip()
    mw_of(request).tickets.configure(
        who.workspace_id,
        data.get("url", ""),
        {"Authorization": auth} if auth else None,
        by=who.principal,
    )
    return back("/console/events", note="Tickets now go to the helpdesk webhook.")


@post("/events/{endpoint_id}/remove")
def remove_event_endpoint(request: Request, who: Operator, data: dict[str, str]) -> Response:
    mw_of(request).events.remove_endpoint(
        who.workspace_id, arg(request, "endpoint_id"), by=who.principal
    )
    return back("/console/events", note="Endpoint removed.")


# -- API keys ------------------------------------------------------------------------------
@get("/keys")
def keys(request: Request, who: Operator) -> Response:
    found = mw_of(request).tenancy.api_keys(who.workspace_id, by=who.principal)
    return render(request, who, "keys.html", keys=found)


@post("/keys")
def create_key(request: Request, who: Operator, data: dict[str, str]) -> Response:
    mw = mw_of(request)
    secret = mw.tenancy.create_api_key(
        who.workspace_id,
        data.get("role", "operator"),
        (data.get("label") or "").strip()[:200] or None,
        by=who.principal,
    )
    return render(
        request, who, "keys.html", keys=mw.tenancy.api_keys(who.workspace_id), secret=secret
    )


@post("/keys/{key_id}/revoke")
def revoke_key(request: Request, who: Operator, data: dict[str, str]) -> Response:
    k = mw_of(request).tenancy.revoke_key(
        who.workspace_id, arg(request, "key_id"), by=who.principal
    )
    return back("/console/keys", note=f"Key {k.id} revoked.")


@post("/keys/{key_id}/rotate")
def rotate_key(request: Request, who: Operator, data: dict[str, str]) -> Response:
    mw = mw_of(request)
    _, secret = mw.tenancy.rotate_key(who.workspace_id, arg(request, "key_id"), by=who.principal)
    return render(
        request, who, "keys.html", keys=mw.tenancy.api_keys(who.workspace_id), secret=secret
    )


# -- notebooks -----------------------------------------------------------------------------
@get("/users")
def users(request: Request, who: Operator) -> Response:
    return render(request, who, "users.html", users=mw_of(request).tenancy.users(who.workspace_id))


@get("/users/{user_id}/notebook")
def notebook(request: Request, who: Operator) -> Response:
    mw, ws = mw_of(request), who.workspace_id
    user = mw.tenancy.get_user(ws, arg(request, "user_id"))
    return render(
        request,
        who,
        "notebook.html",
        user=user,
        entries=mw.notebook.entries(ws, user.id, by=who.principal),
        block=mw.notebook.block(ws, user.id, by=who.principal),
        limits=mw.rt.limits.notebook,
    )


@post("/users/{user_id}/notebook")
def add_rule(request: Request, who: Operator, data: dict[str, str]) -> Response:
    user_id = arg(request, "user_id")
    added = mw_of(request).notebook.add(
        who.workspace_id, user_id, data.get("text", ""), actor=who.actor, by=who.principal
    )
    note = "That rule is already there." if added.duplicate else "Rule saved."
    return back(f"/console/users/{user_id}/notebook", note=note)


@post("/users/{user_id}/notebook/{entry_id}/forget")
def forget_rule(request: Request, who: Operator, data: dict[str, str]) -> Response:
    user_id = arg(request, "user_id")
    mw_of(request).notebook.forget(
        who.workspace_id, user_id, arg(request, "entry_id"), actor=who.actor, by=who.principal
    )
    return back(f"/console/users/{user_id}/notebook", note="Rule removed.")


# -- audit and usage -----------------------------------------------------------------------
@get("/audit")
def audit(request: Request, who: Operator) -> Response:
    q = request.query_params
    filters = {k: q.get(k) or None for k in ("tool", "status")}
    contact = q.get("contact_id") or None
    cursor = q.get("cursor")
    entries = mw_of(request).audit.entries(
        who.workspace_id,
        before=int(cursor) if cursor and cursor.isdigit() and len(cursor) < 19 else None,
        limit=100,
        contact_id=ContactId(contact) if contact else None,
        tool=filters["tool"],
        status=audit_status(filters["status"]),
    )
    return render(
        request,
        who,
        "audit.html",
        entries=entries,
        filters=filters,
        statuses=["read", "proposed", "executed", "failed", "refused"],
        next_cursor=entries[-1].seq if len(entries) == 100 else None,
        query=params(**{k: v for k, v in filters.items() if v}),
    )


@get("/usage")
def usage(request: Request, who: Operator) -> Response:
    mw, ws = mw_of(request), who.workspace_id
    used, allowance, month = mw.metering.remaining(ws)
    return render(
        request,
        who,
        "usage.html",
        workspace=mw.tenancy.get_workspace(ws),
        used=used,
        allowance=allowance,
        month=month,
        share=min(1.0, used / allowance) if allowance else 1.0,
        jobs=mw.jobs.counts(ws),
        metered=mw.rt.metering,
    )


# -- the learning loop ---------------------------------------------------------------------
@get("/evals")
def evals(request: Request, who: Operator) -> Response:
    mw, ws = mw_of(request), who.workspace_id
    runs = mw.learning.runs(ws)
    sets = {s.id: s for s in mw.learning.test_sets(ws)}
    q = request.query_params
    comparison = None
    if q.get("before") and q.get("after"):
        comparison = mw.learning.compare(ws, q["before"], q["after"])
    return render(
        request,
        who,
        "evals.html",
        runs=runs,
        sets=sets,
        comparison=comparison,
        before=q.get("before"),
        after=q.get("after"),
        book=mw.learning.book(ws)[:50],
    )


@post("/evals/run")
def run_eval(request: Request, who: Operator, data: dict[str, str]) -> Response:
    run = mw_of(request).learning.evaluate(who.workspace_id, data.get("set_id", ""))
    answered = run.summary["answered_rate"]
    return back("/console/evals", note=f"Run {run.id}: answered {answered:.0%}.")


# -- the widget, tried from the console ----------------------------------------------------
@get("/widget")
def widget_try(request: Request, who: Operator) -> Response:
    """Open a web conversation for a contact and show the widget on a page, as a host would."""
    mw, ws = mw_of(request), who.workspace_id
    agents = mw.tenancy.agents(ws)
    if not agents:
        raise errors.NotFound("create an agent first", code="no_agent")
    contact_id = request.query_params.get("contact_id")
    if contact_id:
        contact = mw.tenancy.get_contact(ws, ContactId(contact_id))
    else:
        made = mw.tenancy.resolve_contact(ws, None, "Widget visitor", create=True)
        assert made.contact_id is not None
        contact = mw.tenancy.get_contact(ws, made.contact_id)
    conv, token = mw.record.start(ws, agents[0].id, "web", contact_id=contact.id)
    return render(request, who, "widget_try.html", conv=conv, token=token, contact=contact)
