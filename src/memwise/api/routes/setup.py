"""Workspaces, keys, agents, users, contacts."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from memwise import errors
from memwise.api.auth import MW, Admin, Caller, Operator, ws
from memwise.api.schemas import (
    AgentIn,
    AgentPatch,
    ApiKeyIn,
    ContactIn,
    UserIn,
    WorkspaceIn,
    out,
    page,
)

router = APIRouter(prefix="/v1")


@router.get("/health")
def health(request: Request) -> dict[str, Any]:
    from memwise import __version__

    return {"status": "ok", "version": __version__}


@router.post("/workspaces", status_code=201)
def create_workspace(body: WorkspaceIn, caller: Caller, mw: MW) -> dict[str, Any]:
    if caller.kind != "admin":
        raise errors.Forbidden("only the server admin token creates workspaces", code="forbidden")
    workspace, key = mw.tenancy.create_workspace(**body.model_dump())
    return out(workspace, api_key=key)


@router.get("/workspace")
def get_workspace(caller: Operator, mw: MW) -> dict[str, Any]:
    return out(mw.tenancy.get_workspace(ws(caller)))


@router.post("/api-keys", status_code=201)
def create_api_key(body: ApiKeyIn, caller: Admin, mw: MW) -> dict[str, Any]:
    return {"api_key": mw.tenancy.create_api_key(ws(caller), body.role, body.label, by=caller)}


@router.get("/api-keys")
def list_api_keys(caller: Admin, mw: MW) -> dict[str, Any]:
    """The workspace's keys: id, role, label, created and revoked times (never the secret)."""
    return page([out(k) for k in mw.tenancy.api_keys(ws(caller))], None)


@router.delete("/api-keys/{key_id}")
def revoke_api_key(key_id: str, caller: Admin, mw: MW) -> dict[str, Any]:
    return out(mw.tenancy.revoke_key(ws(caller), key_id, by=caller))


@router.post("/api-keys/{key_id}/rotate", status_code=201)
def rotate_api_key(key_id: str, caller: Admin, mw: MW) -> dict[str, Any]:
    key, secret = mw.tenancy.rotate_key(ws(caller), key_id, by=caller)
    return out(key, api_key=secret)


@router.post("/agents", status_code=201)
def create_agent(body: AgentIn, caller: Admin, mw: MW) -> dict[str, Any]:
    return out(mw.tenancy.create_agent(ws(caller), **body.model_dump()))


@router.patch("/agents/{agent_id}")
def update_agent(agent_id: str, body: AgentPatch, caller: Admin, mw: MW) -> dict[str, Any]:
    changes = body.model_dump(exclude_unset=True)
    return out(mw.tenancy.update_agent(ws(caller), agent_id, changes))


@router.get("/agents/{agent_id}")
def get_agent(agent_id: str, caller: Operator, mw: MW) -> dict[str, Any]:
    return out(mw.tenancy.get_agent(ws(caller), agent_id))


@router.post("/users", status_code=201)
def create_user(body: UserIn, caller: Admin, mw: MW) -> dict[str, Any]:
    return out(mw.tenancy.create_user(ws(caller), **body.model_dump()))


@router.get("/users/{user_id}")
def get_user(user_id: str, caller: Operator, mw: MW) -> dict[str, Any]:
    return out(mw.tenancy.get_user(ws(caller), user_id))


@router.post("/contacts", status_code=201)
def create_contact(body: ContactIn, caller: Operator, mw: MW) -> dict[str, Any]:
    data = body.model_dump()
    return out(mw.tenancy.create_contact(ws(caller), data.pop("name"), **data))


@router.get("/contacts/{contact_id}")
def get_contact(contact_id: str, caller: Operator, mw: MW) -> dict[str, Any]:
    return out(mw.tenancy.get_contact(ws(caller), contact_id))
