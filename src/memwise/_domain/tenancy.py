"""Workspaces, agents, users, contacts, conversations."""

from __future__ import annotations

import functools
import zoneinfo
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from memwise import errors
from memwise._domain.record import check_text
from memwise._ids import AgentId, ContactId, ConversationId, UserId, WorkspaceId


class Plan(StrEnum):
    free = "free"
    startup = "startup"
    business = "business"
    enterprise = "enterprise"

    @property
    def includes_memory(self) -> bool:
        return self is not Plan.free


class Role(StrEnum):
    owner = "owner"
    admin = "admin"
    operator = "operator"
    member = "member"


class RecordPolicy(StrEnum):
    archive = "archive"
    audit_only = "audit_only"


class Channel(StrEnum):
    web = "web"
    telegram = "telegram"
    email = "email"
    sms = "sms"
    voice = "voice"
    phone = "phone"
    api = "api"


class ConversationStatus(StrEnum):
    open = "open"
    ended = "ended"
    expired = "expired"


DEFAULT_ALLOWANCE = {
    Plan.free: 0,
    Plan.startup: 1_000,
    Plan.business: 10_000,
    Plan.enterprise: 100_000,
}


def check_timezone(name: str) -> str:
    """An IANA zone name the tz database lists ("localtime", "posixrules" or "posix/…" are
    files of one host's zoneinfo: a worker on another host could not read them)."""
    try:
        if name not in _zones():
            raise ValueError(name)
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError, OSError) as exc:
        raise errors.Invalid(
            f"unknown timezone {name!r}: use an IANA name such as 'Europe/Berlin'",
            code="invalid_timezone",
        ) from exc
    return name


@functools.cache
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones()) - {"localtime", "posixrules"}


def check_name(value: str, what: str, max_len: int = 200) -> str:
    cleaned = check_text(" ".join(value.split()), what)
    if not cleaned:
        raise errors.Invalid(f"{what} must not be empty", code="invalid_name")
    if len(cleaned) > max_len:
        raise errors.Invalid(f"{what} is longer than {max_len} characters", code="too_long")
    return cleaned


@dataclass(frozen=True)
class Workspace:
    id: WorkspaceId
    name: str
    timezone: str
    plan: Plan
    monthly_allowance: int
    created_at: datetime

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


@dataclass(frozen=True)
class Agent:
    id: AgentId
    workspace_id: WorkspaceId
    name: str
    memory_enabled: bool
    domain: str | None
    business_intelligence: bool
    record_policy: RecordPolicy
    created_at: datetime
    window_overrides: dict[str, Any] | None = None
    doors: list[str] | None = None  # the customer doors switched on; None: every door open

    def door_open(self, channel: str) -> bool:
        """Whether customers may reach this agent through ``channel`` (``api`` always)."""
        return channel == "api" or self.doors is None or channel in self.doors

    def require_door(self, channel: str) -> None:
        """Conflict when customers may not reach this agent through ``channel`` now."""
        if not self.door_open(channel):
            raise errors.Conflict(
                f"the {channel} door of {self.name} is switched off; an admin switches it on "
                "from the agent's page",
                code="door_off",
            )


RuleStatus = Literal["draft", "served", "superseded", "rejected"]


@dataclass(frozen=True)
class RuleVersion:
    """One version of written rules: an agent's persona and rules (``scope`` is the agent's
    id) or the workspace's team standards (``scope`` is ``"workspace"``)."""

    id: str
    workspace_id: WorkspaceId
    scope: str
    version: int
    status: RuleStatus
    persona: dict[str, str] | None
    rules: list[str]
    note: str | None
    diff: str
    proposed_by: str
    proposed_at: datetime
    decided_by: str | None
    decided_at: datetime | None

    @property
    def agent_id(self) -> str | None:
        return None if self.scope == "workspace" else self.scope


@dataclass(frozen=True)
class ApiKey:
    """A workspace key (never its secret: only its hash is stored)."""

    id: str
    workspace_id: WorkspaceId
    role: Role
    label: str | None
    created_at: datetime
    revoked_at: datetime | None
    user_id: str | None = None  # the staff user the key acts for (their notebook is theirs)


@dataclass(frozen=True)
class User:
    id: UserId
    workspace_id: WorkspaceId
    name: str
    role: Role
    telegram_id: str | None
    created_at: datetime


@dataclass(frozen=True)
class Contact:
    id: ContactId
    workspace_id: WorkspaceId
    name: str
    emails: list[str] = field(default_factory=list)
    phones: list[str] = field(default_factory=list)
    addresses: list[str] = field(default_factory=list)
    account_refs: list[str] = field(default_factory=list)
    telegram_ids: list[str] = field(default_factory=list)
    external_ids: list[str] = field(default_factory=list)  # unique in the workspace
    created_at: datetime | None = None


@dataclass(frozen=True)
class Conversation:
    id: ConversationId
    workspace_id: WorkspaceId
    agent_id: AgentId
    channel: Channel
    contact_id: ContactId | None
    user_id: UserId | None
    account_ref: str | None
    excluded_from_memory: bool
    status: ConversationStatus
    thread: str | None
    started_at: datetime
    last_activity_at: datetime
    ended_at: datetime | None
    summary: str | None = None

    @property
    def staff_facing(self) -> bool:
        return self.user_id is not None
