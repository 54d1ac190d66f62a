"""Small helpers every service uses to read rows within one workspace."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise import errors


def require(conn: Connection, table: sa.Table, workspace_id: str, obj_id: str, what: str) -> Any:
    """The row of ``table`` with this id in this workspace, or NotFound (never another's)."""
    row = conn.execute(
        sa.select(table).where(table.c.id == obj_id, table.c.workspace_id == workspace_id)
    ).first()
    if row is None:
        raise errors.NotFound(f"no such {what}", code=f"{what}_not_found")
    return row


def enum_value(kind: type[Any], value: Any, what: str) -> Any:
    """``kind(value)``, or Invalid naming the allowed values."""
    try:
        return kind(value)
    except ValueError as exc:
        allowed = ", ".join(m.value for m in kind)
        raise errors.Invalid(f"{what} must be one of: {allowed}", code=f"invalid_{what}") from exc
