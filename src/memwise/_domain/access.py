"""Who is calling, and what each kind of caller may do.

A ``Principal`` is passed into the service calls whose rules depend on the caller, so every
door (HTTP, console, MCP, Telegram, webhooks, CLI, library) gets the same answer:

- ``admin``: the server admin token; creates workspaces and runs every queue; reads no
  workspace's data.
- ``key``: a workspace API key with a role (owner > admin > operator).
- ``visitor``: a visitor token, bound to one open conversation; writes customer turns there.
- ``sender``: an inbound message (webhook, Telegram) from someone who proved nothing but
  the channel they wrote from.

``None`` in a service call means a library caller: trusted like an owner of that workspace.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from memwise import errors
from memwise._domain.tenancy import Role
from memwise._ids import ConversationId, WorkspaceId


class Kind(StrEnum):
    admin = "admin"
    key = "key"
    visitor = "visitor"
    sender = "sender"


RANK: dict[Role, int] = {Role.member: 0, Role.operator: 1, Role.admin: 2, Role.owner: 3}


@dataclass(frozen=True)
class Principal:
    kind: Kind | str
    workspace_id: WorkspaceId | None = None
    role: Role | None = None
    conversation_id: ConversationId | None = None
    token_id: str = ""
    user_id: str | None = None  # the staff user a key acts for, if it was made for one

    @property
    def actor(self) -> str:
        if self.kind == Kind.visitor:
            return f"visitor:{self.conversation_id}"
        return f"{self.kind}:{self.role.value if self.role else 'server'}"

    @property
    def is_visitor(self) -> bool:
        return self.kind in (Kind.visitor, Kind.sender)

    @property
    def is_server_admin(self) -> bool:
        return self.kind == Kind.admin

    def at_least(self, minimum: Role) -> bool:
        return self.kind == Kind.key and self.role is not None and RANK[self.role] >= RANK[minimum]


def require_staff(p: Principal | None, minimum: Role = Role.operator) -> None:
    """Staff of the workspace with at least ``minimum`` (library callers always pass)."""
    if p is None:
        return
    if p.kind != Kind.key or p.role is None:
        raise errors.NotFound("not found", code="not_found")
    if RANK[p.role] < RANK[minimum]:
        raise errors.Forbidden(f"this needs the {minimum.value} role or higher", code="forbidden")


def may_grant(p: Principal | None, role: Role) -> bool:
    """A key may mint or revoke keys of its own rank or lower; owner keys only by owners."""
    if p is None:
        return True
    return p.at_least(Role.admin) and p.role is not None and RANK[p.role] >= RANK[role]
