"""The record: every turn at every door, append-only."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from memwise import errors
from memwise._ids import ConversationId, TurnId, WorkspaceId

MAX_TURN_CHARS = 32_000
NOT_TEXT = re.compile(r"\x00")  # NUL: no database stores it in text, so it is refused
_TEXT_CONTROLS = frozenset("\t\n\r")  # controls that are text
_JOINERS = frozenset("\u200c\u200d")  # format characters emoji sequences and scripts need
_SEEN = ("L", "N", "P", "S")  # a character someone can see: a letter, number, mark or symbol


def clean(text: str) -> tuple[str, int]:
    """``text`` without what is not text, and how many characters were removed or replaced —
    decided by the Unicode character database (``unicodedata.category``), not a list: every
    "other" character (controls but tab, newline and carriage return; format characters —
    bidi overrides, zero-width spaces, tag characters that can smuggle hidden words — but
    the zero-width joiners; surrogates; unassigned code points) goes; a private-use one (a
    symbol font's bullet, U+F0B7) becomes "•". One pass over the text: linear."""
    if text.isprintable():  # nothing to look at (the common case)
        return text, 0
    kept: list[str] = []
    changed = 0
    for ch in text:
        category = unicodedata.category(ch)
        if category[0] != "C" or ch in _TEXT_CONTROLS or ch in _JOINERS:
            kept.append(ch)
            continue
        changed += 1
        if category == "Co":
            kept.append("•")
    return "".join(kept), changed


def check_text(text: str, what: str = "the text") -> str:
    """Text only: NUL is refused; the other characters that are not text are removed."""
    if NOT_TEXT.search(text):
        raise errors.Invalid(
            f"{what} holds a NUL character, which cannot be stored as text",
            code="control_characters",
        )
    return clean(text)[0]


class Author(StrEnum):
    customer = "customer"
    user = "user"
    assistant = "assistant"
    operator = "operator"
    tool = "tool"
    # an inbound sender their provider did not authenticate (no SPF/DKIM/DMARC pass, no
    # verified number): their words are recorded, and never evidence for memory
    sender = "sender"


@dataclass(frozen=True)
class Turn:
    id: TurnId
    workspace_id: WorkspaceId
    conversation_id: ConversationId
    seq: int
    role: Author
    channel: str
    text: str | None  # None when the agent's record policy is audit_only
    at: datetime
    cleaned: int = 0  # characters that were not text, removed or replaced when taken in


@dataclass(frozen=True)
class RecordHit:
    turn_id: str
    conversation_id: ConversationId
    role: Author
    at: datetime
    highlight: str
    score: float


def check_turn_text(text: str) -> str:
    if not isinstance(text, str) or not text.strip():
        raise errors.Invalid("a turn needs non-empty text", code="empty_turn")
    if len(text) > MAX_TURN_CHARS:
        raise errors.Invalid(f"a turn is limited to {MAX_TURN_CHARS} characters", code="too_long")
    return check_text(text, "a turn")


def turn_text(text: str) -> tuple[str, int]:
    """A turn's text as kept, and how many characters were cleaned out of it (on the turn)."""
    check_turn_text(text)
    cleaned, changed = clean(text)
    if not any(unicodedata.category(c)[0] in _SEEN for c in cleaned):  # nothing to read
        raise errors.Invalid("a turn needs text someone can read", code="empty_turn")
    return cleaned, changed


EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)


def client_time(at: datetime | None, now: datetime, skew_s: float, *, trusted: bool) -> datetime:
    """The time to record for a time a client sent.

    A trusted caller (staff, a signed integration, the library) may date turns in the past
    (an import), never before 1970 nor further ahead than ``skew_s``; a visitor's time counts
    only within ``skew_s`` of the server clock. Anything else: the server's time. Every
    stored time is then safe to show in any timezone (no year 9999 overflow).
    """
    if at is None:
        return now
    when = at.replace(tzinfo=UTC) if at.tzinfo is None else at
    try:
        when = when.astimezone(UTC)
    except (OverflowError, ValueError):
        return now
    skew = timedelta(seconds=skew_s)
    earliest = EARLIEST if trusted else now - skew
    return when if earliest <= when <= now + skew else now


def check_role_for_participant(role: Author, staff_facing: bool) -> None:
    """A customer speaks only in customer-facing conversations; a user only in staff ones."""
    if role in (Author.customer, Author.sender) and staff_facing:
        raise errors.Invalid("a staff conversation has no customer turns", code="wrong_role")
    if role is Author.user and not staff_facing:
        raise errors.Invalid("a customer conversation has no staff-user turns", code="wrong_role")


@dataclass(frozen=True)
class NewTurn:
    role: str
    text: str
    at: datetime | None = None


@dataclass(frozen=True)
class HistoryHit:
    turn_id: str
    conversation_id: ConversationId
    role: str
    speaker: str
    text: str
    at: datetime
    score: float
