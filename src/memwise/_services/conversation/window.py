"""Windows over the record: generic windows with compaction, reset, pending state, expiry."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import timedelta
from typing import Any

from memwise import errors
from memwise._domain.tenancy import Agent, ConversationStatus, RecordPolicy
from memwise._ids import ConversationId, WorkspaceId
from memwise._policies import window
from memwise._policies.compaction import ExtractiveSummariser, Summariser
from memwise._policies.limits import Limits
from memwise._policies.window import Message
from memwise._policies.window import WindowView as WindowView
from memwise._services.conversation.record import close
from memwise._services.platform.runtime import Runtime
from memwise._storage.stores import record as store
from memwise._storage.stores.tenancy import agent as require_agent

log = logging.getLogger("memwise.window")


class Windows:
    def __init__(self, rt: Runtime, summariser: Summariser | None = None) -> None:
        self.rt = rt
        self.summariser = summariser or ExtractiveSummariser()

    def limits_for(self, workspace_id: WorkspaceId, agent_id: str) -> Limits:
        with self.rt.db.read() as conn:
            agent = require_agent(conn, workspace_id, agent_id)
        return window.effective(self.rt.limits, agent.window_overrides)

    def view(
        self,
        workspace_id: WorkspaceId,
        conversation_id: ConversationId,
        client_messages: Iterable[Message] | None = None,
        *,
        known: tuple[Any, Agent] | None = None,
    ) -> WindowView:
        """The window for this turn.

        web: the client holds the thread; the last N non-empty messages it sent are kept.
        generic (email, sms, voice, phone, api): last N turns of the record verbatim plus a
        running summary of older turns, compacted as they scroll out and stored.
        telegram: held in process by the Telegram adapter; here as for web.
        """
        if known is None:
            with self.rt.db.read() as conn:
                conv = store.conversation_row(conn, workspace_id, conversation_id)
                agent = require_agent(conn, workspace_id, conv.agent_id)
        else:  # the conversation's row and agent, already read by the caller in this turn
            conv, agent = known
        limits = window.effective(self.rt.limits, agent.window_overrides)
        kind = window.kind_of(conv.channel)
        if kind in ("web", "telegram"):  # the client holds the thread; elsewhere the record
            keep = window.client_window_size(limits, kind)
            return WindowView(kind, None, window.client_window(client_messages or [], keep))
        if RecordPolicy(agent.record_policy) is RecordPolicy.audit_only:
            return WindowView(kind, None, [])  # nothing of the text was stored
        return self._generic(workspace_id, conversation_id, limits)

    def _generic(
        self, workspace_id: WorkspaceId, conversation_id: ConversationId, limits: Limits
    ) -> WindowView:
        """Read in a read transaction; summarise (perhaps with a model) outside any
        transaction; write only when turns scrolled out, and only if nobody else did first."""
        n = limits.generic.verbatim_turns
        with self.rt.db.read() as conn:
            conv = store.conversation_row(conn, workspace_id, conversation_id)
            start = conv.window_from_seq or 0
            recent = store.last_turns(conn, conversation_id, start, n)
            done = max(conv.summary_upto_seq or 0, start)
            scrolled = (
                store.turns_between(conn, conversation_id, done, recent[0].seq) if recent else []
            )
        summary = conv.summary
        if scrolled:
            summary = (
                self.summariser.summarise(
                    summary, _messages(scrolled), limits.generic.summary_chars
                )
                or None
            )
            with self.rt.db.write() as conn:
                store.save_summary(
                    conn, conversation_id, conv.summary_upto_seq, summary, scrolled[-1].seq
                )
        return WindowView("generic", summary, _messages(recent))

    def reset(self, workspace_id: WorkspaceId, conversation_id: ConversationId) -> None:
        """Clear the window and pending state. Touches no long-term memory and no record."""
        with self.rt.db.write() as conn:
            store.conversation_row(conn, workspace_id, conversation_id)
            store.reset_window(conn, conversation_id)

    def set_pending(
        self,
        workspace_id: WorkspaceId,
        conversation_id: ConversationId,
        pending: dict[str, Any] | None,
    ) -> None:
        """Hold one pending confirmation beside the window (never in the transcript)."""
        with self.rt.db.write() as conn:
            conv = store.conversation_row(conn, workspace_id, conversation_id)
            if conv.status != ConversationStatus.open.value:
                raise errors.Conflict("the conversation is closed", code="conversation_closed")
            store.set_pending(conn, conversation_id, pending)

    def pending(
        self, workspace_id: WorkspaceId, conversation_id: ConversationId
    ) -> dict[str, Any] | None:
        with self.rt.db.read() as conn:
            conv = store.conversation_row(conn, workspace_id, conversation_id)
        value: dict[str, Any] | None = conv.pending
        return value

    def expire_idle(self, workspace_id: WorkspaceId | None = None) -> list[str]:
        """Mark expired every open conversation idle past its channel's limit; returns ids.

        ``workspace_id`` limits the sweep to one workspace."""
        now = self.rt.clock.now()
        expired: list[str] = []
        with self.rt.db.write() as conn:
            # Per-agent overrides may be shorter than any default: look at every open one.
            candidates = store.open_with_overrides(conn, workspace_id)
            for row in candidates:
                try:
                    limits = window.effective(self.rt.limits, row.window_overrides)
                    idle = float(getattr(limits, window.kind_of(row.channel)).idle_minutes)
                    due = now - row.last_activity_at >= timedelta(minutes=idle)
                except (ArithmeticError, TypeError, ValueError) as exc:
                    # One workspace's bad data never stops the sweep for everyone else.
                    log.warning(
                        "idle sweep skipped conversation %s of workspace %s: %s",
                        row.id,
                        row.workspace_id,
                        type(exc).__name__,
                    )
                    continue
                if due and close(
                    conn,
                    self.rt.bus,
                    row.workspace_id,
                    row.id,
                    ConversationStatus.expired,
                    now,
                ):
                    expired.append(row.id)
        return expired


def _messages(found: Sequence[Any]) -> list[Message]:
    return [Message(r.role, r.text or "", r.at) for r in found]
