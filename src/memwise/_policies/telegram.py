"""The Telegram window: server-held state in process memory (seed 000).

Thirty minutes after the last message the state is gone; the model receives the last
eight earlier messages plus the current one; a pending confirmation lives beside the
transcript, never in it; a message older than ten minutes on arrival is ignored.
A restart clears everything, because nothing here is persisted.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from memwise._clock import Clock, aware
from memwise._policies.limits import TelegramWindow
from memwise._policies.window import Message

LATE_NOTICE = (
    "I was offline when you sent that (over {minutes} minutes ago), so I did not act on it. "
    "Please send it again if it still applies."
)


@dataclass
class ChatState:
    earlier: deque[Message]
    last_at: datetime
    pending: dict[str, Any] | None = None
    conversation_id: str | None = None


@dataclass(frozen=True)
class Received:
    ignored: bool
    notice: str | None = None
    transcript: list[Message] = field(default_factory=list)
    expired_conversation: str | None = None  # the previous conversation, if it expired on idle
    pending: dict[str, Any] | None = None
    conversation_id: str | None = None  # the conversation this chat's state belongs to


class TelegramWindows:
    """Every chat's window, keyed by (workspace, chat). Thread-safe; nothing persisted."""

    def __init__(
        self,
        clock: Clock,
        policy: TelegramWindow,
        on_expire: Callable[[Hashable, str | None], None] | None = None,
    ) -> None:
        self.clock = clock
        self.policy = policy
        self.on_expire = on_expire
        self._chats: dict[Hashable, ChatState] = {}
        self._lock = threading.Lock()

    @property
    def idle(self) -> timedelta:
        return timedelta(minutes=self.policy.idle_minutes)

    def _live(self, key: Hashable, now: datetime) -> tuple[ChatState | None, str | None]:
        """The chat's state if still alive; otherwise drop it and say which conversation ended."""
        state = self._chats.get(key)
        if state is not None and now - state.last_at >= self.idle:
            del self._chats[key]
            if self.on_expire:
                self.on_expire(key, state.conversation_id)
            return None, state.conversation_id or ""
        return state, None

    def receive(
        self,
        key: Hashable,
        text: str,
        sent_at: datetime,
        *,
        role: str = "user",
        conversation_id: str | None = None,
    ) -> Received:
        """Take an incoming message: ignore it if late, else return the model's transcript."""
        now = self.clock.now()
        sent = aware(sent_at)
        if now - sent > timedelta(minutes=self.policy.late_message_minutes):
            minutes = int(self.policy.late_message_minutes)
            return Received(ignored=True, notice=LATE_NOTICE.format(minutes=minutes))
        with self._lock:
            state, expired = self._live(key, now)
            if state is None:
                state = ChatState(
                    deque(maxlen=self.policy.earlier_messages), now, None, conversation_id
                )
                self._chats[key] = state
            current = Message(role, text, sent)
            transcript = [*state.earlier, current]
            state.earlier.append(current)
            state.last_at = now
            if conversation_id:
                state.conversation_id = conversation_id
            return Received(
                False, None, transcript, expired or None, state.pending, state.conversation_id
            )

    def bind(self, key: Hashable, conversation_id: str) -> None:
        """Tie the chat's live state to the conversation that records it."""
        with self._lock:
            state = self._chats.get(key)
            if state is not None:
                state.conversation_id = conversation_id

    def add_reply(self, key: Hashable, text: str, role: str = "assistant") -> None:
        with self._lock:
            state = self._chats.get(key)
            if state is not None:
                state.earlier.append(Message(role, text, self.clock.now()))
                state.last_at = self.clock.now()

    def transcript(self, key: Hashable) -> list[Message]:
        with self._lock:
            state, _ = self._live(key, self.clock.now())
            return list(state.earlier) if state else []

    def set_pending(self, key: Hashable, pending: dict[str, Any] | None) -> None:
        with self._lock:
            state, _ = self._live(key, self.clock.now())
            if state is None:
                raise KeyError("no live conversation for this chat")
            state.pending = pending

    def pending(self, key: Hashable) -> dict[str, Any] | None:
        with self._lock:
            state, _ = self._live(key, self.clock.now())
            return state.pending if state else None

    def reset(self, key: Hashable) -> str | None:
        """/reset: clear the window and pending state now. Returns the conversation it held."""
        with self._lock:
            state = self._chats.pop(key, None)
        return state.conversation_id if state else None

    def sweep(self) -> list[Hashable]:
        """Expire every idle chat now (call periodically); returns the keys expired."""
        now = self.clock.now()
        with self._lock:
            keys = [k for k, s in self._chats.items() if now - s.last_at >= self.idle]
            for k in keys:
                self._live(k, now)
        return keys

    def __len__(self) -> int:
        return len(self._chats)
