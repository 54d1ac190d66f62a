"""Knowledge as the business keeps it: documents, lessons a person taught, their receipts,
the questions knowledge could not answer, and the tickets that hand a case to the team."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal
from urllib.parse import urlsplit

from memwise import errors
from memwise._ids import ContactId, ConversationId


class DocumentStatus(StrEnum):
    draft = "draft"  # an operator's; not served until an admin approves it
    current = "current"
    superseded = "superseded"  # a newer version is current
    rejected = "rejected"


class LessonStatus(StrEnum):
    draft = "draft"
    published = "published"
    superseded = "superseded"
    withdrawn = "withdrawn"  # kept, no longer served


class UnansweredStatus(StrEnum):
    open = "open"
    closed = "closed"  # a lesson answers it


class TicketStatus(StrEnum):
    pending = "pending"  # not yet accepted by the helpdesk
    accepted = "accepted"
    failed = "failed"


KINDS = ("catalog", "manual", "software", "fitment", "policy", "faq", "note")


QUESTION_CHARS = 2000  # an unanswered item's or a lesson's question


@dataclass(frozen=True)
class Document:
    id: str
    key: str
    kind: str
    title: str
    body: str
    source_url: str | None
    version: str
    identifiers: list[str]
    status: DocumentStatus
    superseded_by: str | None
    created_at: Any


ReviewAction = Literal["published", "rejected"]


@dataclass(frozen=True)
class DocumentReceipt:
    """Who approved (or rejected) which version of a document, when, and its content hash."""

    id: str
    document_id: str
    approved_by: str
    at: Any
    action: ReviewAction
    title: str
    version: str
    content_hash: str


@dataclass(frozen=True)
class Lesson:
    id: str
    key: str
    version: int
    question: str
    answer: str
    status: LessonStatus
    unanswered_id: str | None
    created_by: str
    created_at: datetime
    approved_by: str | None
    approved_at: datetime | None
    content_hash: str | None


@dataclass(frozen=True)
class Receipt:
    id: str
    lesson_id: str
    approved_by: str
    at: datetime
    action: str
    question: str
    answer: str
    unanswered_id: str | None
    content_hash: str


@dataclass(frozen=True)
class Unanswered:
    id: str
    question: str
    count: int
    status: UnansweredStatus
    conversation_id: ConversationId | None
    contact_id: ContactId | None
    first_asked_at: datetime
    last_asked_at: datetime
    lesson_id: str | None


@dataclass(frozen=True)
class Ticket:
    id: str
    contact_id: ContactId | None
    conversation_id: ConversationId | None
    unanswered_id: str | None
    subject: str
    body: str
    status: TicketStatus
    adapter: str
    external_ref: str | None
    error: str | None
    created_at: datetime


def check_source_url(url: str | None) -> str | None:
    """A source link is an http(s) URL of at most 1,000 characters (never javascript:)."""
    value = (url or "").strip() or None
    if value is None:
        return None
    if len(value) > 1000:
        raise errors.Invalid("a source URL has at most 1,000 characters", code="invalid_url")
    parts = urlsplit(value)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise errors.Invalid("a source URL starts with http:// or https://", code="invalid_url")
    if any(ord(c) < 33 for c in value):
        raise errors.Invalid("a source URL has no spaces or control characters", code="invalid_url")
    return value


@dataclass(frozen=True)
class TestSet:
    """A frozen, versioned set of questions with the answers the team expects."""

    __test__ = False  # not a test class, whatever its name

    id: str
    name: str
    version: int
    items: list[dict[str, Any]]
    created_at: datetime


@dataclass(frozen=True)
class EvalRun:
    """One measurement of knowledge against a test set."""

    id: str
    set_id: str
    created_at: datetime
    summary: dict[str, Any]
    results: list[dict[str, Any]]


def shortened(text: str, limit: int = QUESTION_CHARS) -> str:
    """``text`` cut at a word before ``limit`` characters, marked with an ellipsis."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0] or text[: limit - 1]
    return cut + "…"


Recipe = Literal["lexical", "hybrid"]


HitPart = Literal["reference", "lesson"]


@dataclass(frozen=True)
class Hit:
    id: str  # the document or lesson
    chunk_id: str
    part: HitPart
    title: str
    excerpt: str
    source_url: str | None
    version: str | None
    score: float
    coverage: float
    similarity: float | None
    position: int
