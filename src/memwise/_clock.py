"""The one source of time. Nothing else in memwise calls ``datetime.now()``."""

from __future__ import annotations

import contextvars
import threading
from datetime import UTC, datetime, timedelta
from typing import Protocol

from memwise._ids import WorkspaceId


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...


class SystemClock:
    """Wall-clock time in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """A clock that only moves when told to: every limit becomes testable without sleeping."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = aware(start) if start else datetime(2026, 1, 1, tzinfo=UTC)
        self._lock = threading.Lock()

    def now(self) -> datetime:
        with self._lock:
            return self._now

    def set(self, when: datetime) -> None:
        with self._lock:
            self._now = aware(when)

    def advance(self, **delta: float) -> datetime:
        with self._lock:
            self._now = self._now + timedelta(**delta)
            return self._now


def aware(value: datetime) -> datetime:
    """Return ``value`` as an aware UTC datetime; a naive value is taken to be UTC."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


class WorkspaceClocks:
    """A clock per workspace for servers started with ``--test-clock``.

    A workspace whose clock was set sees that instant (frozen until set again); the others
    see the base clock. The workspace in force is a context variable set per request or job.
    """

    def __init__(self, base: Clock | None = None) -> None:
        self.base = base or SystemClock()
        self._set: dict[str, datetime] = {}
        self._lock = threading.Lock()

    def now(self) -> datetime:
        ws = current_workspace.get()
        with self._lock:
            fixed = self._set.get(ws) if ws else None
        return fixed or self.base.now()

    def set(self, workspace_id: WorkspaceId, when: datetime) -> None:
        with self._lock:
            self._set[workspace_id] = aware(when)


current_workspace: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "memwise_workspace", default=None
)
