"""Typed results of the HTTP API.

Every model keeps fields the server adds later (``extra="allow"``), so a newer server never
breaks an older client; the fields named here are those docs/http.md promises.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T")


class Result(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)


class Page(Result, Generic[T]):
    items: list[T]
    next_cursor: Any | None = None


class Health(Result):
    status: str
    version: str


class Workspace(Result):
    id: str
    name: str
    timezone: str
    plan: str
    api_key: str | None = None


class Agent(Result):
    id: str
    name: str
    memory_enabled: bool
    domain: str | None = None
    business_intelligence: bool = False
    record_policy: str = "archive"


class User(Result):
    id: str
    name: str
    role: str
    telegram_id: str | None = None


class Contact(Result):
    id: str
    name: str
    emails: list[str] = Field(default_factory=list)
    phones: list[str] = Field(default_factory=list)
    account_refs: list[str] = Field(default_factory=list)


class Conversation(Result):
    id: str
    agent_id: str
    channel: str
    contact_id: str | None = None
    user_id: str | None = None
    status: str
    started_at: datetime
    ended_at: datetime | None = None
    visitor_token: str | None = None


class Turn(Result):
    id: str
    conversation_id: str
    seq: int
    role: str
    channel: str
    text: str | None
    at: datetime


class RecordHit(Result):
    turn_id: str
    conversation_id: str
    role: str
    at: datetime
    highlight: str
    score: float


class NotebookEntry(Result):
    id: str
    text: str
    created_at: datetime


class NotebookAdded(Result):
    """A new entry, or ``duplicate=True`` with the entry that already says it."""

    duplicate: bool = False
    entry: NotebookEntry | None = None
    id: str | None = None
    text: str | None = None


class Removed(Result):
    removed: int


class Evidence(Result):
    turn_id: str | None = None
    quote: str


class MemoryItem(Result):
    id: str
    kind: str
    text: str
    key: str | None = None
    source: str
    trust: str
    temporal: str | None = None
    evidence: list[Evidence] = Field(default_factory=list)
    recorded_at: datetime
    occurs_on: date | None = None
    superseded_by: str | None = None
    edited: bool = False


class Pattern(Result):
    label: str
    value: str
    count: int
    conversations: int
    promoted: bool


class KnowledgeHit(Result):
    id: str
    part: str
    title: str
    excerpt: str
    source_url: str | None = None
    version: str | None = None
    score: float


class KnowledgeSearch(Page[KnowledgeHit]):
    answered: bool = False


class Document(Result):
    id: str
    kind: str
    title: str
    version: str | None = None


class Unanswered(Result):
    id: str
    question: str
    count: int = 1
    status: str = "open"


class Lesson(Result):
    id: str
    question: str
    answer: str
    status: str
    receipt: dict[str, Any] | None = None


class Ticket(Result):
    id: str
    status: str
    summary: str | None = None


class Source(Result):
    part: str
    id: str | None = None
    title: str | None = None
    source_url: str | None = None


class ChatReply(Result):
    reply: str
    sources: list[Source] = Field(default_factory=list)
    handoff: bool = False
    ticket: dict[str, Any] | None = None
    pending_confirmation: dict[str, Any] | None = None


class Context(Result):
    messages: list[dict[str, Any]]
    sections: dict[str, Any]
    explain: list[dict[str, Any]] = Field(default_factory=list)


class AccountLookup(Result):
    status: str
    sentence: str | None = None
    data: dict[str, Any] | None = None


class AuditEntry(Result):
    at: datetime
    actor: str
    tool: str
    status: str
    args: dict[str, Any] = Field(default_factory=dict)
    result: Any | None = None


class JobCounts(Result):
    pass
