"""Request bodies and small response helpers for the HTTP API."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices, AwareDatetime, BaseModel, ConfigDict, Field

from memwise._domain.shapes import out as out  # the JSON shape every route returns
from memwise._ids import ContactId, ConversationId

Name = Field(min_length=1, max_length=200)


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WorkspaceIn(Body):
    name: str = Name
    timezone: str = Field("UTC", max_length=64)
    plan: Literal["free", "startup", "business", "enterprise"] = "startup"
    monthly_allowance: int | None = Field(None, ge=0, le=10_000_000)


class AgentIn(Body):
    name: str = Name
    memory_enabled: bool = False
    domain: str | None = Field(None, max_length=64)
    business_intelligence: bool = False
    record_policy: Literal["archive", "audit_only"] = "archive"
    window_overrides: dict[str, dict[str, float]] | None = None
    doors: list[Literal["web", "telegram", "email", "sms", "voice", "phone"]] | None = None


class AgentPatch(Body):
    name: str | None = Field(None, min_length=1, max_length=200)
    memory_enabled: bool | None = None
    domain: str | None = Field(None, max_length=64)
    business_intelligence: bool | None = None
    record_policy: Literal["archive", "audit_only"] | None = None
    window_overrides: dict[str, dict[str, float]] | None = None


class UserIn(Body):
    name: str = Name
    role: Literal["owner", "admin", "operator", "member"] = "member"
    telegram_id: str | None = Field(None, max_length=64)


class ApiKeyIn(Body):
    role: Literal["owner", "admin", "operator"]
    label: str | None = Field(None, max_length=200)
    user_id: str | None = Field(
        None, max_length=64, description="the staff user the key acts for (writes their notebook)"
    )


class ContactIn(Body):
    name: str = Name
    emails: list[str] = Field(default_factory=list, max_length=50)
    phones: list[str] = Field(default_factory=list, max_length=50)
    addresses: list[str] = Field(default_factory=list, max_length=50)
    account_refs: list[str] = Field(default_factory=list, max_length=50)
    telegram_ids: list[str] = Field(default_factory=list, max_length=50)
    external_ids: list[str] = Field(
        default_factory=list, max_length=10, description="your own ids for them: unique"
    )


class ConversationIn(Body):
    agent_id: str | None = Field(
        None, max_length=64, description="the workspace's default agent when not given"
    )
    channel: Literal["web", "telegram", "email", "sms", "voice", "phone", "api"]
    contact_id: ContactId | None = Field(None, max_length=64)
    external_id: str | None = Field(
        None, max_length=200, description="your own id for the customer: found or made"
    )
    user_id: str | None = Field(None, max_length=64, description="the staff user, if any")
    account_ref: str | None = Field(None, max_length=200)
    excluded_from_memory: bool = False
    thread: str | None = Field(None, max_length=300)


class TurnIn(Body):
    role: Literal["customer", "user", "assistant", "operator", "tool"]
    text: str = Field(min_length=1, max_length=32_000)
    at: AwareDatetime | None = None


class TurnsIn(Body):
    """Several turns of one conversation, appended together: all of them or none."""

    turns: list[TurnIn] = Field(min_length=1, max_length=500)


class NotebookIn(Body):
    text: str = Field(min_length=1, max_length=4000)


class MemoryNoteIn(Body):
    kind: Literal["preference", "fact", "event", "task", "note"] = "note"
    text: str = Field(min_length=1, max_length=500)
    key: str | None = Field(None, max_length=200)
    occurs_on: str | None = Field(None, max_length=40)
    entities: list[str] = Field(default_factory=list, max_length=20)


class MemoryPatch(Body):
    text: str | None = Field(None, min_length=1, max_length=500)
    occurs_on: str | None = Field(None, max_length=40)


class RememberMessage(Body):
    role: Literal["customer", "user", "assistant", "operator"]
    text: str = Field(
        min_length=1,
        max_length=32_000,
        validation_alias=AliasChoices("text", "content"),  # "content", as chat APIs say
    )
    at: AwareDatetime | None = None


class RememberIn(Body):
    contact_id: ContactId | None = Field(None, max_length=64)
    user_id: str | None = Field(
        None, max_length=200, description="your own id for the customer: found or made"
    )
    email: str | None = Field(None, max_length=500, description="found or made by email")
    phone: str | None = Field(None, max_length=100, description="found or made by phone")
    name: str | None = Field(None, max_length=200, description="a new contact's name")
    messages: list[RememberMessage] = Field(min_length=1, max_length=1000)
    agent_id: str | None = Field(None, max_length=64)
    channel: Literal["web", "telegram", "email", "sms", "voice", "phone", "api"] = "api"


class RecallIn(Body):
    request: str = Field(min_length=1, max_length=4000)
    limit: int | None = Field(None, ge=0, le=50)


class RebuildIn(Body):
    dry_run: bool = False


class EventIn(Body):
    contact_id: ContactId = Field(max_length=64)
    conversation_id: ConversationId | None = Field(None, max_length=64)
    type: str = Field(min_length=1, max_length=60, pattern=r"^[a-z][a-z0-9_]*$")
    labels: dict[str, str] = Field(default_factory=dict, max_length=20)
    at: AwareDatetime | None = None


class DocumentIn(Body):
    kind: Literal["catalog", "manual", "software", "fitment", "policy", "faq", "note"]
    title: str = Field(min_length=1, max_length=300)
    body: str = Field(min_length=1, max_length=500_000)
    source_url: str | None = Field(None, max_length=1000)
    version: str = Field(min_length=1, max_length=60)
    identifiers: list[str] = Field(default_factory=list, max_length=100)
    key: str | None = Field(None, max_length=300)
    publish: bool | None = None  # admin+: publish now (default); operators: always a draft


class LessonIn(Body):
    question: str = Field(min_length=1, max_length=2000)
    answer: str = Field(min_length=1, max_length=20000)
    unanswered_id: str | None = Field(None, max_length=64)


class LessonPatch(Body):
    question: str | None = Field(None, min_length=1, max_length=2000)
    answer: str | None = Field(None, min_length=1, max_length=20000)


class UnansweredIn(Body):
    question: str = Field(min_length=1, max_length=2000)
    conversation_id: ConversationId | None = Field(None, max_length=64)
    contact_id: ContactId | None = Field(None, max_length=64)


class TicketIn(Body):
    subject: str = Field(min_length=1, max_length=300)
    body: str = Field(min_length=1, max_length=20000)
    contact_id: ContactId | None = Field(None, max_length=64)
    conversation_id: ConversationId | None = Field(None, max_length=64)
    unanswered_id: str | None = Field(None, max_length=64)


class AccountSourceIn(Body):
    type: Literal["http", "sql", "demo"]
    base_url: str | None = Field(None, max_length=1000)
    headers: dict[str, str] | None = Field(None, max_length=20)
    timeout_s: float | None = Field(None, gt=0, le=60)
    lookups: dict[str, str] | None = Field(None, max_length=10)
    url: str | None = Field(None, max_length=1000)
    queries: dict[str, str] | None = Field(None, max_length=10)
    failing: bool | None = None


class EventEndpointIn(Body):
    url: str = Field(min_length=8, max_length=1000)
    events: list[str] | None = Field(None, max_length=20)


class TicketAdapterIn(Body):
    url: str = Field(min_length=8, max_length=1000)
    headers: dict[str, str] | None = Field(None, max_length=20)


class LookupIn(Body):
    conversation_id: ConversationId = Field(max_length=64)
    kind: Literal["order", "invoice", "shipment", "balance", "card"]
    id: str | None = Field(None, max_length=200)
    account: str | None = Field(None, max_length=200)


class IdentifyIn(Body):
    kind: Literal["email", "phone", "telegram"]
    value: str = Field(min_length=1, max_length=500)


class PageIn(Body):
    url: str = Field("", max_length=2000)
    title: str = Field("", max_length=500)


class MessageIn(Body):
    role: Literal["user", "assistant", "customer"]
    text: str = Field("", max_length=32_000)


class ContextIn(Body):
    conversation_id: ConversationId = Field(max_length=64)
    request: str = Field(min_length=1, max_length=32_000)
    page: PageIn | None = None
    messages: list[MessageIn] | None = Field(None, max_length=200)


class ChatIn(Body):
    conversation_id: ConversationId = Field(max_length=64)
    text: str = Field(min_length=1, max_length=32_000)
    page: PageIn | None = None
    messages: list[MessageIn] | None = Field(None, max_length=200)


class PersonaIn(Body):
    voice: str = Field("", max_length=4000)
    helps_with: str = Field("", max_length=4000)


class RulesIn(Body):
    rules: list[str] = Field(max_length=500)
    persona: PersonaIn | None = None
    note: str | None = Field(None, max_length=500)
    publish: bool | None = None


class StandardsIn(Body):
    rules: list[str] = Field(max_length=500)
    note: str | None = Field(None, max_length=500)
    publish: bool | None = None


class RollbackIn(Body):
    version: int = Field(ge=1, le=1_000_000)


class DoorIn(Body):
    on: bool


class SetupBusinessIn(Body):
    name: str = Name
    timezone: str = Field(max_length=64)
    domain: str = Field(min_length=1, max_length=64)
    agent_name: str | None = Field(None, min_length=1, max_length=200)
    plan: Literal["free", "startup", "business", "enterprise"] | None = None


class SetupKnowledgeIn(Body):
    kind: Literal["note", "document", "faq"]
    title: str = Field("", max_length=300)
    body: str = Field(min_length=1, max_length=500_000)
    source_url: str | None = Field(None, max_length=2000)


class SetupHelpsIn(Body):
    persona: PersonaIn | None = None
    rules: list[str] | None = Field(None, max_length=500)
    channels: list[Literal["web", "telegram", "email", "sms", "voice", "phone"]] | None = None
    memory_enabled: bool | None = None


class SetupPreviewIn(Body):
    text: str = Field(min_length=1, max_length=32_000)


class SetupTeachIn(Body):
    unanswered_id: str = Field(max_length=64)
    answer: str = Field(min_length=1, max_length=20_000)


class TestClockIn(Body):
    now: AwareDatetime


def page(items: list[Any], cursor: Any | None) -> dict[str, Any]:
    return {"items": items, "next_cursor": cursor}
