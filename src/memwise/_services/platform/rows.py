"""Small helpers every service uses to read rows within one workspace."""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Connection

from memwise import errors
from memwise._ids import WorkspaceId
from memwise._storage.stores.tenancy import require_named


def require(conn: Connection, what: str, workspace_id: WorkspaceId, obj_id: str) -> Any:
    """The row of the ``what`` (agent, contact, conversation, …) with this id in this
    workspace, or NotFound (never another workspace's)."""
    return require_named(conn, what, workspace_id, obj_id)


def enum_value(kind: type[Any], value: Any, what: str) -> Any:
    """``kind(value)``, or Invalid naming the allowed values."""
    try:
        return kind(value)
    except ValueError as exc:
        allowed = ", ".join(m.value for m in kind)
        raise errors.Invalid(f"{what} must be one of: {allowed}", code=f"invalid_{what}") from exc
