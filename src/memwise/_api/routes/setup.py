"""Workspaces, keys, agents, users, contacts."""

from __future__ import annotations

from typing import Any

from fastapi import Query, Request

from memwise import errors
from memwise._api import routes
from memwise._api.auth import MW, Admin, Caller, Operator, ws
from memwise._api.schemas import (
    AgentIn,
    AgentPatch,
    ApiKeyIn,
    ContactIn,
    UserIn,
    WorkspaceIn,
    out,
    page,
)
from memwise._ids import ContactId
from memwise._safety import learned
from memwise.client import models as m

router = routes.router("/v1")


@router.get("/health", response_model=m.Health)
def health(request: Request, mw: MW) -> dict[str, Any]:
    """Liveness and what needs attention: the database, the worker, the model."""
    from memwise import __version__

    state = request.app.state
    database: dict[str, Any] = {"backend": mw.rt.db.name, "ok": True}
    queue: dict[str, Any] = {}
    try:
        queue = mw.jobs.depth()
    except Exception as exc:  # the database cannot be reached: say so, never a 500
        database.update(ok=False, error=type(exc).__name__)
    embedded = getattr(state, "worker", None)
    last = embedded.worker.last_run_at if embedded is not None else None
    worker = {
        "embedded": bool(embedded and embedded.running),
        "last_run": last.isoformat() if last else None,
        "last_error": _kind_only(embedded.last_error if embedded is not None else None),
        **queue,
    }
    runner = mw.extraction
    model = {
        "configured": runner.extractor.name != "rules",
        "extractor": runner.extractor.name,
        "last_error": _kind_only(runner.last_error),
        "last_error_at": runner.last_error_at.isoformat() if runner.last_error_at else None,
    }
    learned.model()  # loaded once per process (or tried again, at most once a minute)
    boundary = {"learned_classifier": learned.model.status}
    status = (
        "ok" if database["ok"] and boundary["learned_classifier"] != "unavailable" else "degraded"
    )
    return {
        "status": status,
        "version": __version__,
        "database": database,
        "worker": worker,
        "model": model,
        "boundary": boundary,
        "metering": mw.rt.metering,
    }


def _kind_only(error: str | None) -> str | None:
    """An error's kind, never its message: health is unauthenticated, and a message may
    quote a workspace's customer (a model's validation error did)."""
    if not error:
        return None
    kind = error.split(":", 1)[0].strip()
    return kind[:80] if kind.replace("_", "").replace(".", "").isalnum() else "error"


@router.post("/workspaces", status_code=201, response_model=m.Workspace)
def create_workspace(body: WorkspaceIn, caller: Caller, mw: MW) -> dict[str, Any]:
    if caller.kind != "admin":
        raise errors.Forbidden("only the server admin token creates workspaces", code="forbidden")
    workspace, key = mw.tenancy.create_workspace(**body.model_dump())
    return out(workspace, api_key=key)


@router.get("/workspace", response_model=m.Workspace)
def get_workspace(caller: Operator, mw: MW) -> dict[str, Any]:
    return out(mw.tenancy.get_workspace(ws(caller)))


@router.post("/api-keys", status_code=201, response_model=m.ApiKey)
def create_api_key(body: ApiKeyIn, caller: Admin, mw: MW) -> dict[str, Any]:
    made = mw.tenancy.create_api_key(
        ws(caller), body.role, body.label, user_id=body.user_id, by=caller
    )
    return {"api_key": made}


@router.get("/api-keys", response_model=m.Page[m.ApiKey])
def list_api_keys(caller: Admin, mw: MW) -> dict[str, Any]:
    """The workspace's keys: id, role, label, created and revoked times (never the secret)."""
    return page([out(k) for k in mw.tenancy.api_keys(ws(caller), by=caller)], None)


@router.delete("/api-keys/{key_id}", response_model=m.ApiKey)
def revoke_api_key(key_id: str, caller: Admin, mw: MW) -> dict[str, Any]:
    return out(mw.tenancy.revoke_key(ws(caller), key_id, by=caller))


@router.post("/api-keys/{key_id}/rotate", status_code=201, response_model=m.ApiKey)
def rotate_api_key(key_id: str, caller: Admin, mw: MW) -> dict[str, Any]:
    key, secret = mw.tenancy.rotate_key(ws(caller), key_id, by=caller)
    return out(key, api_key=secret)


@router.post("/agents", status_code=201, response_model=m.Agent)
def create_agent(body: AgentIn, caller: Admin, mw: MW) -> dict[str, Any]:
    return out(mw.tenancy.create_agent(ws(caller), **body.model_dump()))


@router.patch("/agents/{agent_id}", response_model=m.Agent)
def update_agent(agent_id: str, body: AgentPatch, caller: Admin, mw: MW) -> dict[str, Any]:
    changes = body.model_dump(exclude_unset=True)
    return out(mw.tenancy.update_agent(ws(caller), agent_id, changes))


@router.get("/agents/{agent_id}", response_model=m.Agent)
def get_agent(agent_id: str, caller: Operator, mw: MW) -> dict[str, Any]:
    return out(mw.tenancy.get_agent(ws(caller), agent_id))


@router.post("/users", status_code=201, response_model=m.User)
def create_user(body: UserIn, caller: Admin, mw: MW) -> dict[str, Any]:
    return out(mw.tenancy.create_user(ws(caller), **body.model_dump()))


@router.get("/users/{user_id}", response_model=m.User)
def get_user(user_id: str, caller: Operator, mw: MW) -> dict[str, Any]:
    return out(mw.tenancy.get_user(ws(caller), user_id))


@router.post("/contacts", status_code=201, response_model=m.Contact)
def create_contact(body: ContactIn, caller: Operator, mw: MW) -> dict[str, Any]:
    data = body.model_dump()
    return out(mw.tenancy.create_contact(ws(caller), data.pop("name"), **data))


@router.get("/contacts", response_model=m.Page[m.Contact])
def find_contacts(
    caller: Operator,
    mw: MW,
    external_id: str | None = Query(None, max_length=200, description="your own id for them"),
    email: str | None = Query(None, max_length=500),
    phone: str | None = Query(None, max_length=100),
    q: str = Query("", max_length=100, description="a part of the name"),
    limit: int = Query(50, ge=1, le=200),
) -> dict[str, Any]:
    """Contacts by an id of yours, a verified email or phone, or a part of the name."""
    given = [
        (k, v) for k, v in (("external", external_id), ("email", email), ("phone", phone)) if v
    ]
    if given:
        (kind, value), *_ = given
        found = [
            mw.tenancy.get_contact(ws(caller), c)
            for c in mw.tenancy.find_contacts(ws(caller), kind, value)
        ]
    else:
        found = mw.tenancy.contacts(ws(caller), q, limit)
    return page([out(c) for c in found[:limit]], None)


@router.get("/contacts/{contact_id}", response_model=m.Contact)
def get_contact(contact_id: ContactId, caller: Operator, mw: MW) -> dict[str, Any]:
    return out(mw.tenancy.get_contact(ws(caller), contact_id))
