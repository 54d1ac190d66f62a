"""Events inside a unit of work: a part says what happened, the parts that care react.

The message bus of cosmicpython ("Architecture Patterns with Python", chapters 8–9), cut
to what memwise needs: events are plain frozen data, handlers run synchronously on the
caller's connection (so what they write lands in the same transaction as the event, or
not at all), and the composition root (``Memwise``) subscribes them. A part that raises an
event imports neither the handlers nor their packages: a conversation that closes does not
know that memory extracts it or that record recall embeds it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy.engine import Connection

from memwise._domain.tenancy import ConversationStatus
from memwise._ids import ContactId, ConversationId, WorkspaceId


@dataclass(frozen=True)
class ConversationClosed:
    """An open conversation ended (``ended``) or timed out (``expired``)."""

    workspace_id: WorkspaceId
    conversation_id: ConversationId
    contact_id: ContactId | None  # None: nobody's record (a visitor never identified)
    status: ConversationStatus
    at: datetime


E = TypeVar("E")


class Bus:
    """Handlers by event type, called in the order they were subscribed."""

    def __init__(self) -> None:
        self._handlers: dict[type[Any], list[Callable[[Connection, Any], None]]] = {}

    def subscribe(self, kind: type[E], handler: Callable[[Connection, E], None]) -> None:
        self._handlers.setdefault(kind, []).append(handler)

    def publish(self, conn: Connection, event: object) -> None:
        """Run every handler of the event's type on ``conn``; an error rolls the unit back."""
        for handler in self._handlers.get(type(event), ()):
            handler(conn, event)
