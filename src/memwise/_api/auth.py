"""Who is calling: the server admin, a workspace key with a role, or a visitor."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, Request
from starlette.concurrency import run_in_threadpool

from memwise import errors
from memwise._clock import current_workspace
from memwise._domain.access import RANK, Kind, Principal
from memwise._domain.tenancy import Role
from memwise._ids import ConversationId, WorkspaceId
from memwise._services.facade import Memwise
from memwise._web.address import client_address

__all__ = ["RANK", "Principal"]


def get_mw(request: Request) -> Memwise:
    mw: Memwise = request.app.state.mw
    return mw


def _bearer(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise errors.Unauthorized("send 'Authorization: Bearer <token>'", code="unauthorized")
    return token.strip()


async def authenticate(request: Request, mw: Annotated[Memwise, Depends(get_mw)]) -> Principal:
    """Resolve the bearer token. Async so that the workspace it sets holds for the request.

    Failed attempts are throttled per client address and per token prefix (429)."""
    throttle = request.app.state.auth_throttle
    address = client_address(request)
    token = _bearer(request)
    admin = request.app.state.settings.admin_token
    principal: Principal | None = None
    if admin and hmac.compare_digest(token.encode(), admin.encode()):
        principal = Principal(Kind.admin, token_id="admin")
    elif token.startswith("vt_"):
        conv = await run_in_threadpool(mw.record.by_visitor_token, token)
        if conv:
            principal = Principal(
                Kind.visitor, conv.workspace_id, conversation_id=conv.id, token_id=token[-12:]
            )
    else:
        found = await run_in_threadpool(mw.tenancy.key_principal, token)
        if found:
            principal = Principal(
                Kind.key,
                found.workspace_id,
                found.role,
                token_id=token[-12:],
                user_id=found.user_id,
            )
    if principal is None:  # a valid key always passes; failures are counted and throttled
        await run_in_threadpool(throttle.refuse_if_blocked, address)
        await run_in_threadpool(throttle.failed, address, token[:10])
        raise errors.Unauthorized("that token is not valid", code="unauthorized")
    await run_in_threadpool(request.app.state.rate_limiter.check, principal.token_id)
    current_workspace.set(principal.workspace_id)
    return principal


Caller = Annotated[Principal, Depends(authenticate)]


def staff(minimum: Role = Role.operator) -> Callable[[Principal], Principal]:
    """A workspace key with at least ``minimum`` role (admin tokens and visitors: 404)."""

    def dependency(p: Caller) -> Principal:
        if p.kind == Kind.admin:  # the server's token: say which key the route wants
            raise errors.NotFound(
                "the admin token reaches no workspace's routes: use a workspace API key "
                "(POST /v1/workspaces returns the first one)",
                code="not_a_workspace_key",
            )
        if p.kind != Kind.key or p.role is None:
            raise errors.NotFound("not found", code="not_found")
        if RANK[p.role] < RANK[minimum]:
            raise errors.Forbidden(
                f"this needs the {minimum.value} role or higher", code="forbidden"
            )
        return p

    return dependency


def ws(p: Principal) -> WorkspaceId:
    assert p.workspace_id is not None
    return p.workspace_id


Operator = Annotated[Principal, Depends(staff(Role.operator))]
Admin = Annotated[Principal, Depends(staff(Role.admin))]
Owner = Annotated[Principal, Depends(staff(Role.owner))]
MW = Annotated[Memwise, Depends(get_mw)]


def conversation_scope(p: Principal, conversation_id: ConversationId) -> WorkspaceId:
    """A visitor reaches only its own conversation; staff reach any in their workspace."""
    if p.kind == Kind.visitor and p.conversation_id != conversation_id:
        raise errors.NotFound("no such conversation", code="conversation_not_found")
    if p.kind == Kind.admin:
        raise errors.NotFound("no such conversation", code="conversation_not_found")
    return ws(p)
