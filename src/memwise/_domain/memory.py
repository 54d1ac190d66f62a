"""Contact memory: the item, its trust as served, and how it reads as dated history.

Trust is computed, never stored: one function (``trust``) derives it from lifecycle, source,
evidence and time, so that the invariants hold everywhere an item is served:
a conflicted item is never verified; superseded and archived items are never current;
an inferred item is never served as stated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from enum import StrEnum
from typing import Any, Literal
from zoneinfo import ZoneInfo

from memwise import errors
from memwise._domain.explain import Considered
from memwise._ids import ContactId, ConversationId, ItemId, WorkspaceId


class Kind(StrEnum):
    preference = "preference"
    fact = "fact"
    event = "event"
    task = "task"
    note = "note"
    pattern = "pattern"
    summary = "summary"  # one conversation's session summary (scope: session)


class Scope(StrEnum):
    workspace = "workspace"
    contact = "contact"
    session = "session"


class Source(StrEnum):
    stated = "stated"
    inferred = "inferred"
    operator = "operator"


class Lifecycle(StrEnum):
    active = "active"
    superseded = "superseded"
    archived = "archived"


class Trust(StrEnum):
    verified = "verified"
    unverified = "unverified"
    conflicted = "conflicted"
    stale = "stale"
    superseded = "superseded"
    archived = "archived"


CURRENT = {Trust.verified, Trust.unverified, Trust.stale, Trust.conflicted}
DURABLE_KINDS = {Kind.preference, Kind.fact, Kind.pattern}


@dataclass(frozen=True)
class Evidence:
    turn_id: str
    quote: str
    at: datetime | None = None


@dataclass(frozen=True)
class Item:
    id: ItemId
    workspace_id: WorkspaceId
    contact_id: ContactId | None
    kind: Kind
    scope: Scope
    text: str
    key: str | None
    source: Source
    evidence: list[Evidence]
    recorded_at: datetime
    last_mentioned_at: datetime
    occurs_on: str | None  # ISO date or datetime with offset, as resolved when stored
    lifecycle: Lifecycle
    conflicted: bool = False
    superseded_by: str | None = None
    superseded_at: datetime | None = None
    superseded_why: str | None = None
    edited: bool = False
    conversation_id: ConversationId | None = None
    entities: list[str] = field(default_factory=list)
    occurs_phrase: str | None = None
    extractor: str | None = None
    prompt_version: str | None = None
    labels: dict[str, Any] = field(default_factory=dict)


def occurs_moment(occurs_on: str, zone: ZoneInfo) -> datetime:
    """When the thing happens, as an aware datetime (a bare date: the end of that local day)."""
    if len(occurs_on) == 10:
        day = date.fromisoformat(occurs_on)
        return datetime(day.year, day.month, day.day, 23, 59, 59, tzinfo=zone)
    moment = datetime.fromisoformat(occurs_on)
    return moment if moment.tzinfo else moment.replace(tzinfo=zone)


def temporal(item: Item, now: datetime, zone: ZoneInfo) -> str | None:
    """'upcoming' or 'past' for things that happen; None for everything else."""
    if not item.occurs_on:
        return None
    return "past" if occurs_moment(item.occurs_on, zone) < now else "upcoming"


def trust(item: Item, now: datetime, stale_after: timedelta) -> Trust:
    """Trust as served. The one place it is decided."""
    if item.lifecycle is Lifecycle.archived:
        return Trust.archived
    if item.lifecycle is Lifecycle.superseded:
        return Trust.superseded
    if item.conflicted:
        return Trust.conflicted
    if item.kind is Kind.task and not item.occurs_on and now - item.last_mentioned_at > stale_after:
        return Trust.stale
    if item.source is Source.inferred:
        return Trust.unverified
    if item.source is Source.operator:
        return Trust.verified
    return Trust.verified if any(e.quote.strip() for e in item.evidence) else Trust.unverified


def day(moment: datetime, zone: ZoneInfo) -> str:
    """A day as every served line writes it ("7 Dec 2026"), on the workspace's calendar."""
    local = moment.astimezone(zone)
    return f"{local.day} {local:%b %Y}"


def _said_on(item: Item, zone: ZoneInfo) -> str:
    """The day the item's words were said (its first quote's turn), else when it was kept."""
    first = item.evidence[0].at if item.evidence and item.evidence[0].at else item.recorded_at
    return day(first, zone)


def _when(occurs_on: str, zone: ZoneInfo) -> str:
    moment = occurs_moment(occurs_on, zone)
    if len(occurs_on) == 10:
        return day(moment, zone)
    local = moment.astimezone(zone)
    return f"{day(moment, zone)} {local:%H:%M}"


def render_summary(item: Item, zone: ZoneInfo) -> str:
    """A session summary as dated history: "On 3 Nov 2026, by email: …", each open point
    that a later conversation closed marked so."""
    meta = item.labels.get("summary") or {}
    channel = meta.get("channel")
    head = f"On {_said_on(item, zone)}" + (f", by {channel}" if channel else "") + ":"
    parts = []
    for sentence in meta.get("sentences") or [{"text": item.text}]:
        text = str(sentence.get("text", "")).strip()
        closed = sentence.get("closed_on")
        if closed:
            text = f"{text.rstrip('.')} (closed on {closed})."
        parts.append(text)
    return f"{head} {' '.join(parts)}"


def render(item: Item, now: datetime, zone: ZoneInfo, state: Trust) -> str:
    """One line of dated history — never a present-tense fact."""
    if item.kind is Kind.summary:
        return render_summary(item, zone)
    said_on = _said_on(item, zone)
    if item.source is Source.inferred:
        head = f"Inferred from repeated behaviour (not stated by the customer), as of {said_on}:"
    elif item.source is Source.operator:
        head = f"On {said_on} an operator noted:"
    else:
        head = f"On {said_on} the customer said:"
    text = item.text.rstrip(".")
    tail = ""
    if item.occurs_on:
        tail = f" (happens {_when(item.occurs_on, zone)}; {temporal(item, now, zone)})"
    if state is Trust.stale:
        tail += f" (last mentioned {day(item.last_mentioned_at, zone)}; may be out of date)"
    return f"{head} {text}.{tail}"


def render_conflict(items: list[Item], zone: ZoneInfo) -> str:
    """How a conflict is served: both values with the days they were said, neither as true."""
    parts = [f"{i.text.rstrip('.')} ({_said_on(i, zone)})" for i in items]
    return "conflicting: " + " vs ".join(parts)


WriteAction = Literal["created", "repeated", "superseded", "conflicted", "skipped", "history"]


@dataclass(frozen=True)
class Written:
    item: Item
    action: WriteAction
    affected: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Served:
    """An item as served: with its trust and temporal state."""

    item: Item
    trust: Trust
    temporal: str | None


def check_occurs_on(value: str | date | datetime | None) -> str | None:
    """An ISO date, or an aware ISO datetime; anything else is refused clearly."""
    if value is None or value == "":
        return None
    if isinstance(value, date) and not isinstance(value, datetime):
        return value.isoformat()
    text = value.isoformat() if isinstance(value, datetime) else str(value).strip()
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            if not 1 < day.year < 9999:  # its local day's end must be a moment in every zone
                raise ValueError("out of range")
            return day.isoformat()
        moment = datetime.fromisoformat(text)
        if moment.tzinfo is not None:
            moment.astimezone(UTC)  # a moment storage can hold (not 0001 at +14:00)
        if not 1 < moment.year < 9999:  # shown in every zone (a workspace's zone may change)
            raise ValueError("out of range")
    except (ValueError, OverflowError) as exc:
        raise errors.Invalid(
            f"occurs_on {text[:60]!r} is not an ISO date or datetime that can be stored",
            code="invalid_occurs_on",
        ) from exc
    if moment.tzinfo is None:
        raise errors.Invalid("occurs_on needs a timezone offset", code="invalid_occurs_on")
    return moment.isoformat()


def check_key(key: str | None) -> str | None:
    if key is None or not str(key).strip():
        return None
    k = str(key).strip().lower()
    if len(k) > 200 or not all(part and part.replace("_", "").isalnum() for part in k.split(".")):
        raise errors.Invalid(
            "a key is dotted words, e.g. 'appointment.dentist'", code="invalid_key"
        )
    return k


def supersession(
    old_source: Source, old_turns: set[str], old_said: datetime, new: Item, said_at: datetime
) -> str:
    """How a new value relates to the active one with the same key: ``supersede_old``,
    ``older`` (the new one is history), ``conflict`` (no order between them) or ``skip``.

    A stated or operator value is never displaced by an inference; an operator's and the
    customer's values conflict (neither outranks the other); two values from the same turn
    conflict (a new value quoting the old one's turn besides a later one is said later);
    otherwise the later statement wins."""
    new_source = new.source
    if new_source is Source.inferred and old_source is not Source.inferred:
        return "skip"
    if old_source is Source.inferred and new_source is not Source.inferred:
        return "supersede_old"
    if {old_source, new_source} == {Source.operator, Source.stated}:
        return "conflict"
    new_turns = {e.turn_id for e in new.evidence}
    if new_turns and new_turns <= old_turns:
        return "conflict"
    if said_at > old_said:
        return "supersede_old"
    if said_at < old_said:
        return "older"
    return "conflict"


RecallPart = Literal["profile", "notes"]


@dataclass(frozen=True)
class Line:
    part: RecallPart
    ids: list[str]
    text: str
    trust: str
    score: float = 0.0
    staff_only: bool = False  # an operator's note: context for staff and the model, never
    # quoted to the customer


@dataclass
class Recall:
    profile: list[Line] = field(default_factory=list)
    notes: list[Line] = field(default_factory=list)
    explain: list[Considered] = field(default_factory=list)


RememberStatus = Literal[
    "applied", "skipped", "queued", "running", "waiting", "failed", "retrying"
]  # fmt: skip


@dataclass(frozen=True)
class Remembered:
    conversation_id: ConversationId
    status: RememberStatus
    reason: str | None
    items: list[Any]  # Served: the items this conversation wrote, with their trust
    refused: dict[str, int]
    discarded: int
    contact_id: ContactId | None = None  # whom it was remembered for (found or made by user_id …)
