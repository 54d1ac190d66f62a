"""The record: every turn at every door, append-only."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from memwise import errors

MAX_TURN_CHARS = 32_000


class Author(StrEnum):
    customer = "customer"
    user = "user"
    assistant = "assistant"
    operator = "operator"
    tool = "tool"


@dataclass(frozen=True)
class Turn:
    id: str
    workspace_id: str
    conversation_id: str
    seq: int
    role: Author
    channel: str
    text: str | None  # None when the agent's record policy is audit_only
    at: datetime


@dataclass(frozen=True)
class RecordHit:
    turn_id: str
    conversation_id: str
    role: Author
    at: datetime
    highlight: str
    score: float


def check_turn_text(text: str) -> str:
    if not isinstance(text, str) or not text.strip():
        raise errors.Invalid("a turn needs non-empty text", code="empty_turn")
    if len(text) > MAX_TURN_CHARS:
        raise errors.Invalid(f"a turn is limited to {MAX_TURN_CHARS} characters", code="too_long")
    return text


def check_role_for_participant(role: Author, staff_facing: bool) -> None:
    """A customer speaks only in customer-facing conversations; a user only in staff ones."""
    if role is Author.customer and staff_facing:
        raise errors.Invalid("a staff conversation has no customer turns", code="wrong_role")
    if role is Author.user and not staff_facing:
        raise errors.Invalid("a customer conversation has no staff-user turns", code="wrong_role")
