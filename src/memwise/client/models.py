"""Typed results of the HTTP API.

Every model keeps fields the server adds later (``extra="allow"``), so a newer server never
breaks an older client; the fields named here are those docs/http.md promises.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer

T = TypeVar("T")

# A moment as the server writes it (ISO 8601 with its offset, "+00:00" for UTC).
Moment = Annotated[datetime, PlainSerializer(lambda d: d.isoformat(), return_type=str)]


class Result(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    def __getitem__(self, name: str) -> Any:
        """``result["field"]`` reads a field (named or added by a newer server), as the
        untyped results of earlier versions did."""
        try:
            return getattr(self, name)
        except AttributeError:
            raise KeyError(name) from None


class Page(Result, Generic[T]):
    items: list[T]
    next_cursor: Any | None = None


class Health(Result):
    status: str
    version: str
    database: dict[str, Any] | None = None
    worker: dict[str, Any] | None = None
    model: dict[str, Any] | None = None
    boundary: dict[str, Any] | None = None
    metering: bool = False  # plans and allowances apply (MEMWISE_METERING); off self-hosted


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
    doors: list[str] | None = None  # the customer doors switched on; None: every door open


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
    external_ids: list[str] = Field(default_factory=list)  # your own ids for them


class Conversation(Result):
    id: str
    agent_id: str
    channel: str
    contact_id: str | None = None
    user_id: str | None = None
    status: str
    started_at: Moment
    ended_at: Moment | None = None
    visitor_token: str | None = None


class Turn(Result):
    id: str
    conversation_id: str
    seq: int
    role: str
    channel: str
    text: str | None
    at: Moment
    cleaned: int = 0  # characters that were not text (stray controls …), removed when taken in


class RecordHit(Result):
    turn_id: str
    conversation_id: str
    role: str
    at: Moment
    highlight: str
    score: float


class NotebookEntry(Result):
    id: str
    text: str
    created_at: Moment


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
    recorded_at: Moment
    occurs_on: str | None = None  # an ISO date, or an ISO datetime with its offset
    superseded_by: str | None = None
    edited: bool = False
    lifecycle: str = "active"  # active | superseded | archived
    contact_id: str | None = None
    # a session summary's parts: {"sentences": [{part, text, turn_id, role, quote,
    # occurs_on, closed_on?, closed_by?}], "channel", "method"}
    summary: dict[str, Any] | None = None


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
    unanswered_id: str | None = None  # a hand-off: the question the team can teach


class RuleVersion(Result):
    """One version of written rules: an agent's (``scope`` is its id) or the team
    standards (``scope`` is ``"workspace"``)."""

    id: str
    scope: str
    version: int
    status: str  # draft | served | superseded | rejected
    persona: dict[str, str] | None = None
    rules: list[str] = Field(default_factory=list)
    note: str | None = None
    diff: str = ""
    proposed_by: str
    proposed_at: Moment
    decided_by: str | None = None
    decided_at: Moment | None = None


class Door(Result):
    door: str
    on: bool
    intended: bool = False
    needs: str = ""
    ready: bool | None = None  # None: memwise cannot tell (a token held elsewhere)


class SetupStep(Result):
    name: str
    title: str
    done: bool
    missing: list[str] = Field(default_factory=list)


class Setup(Result):
    """Where the setup builder stands: each step with what is still missing."""

    steps: list[SetupStep]
    next: str | None = None
    complete: bool = False
    business: dict[str, Any] = Field(default_factory=dict)
    knowledge: dict[str, Any] = Field(default_factory=dict)
    helps: dict[str, Any] = Field(default_factory=dict)
    try_: dict[str, Any] = Field(default_factory=dict, alias="try")


class SetupItems(Result):
    items: list[dict[str, Any]]


class SetupApproval(Result):
    part: str  # document | lesson
    id: str
    receipt_id: str


class Taught(Result):
    id: str
    question: str
    status: str  # published once approved; draft when an operator taught it


class Context(Result):
    messages: list[dict[str, Any]]
    sections: dict[str, Any]
    explain: list[dict[str, Any]] = Field(default_factory=list)


class AccountLookup(Result):
    status: str
    sentence: str | None = None
    data: dict[str, Any] | None = None


class AuditEntry(Result):
    at: Moment
    actor: str
    tool: str
    status: str
    args: dict[str, Any] = Field(default_factory=dict)
    result: Any | None = None


class JobCounts(Result):
    pass


# -- the rest of the operations: every answer of the API has its model -----------------------


class Flag(Result):
    """An operation that answers with one fact: ``{"reset": true}``, ``{"removed": true}``."""


class ApiKey(Result):
    id: str | None = None
    role: str | None = None
    label: str | None = None
    created_at: Moment | None = None
    revoked_at: Moment | None = None
    user_id: str | None = None  # the staff user the key acts for, if one
    api_key: str | None = None  # shown once, when minted or rotated


class Clock(Result):
    now: Moment


class Settings(Result):
    """A configuration as shown back: its type, and secrets only as set/•••."""

    type: str


class Identification(Result):
    status: str  # bound | ambiguous | unbound
    contact_id: str | None = None
    account_ref: str | None = None
    question: str | None = None


class ContextAnswer(Context):
    anthropic: dict[str, Any] = Field(default_factory=dict)
    route: str = "knowledge"
    flags: int = 0
    tools: list[dict[str, Any]] = Field(default_factory=list)


class WindowMessage(Result):
    role: str
    text: str


class Window(Result):
    kind: str
    summary: str | None = None
    messages: list[WindowMessage] = Field(default_factory=list)
    pending: dict[str, Any] | None = None


class EventEndpoint(Result):
    id: str
    url: str
    events: list[str] = Field(default_factory=list)
    active: bool = True
    secret: str | None = None  # shown once
    types: list[str] | None = None


class EventDelivery(Result):
    job_id: str
    event_id: str
    type: str
    endpoint_id: str
    status: str  # queued | running | done | failed
    attempts: int = 0
    last_error: str | None = None


class JobRun(Result):
    ran: dict[str, int] = Field(default_factory=dict)
    total: int = 0
    running: int = 0  # jobs another worker was still running when the wait ended


class Job(Result):
    id: str
    kind: str
    status: str
    attempts: int = 0


class Jobs(Page[Job]):
    counts: dict[str, Any] = Field(default_factory=dict)


class RebuildProgress(Result):
    rebuild_id: str | None = None
    total: int = 0
    done: int = 0
    failed: int = 0
    running: bool = False


class Rebuild(Result):
    """The estimate (``dry_run``), or the estimate and the started rebuild's progress."""

    conversations: int
    cost: int
    remaining: int
    allowed: bool
    reason: str | None = None
    progress: RebuildProgress | None = None


class Patterns(Page[Pattern]):
    reason: str | None = None


class Usage(Result):
    month: str
    used: int
    allowance: int
    remaining: int
    metered: bool = False  # whether the allowance applies (MEMWISE_METERING); counted anyway


class Created(Result):
    id: str


class DocumentReceipt(Result):
    id: str
    document_id: str
    approved_by: str
    at: Moment
    action: str


class Receipt(Result):
    id: str
    lesson_id: str
    approved_by: str
    at: Moment
    action: str


class Written(Result):
    action: str
    affected: list[str] = Field(default_factory=list)
    item: MemoryItem


class Graph(Result):
    nodes: list[dict[str, Any]] = Field(default_factory=list)
    edges: list[dict[str, Any]] = Field(default_factory=list)


class RecallLine(Result):
    part: str
    text: str
    ids: list[str] = Field(default_factory=list)
    trust: str | None = None


class Recall(Result):
    profile: list[RecallLine] = Field(default_factory=list)
    notes: list[RecallLine] = Field(default_factory=list)
    explain: list[dict[str, Any]] = Field(default_factory=list)


class HistoryHit(Result):
    turn_id: str
    conversation_id: str
    role: str
    speaker: str
    text: str
    at: Moment
    score: float


class Export(Result):
    contact: dict[str, Any]
    memory: list[dict[str, Any]] = Field(default_factory=list)


class Deleted(Result):
    deleted: dict[str, int]


class MemoryChange(Result):
    item_id: str
    at: Moment
    action: str  # created | superseded | conflicted | edited | archived
    actor: str
    why: str | None = None
    text: str | None = None
    before: str | None = None  # an edit's text before it
    other_item_id: str | None = None


class MemoryHistory(Result):
    """One memory's life: its versions (what it replaced, it, what replaced it; oldest first)
    and every change to each, with who made it, when and why."""

    item_id: str
    versions: list[MemoryItem]
    changes: list[MemoryChange]


class MemoryDeleted(Result):
    deleted: str  # the item's id


class Remembered(Result):
    conversation_id: str
    contact_id: str | None = None  # whom it was remembered for (found or made by user_id …)
    status: str
    reason: str | None = None
    items: list[MemoryItem] = Field(default_factory=list)
    refused: Any = None
    discarded: int = 0


class NotebookBlock(Result):
    text: str | None = None


class Secret(Result):
    secret: str


class Received(Result):
    conversation_id: str | None = None
    contact_id: str | None = None
    duplicate: bool = False
