"""Opaque, roughly time-ordered identifiers: a prefix, 12 hex digits of milliseconds, 16 random."""

from __future__ import annotations

import secrets
import time
from typing import NewType

# Typed ids: each is a ``str`` at run time; a type checker keeps one kind from standing in for
# another where a result names them (``Conversation.contact_id`` is a ContactId, not a
# WorkspaceId). Every service and store takes a WorkspaceId, a ContactId and a ConversationId
# where it names one: a door makes them from what it authenticated (``api.auth.ws``) or was
# sent (a path, a body: FastAPI reads them as strings), the command line from its options;
# stores give them back typed. Agent, user, turn and item ids are still plain ``str`` where a
# service takes them.
WorkspaceId = NewType("WorkspaceId", str)
AgentId = NewType("AgentId", str)
UserId = NewType("UserId", str)
ContactId = NewType("ContactId", str)
ConversationId = NewType("ConversationId", str)
TurnId = NewType("TurnId", str)
ItemId = NewType("ItemId", str)


def new_id(prefix: str) -> str:
    millis = time.time_ns() // 1_000_000
    return f"{prefix}_{millis:012x}{secrets.token_hex(8)}"


def new_secret(prefix: str) -> str:
    """A bearer secret: shown once, stored only as a hash."""
    return f"{prefix}_{secrets.token_urlsafe(32)}"
