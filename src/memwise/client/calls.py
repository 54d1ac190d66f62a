"""What each API operation sends and how its answer is read — shared by both clients.

Each builder returns a :class:`Call`; :class:`memwise.client.Client` sends it with httpx
and :class:`memwise.client.AsyncClient` awaits it. Nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Literal, TypeVar

from pydantic import TypeAdapter

from memwise.client import models as m

T = TypeVar("T")


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    path: str
    read: Callable[[Any], T]
    json: dict[str, Any] | None = None
    params: dict[str, Any] = field(default_factory=dict)


def _as(model: type[T]) -> Callable[[Any], T]:
    adapter = TypeAdapter(model)
    return adapter.validate_python


def _items(model: type[T]) -> Callable[[Any], list[T]]:
    """The items of a one-page answer."""
    adapter = TypeAdapter(list[model])  # type: ignore[valid-type]
    return lambda data: adapter.validate_python(data["items"])


def _given(**values: Any) -> dict[str, Any]:
    """Only the arguments the caller gave (None means: let the server decide)."""
    return {k: v for k, v in values.items() if v is not None}


def _when(at: datetime | None) -> str | None:
    return at.isoformat() if at else None


# --- setup -------------------------------------------------------------------------------


def health() -> Call[m.Health]:
    return Call("GET", "/v1/health", _as(m.Health))


def create_workspace(
    name: str,
    timezone: str = "UTC",
    plan: str | None = None,
    monthly_allowance: int | None = None,
) -> Call[m.Workspace]:
    body = _given(name=name, timezone=timezone, plan=plan, monthly_allowance=monthly_allowance)
    return Call("POST", "/v1/workspaces", _as(m.Workspace), body)


def create_agent(
    name: str,
    *,
    memory_enabled: bool = False,
    domain: str | None = None,
    business_intelligence: bool = False,
    record_policy: Literal["archive", "audit_only"] = "archive",
    doors: list[str] | None = None,
) -> Call[m.Agent]:
    body = _given(
        name=name,
        memory_enabled=memory_enabled,
        domain=domain,
        business_intelligence=business_intelligence,
        record_policy=record_policy,
        doors=doors,
    )
    return Call("POST", "/v1/agents", _as(m.Agent), body)


def update_agent(agent_id: str, **changes: Any) -> Call[m.Agent]:
    return Call("PATCH", f"/v1/agents/{agent_id}", _as(m.Agent), changes)


def get_agent(agent_id: str) -> Call[m.Agent]:
    return Call("GET", f"/v1/agents/{agent_id}", _as(m.Agent))


def create_user(name: str, role: str = "operator", telegram_id: str | None = None) -> Call[m.User]:
    body = _given(name=name, role=role, telegram_id=telegram_id)
    return Call("POST", "/v1/users", _as(m.User), body)


def create_api_key(
    role: str = "operator", label: str | None = None, user_id: str | None = None
) -> Call[m.ApiKey]:
    """A new workspace key (its secret in ``api_key``, shown once); with ``user_id`` it acts
    for that staff user (the one key kind that writes their notebook)."""
    body = _given(role=role, label=label, user_id=user_id)
    return Call("POST", "/v1/api-keys", _as(m.ApiKey), body)


def create_contact(
    name: str,
    *,
    emails: list[str] | None = None,
    phones: list[str] | None = None,
    account_refs: list[str] | None = None,
) -> Call[m.Contact]:
    body = _given(name=name, emails=emails, phones=phones, account_refs=account_refs)
    return Call("POST", "/v1/contacts", _as(m.Contact), body)


def get_contact(contact_id: str) -> Call[m.Contact]:
    return Call("GET", f"/v1/contacts/{contact_id}", _as(m.Contact))


def find_contacts(
    *,
    external_id: str | None = None,
    email: str | None = None,
    phone: str | None = None,
    q: str | None = None,
    limit: int | None = None,
) -> Call[m.Page[m.Contact]]:
    """Contacts by your own id for them, a verified email or phone, or a part of the name."""
    params = _given(external_id=external_id, email=email, phone=phone, q=q, limit=limit)
    return Call("GET", "/v1/contacts", _as(m.Page[m.Contact]), params=params)


# --- the setup builder, written rules and doors ------------------------------------------


def setup() -> Call[m.Setup]:
    """Where the builder stands: each step, done or with what it still misses."""
    return Call("GET", "/v1/setup", _as(m.Setup))


def setup_business(
    name: str,
    timezone: str,
    domain: str,
    *,
    agent_name: str | None = None,
    plan: str | None = None,
) -> Call[m.Setup]:
    body = _given(name=name, timezone=timezone, domain=domain, agent_name=agent_name, plan=plan)
    return Call("PUT", "/v1/setup/business", _as(m.Setup), body)


def setup_knowledge(
    kind: Literal["note", "document", "faq"],
    body: str,
    *,
    title: str = "",
    source_url: str | None = None,
) -> Call[m.SetupItems]:
    payload = _given(kind=kind, body=body, title=title, source_url=source_url)
    return Call("POST", "/v1/setup/knowledge", _as(m.SetupItems), payload)


def setup_approve(part: Literal["document", "lesson"], item_id: str) -> Call[m.SetupApproval]:
    return Call("POST", f"/v1/setup/knowledge/{part}/{item_id}/approve", _as(m.SetupApproval))


def setup_helps(
    *,
    persona: dict[str, str] | None = None,
    rules: list[str] | None = None,
    channels: list[str] | None = None,
    memory_enabled: bool | None = None,
) -> Call[m.Setup]:
    body = _given(persona=persona, rules=rules, channels=channels, memory_enabled=memory_enabled)
    return Call("PUT", "/v1/setup/helps", _as(m.Setup), body)


def preview(text: str) -> Call[m.ChatReply]:
    """Ask the builder's preview as a customer would (not live AI)."""
    return Call("POST", "/v1/setup/preview", _as(m.ChatReply), {"text": text})


def teach_preview(unanswered_id: str, answer: str) -> Call[m.Taught]:
    body = {"unanswered_id": unanswered_id, "answer": answer}
    return Call("POST", "/v1/setup/teach", _as(m.Taught), body)


def agent_rules(agent_id: str) -> Call[list[m.RuleVersion]]:
    """Every version of an agent's identity and rules, newest first."""
    return Call("GET", f"/v1/agents/{agent_id}/rules", _items(m.RuleVersion))


def propose_rules(
    agent_id: str | None,
    rules: list[str],
    *,
    persona: dict[str, str] | None = None,
    note: str | None = None,
    publish: bool | None = None,
) -> Call[m.RuleVersion]:
    """A new version of an agent's rules, or of the team standards (``agent_id=None``)."""
    body = _given(rules=rules, persona=persona, note=note, publish=publish)
    path = f"/v1/agents/{agent_id}/rules" if agent_id else "/v1/standards"
    return Call("POST", path, _as(m.RuleVersion), body)


def standards() -> Call[list[m.RuleVersion]]:
    return Call("GET", "/v1/standards", _items(m.RuleVersion))


def approve_rules(version_id: str) -> Call[m.RuleVersion]:
    return Call("POST", f"/v1/rules/{version_id}/approve", _as(m.RuleVersion))


def reject_rules(version_id: str) -> Call[m.RuleVersion]:
    return Call("POST", f"/v1/rules/{version_id}/reject", _as(m.RuleVersion))


def rollback_rules(agent_id: str | None, version: int) -> Call[m.RuleVersion]:
    path = f"/v1/agents/{agent_id}/rules/rollback" if agent_id else "/v1/standards/rollback"
    return Call("POST", path, _as(m.RuleVersion), {"version": version})


def doors(agent_id: str) -> Call[list[m.Door]]:
    return Call("GET", f"/v1/agents/{agent_id}/doors", _items(m.Door))


def switch_door(agent_id: str, door: str, on: bool) -> Call[list[m.Door]]:
    return Call("PUT", f"/v1/agents/{agent_id}/doors/{door}", _items(m.Door), {"on": on})


# --- conversations -----------------------------------------------------------------------


def start_conversation(
    agent_id: str | None = None,
    channel: str = "web",
    *,
    contact_id: str | None = None,
    external_id: str | None = None,
    user_id: str | None = None,
    account_ref: str | None = None,
    excluded_from_memory: bool | None = None,
) -> Call[m.Conversation]:
    """A new conversation of ``contact_id``, or of the contact your own ``external_id``
    names (found or made); ``user_id`` is the staff user taking it, if any."""
    body = _given(
        agent_id=agent_id,
        channel=channel,
        contact_id=contact_id,
        external_id=external_id,
        user_id=user_id,
        account_ref=account_ref,
        excluded_from_memory=excluded_from_memory,
    )
    return Call("POST", "/v1/conversations", _as(m.Conversation), body)


def get_conversation(conversation_id: str) -> Call[m.Conversation]:
    return Call("GET", f"/v1/conversations/{conversation_id}", _as(m.Conversation))


def conversations(
    contact_id: str | None = None, cursor: str | None = None, limit: int = 50
) -> Call[m.Page[m.Conversation]]:
    params = _given(contact_id=contact_id, cursor=cursor, limit=limit)
    return Call("GET", "/v1/conversations", _as(m.Page[m.Conversation]), params=params)


def add_turn(
    conversation_id: str, role: str, text: str, at: datetime | None = None
) -> Call[m.Turn]:
    body = _given(role=role, text=text, at=_when(at))
    return Call("POST", f"/v1/conversations/{conversation_id}/turns", _as(m.Turn), body)


def add_turns(
    conversation_id: str, turns: Sequence[tuple[str, str] | tuple[str, str, datetime | None]]
) -> Call[m.Page[m.Turn]]:
    """Several turns at once, (role, text) or (role, text, at): all of them or none."""
    body = {
        "turns": [
            _given(role=t[0], text=t[1], at=_when(t[2] if len(t) > 2 else None)) for t in turns
        ]
    }
    path = f"/v1/conversations/{conversation_id}/turns/batch"
    return Call("POST", path, _as(m.Page[m.Turn]), body)


def turns(
    conversation_id: str, cursor: int | None = None, limit: int = 500
) -> Call[m.Page[m.Turn]]:
    params = _given(cursor=cursor, limit=limit)
    path = f"/v1/conversations/{conversation_id}/turns"
    return Call("GET", path, _as(m.Page[m.Turn]), params=params)


def end_conversation(conversation_id: str) -> Call[m.Conversation]:
    return Call("POST", f"/v1/conversations/{conversation_id}/end", _as(m.Conversation))


def reset_conversation(conversation_id: str) -> Call[m.Flag]:
    return Call("POST", f"/v1/conversations/{conversation_id}/reset", _as(m.Flag))


def search_record(q: str, limit: int = 20) -> Call[m.Page[m.RecordHit]]:
    return Call(
        "GET", "/v1/record/search", _as(m.Page[m.RecordHit]), params={"q": q, "limit": limit}
    )


# --- context and chat --------------------------------------------------------------------


def _messages(messages: list[dict[str, str]] | None) -> list[dict[str, str]] | None:
    return None if messages is None else [{"role": x["role"], "text": x["text"]} for x in messages]


def context(
    conversation_id: str,
    request: str,
    *,
    messages: list[dict[str, str]] | None = None,
    page: dict[str, str] | None = None,
) -> Call[m.Context]:
    body = _given(
        conversation_id=conversation_id, request=request, messages=_messages(messages), page=page
    )
    return Call("POST", "/v1/context", _as(m.Context), body)


def chat(
    conversation_id: str,
    text: str,
    *,
    messages: list[dict[str, str]] | None = None,
    page: dict[str, str] | None = None,
) -> Call[m.ChatReply]:
    body = _given(
        conversation_id=conversation_id, text=text, messages=_messages(messages), page=page
    )
    return Call("POST", "/v1/chat", _as(m.ChatReply), body)


# --- notebook ----------------------------------------------------------------------------


def notebook(user_id: str) -> Call[m.Page[m.NotebookEntry]]:
    return Call("GET", f"/v1/users/{user_id}/notebook", _as(m.Page[m.NotebookEntry]))


def remember_rule(user_id: str, text: str) -> Call[m.NotebookAdded]:
    return Call("POST", f"/v1/users/{user_id}/notebook", _as(m.NotebookAdded), {"text": text})


def forget_rule(user_id: str, entry_id: str) -> Call[m.Removed]:
    return Call("DELETE", f"/v1/users/{user_id}/notebook/{entry_id}", _as(m.Removed))


def forget_rules_matching(user_id: str, phrase: str) -> Call[m.Removed]:
    path = f"/v1/users/{user_id}/notebook"
    return Call("DELETE", path, _as(m.Removed), params={"phrase": phrase})


# --- contact memory ----------------------------------------------------------------------


def memory(
    contact_id: str, include: list[str] | None = None, kind: str | None = None
) -> Call[m.Page[m.MemoryItem]]:
    params = _given(include=",".join(include) if include else None, kind=kind)
    path = f"/v1/contacts/{contact_id}/memory"
    return Call("GET", path, _as(m.Page[m.MemoryItem]), params=params)


def memories(
    contact_id: str | None = None,
    *,
    kind: str | None = None,
    trust: str | None = None,
    key: str | None = None,
    since: str | None = None,
    until: str | None = None,
    include: list[str] | None = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> Call[m.Page[m.MemoryItem]]:
    """The workspace's memory items, newest first, filtered (a key ending in "." is a
    prefix: "allergy.")."""
    params = _given(
        contact_id=contact_id,
        kind=kind,
        trust=trust,
        key=key,
        since=since,
        until=until,
        include=",".join(include) if include else None,
        limit=limit,
        cursor=cursor,
    )
    return Call("GET", "/v1/memories", _as(m.Page[m.MemoryItem]), params=params)


def summaries(contact_id: str) -> Call[m.Page[m.MemoryItem]]:
    """The contact's session summaries, newest conversation first."""
    path = f"/v1/contacts/{contact_id}/summaries"
    return Call("GET", path, _as(m.Page[m.MemoryItem]))


def conversation_summary(conversation_id: str) -> Call[m.MemoryItem]:
    """One conversation's session summary."""
    return Call("GET", f"/v1/conversations/{conversation_id}/summary", _as(m.MemoryItem))


def get_memory(item_id: str) -> Call[m.MemoryItem]:
    return Call("GET", f"/v1/memories/{item_id}", _as(m.MemoryItem))


def memory_history(item_id: str) -> Call[m.MemoryHistory]:
    """One memory's life: versions and every change, with who, when and why."""
    return Call("GET", f"/v1/memories/{item_id}/history", _as(m.MemoryHistory))


def delete_memory(item_id: str) -> Call[m.MemoryDeleted]:
    """Erase one item, its quotes and its history (admins; audited)."""
    return Call("DELETE", f"/v1/memories/{item_id}", _as(m.MemoryDeleted))


def edit_memory(item_id: str, **changes: Any) -> Call[m.MemoryItem]:
    return Call("PATCH", f"/v1/memories/{item_id}", _as(m.MemoryItem), changes)


def archive_memory(item_id: str) -> Call[m.MemoryItem]:
    return Call("POST", f"/v1/memories/{item_id}/archive", _as(m.MemoryItem))


def remember(
    contact_id: str | None = None,
    messages: list[dict[str, str]] | None = None,
    *,
    user_id: str | None = None,
    email: str | None = None,
    phone: str | None = None,
    name: str | None = None,
    agent_id: str | None = None,
    channel: str | None = None,
) -> Call[m.Remembered]:
    """Record messages as one conversation, end it and extract now: the items it kept. The
    customer is ``contact_id``, or found or made by ``user_id`` (your own id for them),
    ``email`` or ``phone``."""
    body = _given(
        contact_id=contact_id,
        user_id=user_id,
        email=email,
        phone=phone,
        name=name,
        messages=messages or [],
        agent_id=agent_id,
        channel=channel,
    )
    return Call("POST", "/v1/memories", _as(m.Remembered), body)


def recall(contact_id: str, request: str, limit: int | None = None) -> Call[m.Recall]:
    body = _given(request=request, limit=limit)
    return Call("POST", f"/v1/contacts/{contact_id}/recall", _as(m.Recall), body)


def recall_record(
    contact_id: str, question: str, *, limit: int = 10, asked_by: str = "staff"
) -> Call[m.Page[m.HistoryHit]]:
    """The contact's past turns that best answer ``question`` (both sides of every
    conversation), each with its conversation, time and speaker."""
    params = {"q": question, "k": limit, "asked_by": asked_by}
    return Call(
        "GET", f"/v1/contacts/{contact_id}/history", _as(m.Page[m.HistoryHit]), params=params
    )


def patterns(contact_id: str) -> Call[m.Patterns]:
    return Call("GET", f"/v1/contacts/{contact_id}/patterns", _as(m.Patterns))


def export_contact(contact_id: str) -> Call[m.Export]:
    return Call("GET", f"/v1/contacts/{contact_id}/export", _as(m.Export))


def delete_contact(contact_id: str) -> Call[m.Deleted]:
    return Call("DELETE", f"/v1/contacts/{contact_id}", _as(m.Deleted))


def run_jobs() -> Call[m.JobRun]:
    return Call("POST", "/v1/jobs/run", _as(m.JobRun))


# --- knowledge and teaching --------------------------------------------------------------


def add_document(
    title: str,
    body: str,
    *,
    kind: str = "faq",
    source_url: str | None = None,
    version: str = "1",
    identifiers: list[str] | None = None,
) -> Call[m.Document]:
    data = _given(
        kind=kind,
        title=title,
        body=body,
        source_url=source_url,
        version=version,
        identifiers=identifiers,
    )
    return Call("POST", "/v1/knowledge/documents", _as(m.Document), data)


def search_knowledge(q: str, limit: int = 5) -> Call[m.KnowledgeSearch]:
    params = {"q": q, "limit": limit}
    return Call("GET", "/v1/knowledge/search", _as(m.KnowledgeSearch), params=params)


def unanswered() -> Call[m.Page[m.Unanswered]]:
    return Call("GET", "/v1/unanswered", _as(m.Page[m.Unanswered]))


def draft_lesson(question: str, answer: str, unanswered_id: str | None = None) -> Call[m.Lesson]:
    body = _given(question=question, answer=answer, unanswered_id=unanswered_id)
    return Call("POST", "/v1/lessons", _as(m.Lesson), body)


def approve_lesson(lesson_id: str) -> Call[m.Lesson]:
    return Call("POST", f"/v1/lessons/{lesson_id}/approve", _as(m.Lesson))


def tickets(contact_id: str | None = None) -> Call[m.Page[m.Ticket]]:
    params = _given(contact_id=contact_id)
    return Call("GET", "/v1/tickets", _as(m.Page[m.Ticket]), params=params)


def audit(
    tool: str | None = None, status: str | None = None, cursor: str | None = None
) -> Call[m.Page[m.AuditEntry]]:
    params = _given(tool=tool, status=status, cursor=cursor)
    return Call("GET", "/v1/audit", _as(m.Page[m.AuditEntry]), params=params)


# --- accounts ----------------------------------------------------------------------------


def lookup_account(
    conversation_id: str, kind: str, id: str | None = None, account: str | None = None
) -> Call[m.AccountLookup]:
    body = _given(conversation_id=conversation_id, kind=kind, id=id, account=account)
    return Call("POST", "/v1/accounts/lookup", _as(m.AccountLookup), body)
