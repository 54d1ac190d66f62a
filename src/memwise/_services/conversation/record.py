"""Conversations and the record of their turns."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy.engine import Connection

from memwise import errors
from memwise._domain.access import Principal
from memwise._domain.record import (
    Author,
    RecordHit,
    Turn,
    check_role_for_participant,
    client_time,
    turn_text,
)
from memwise._domain.record import NewTurn as NewTurn
from memwise._domain.tenancy import Channel, Conversation, ConversationStatus, RecordPolicy
from memwise._ids import ContactId, ConversationId, WorkspaceId, new_id, new_secret
from memwise._services.platform import events, identity, rows
from memwise._services.platform.bus import Bus, ConversationClosed
from memwise._services.platform.runtime import Runtime
from memwise._services.platform.tenancy import hash_secret
from memwise._storage import search
from memwise._storage.stores import record as store
from memwise._storage.stores import tenancy as tenancy_store

MAX_BATCH = 10_000


class Record:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    # -- conversations -------------------------------------------------------------------
    def start(
        self,
        workspace_id: WorkspaceId,
        agent_id: str,
        channel: str,
        *,
        contact_id: ContactId | None = None,
        user_id: str | None = None,
        account_ref: str | None = None,
        excluded_from_memory: bool = False,
        thread: str | None = None,
        at: datetime | None = None,
        live: bool = False,
    ) -> tuple[Conversation, str]:
        """Open a conversation with exactly one participant; returns it and its visitor token.
        ``live``: a customer arriving through a door, which must be switched on (imports,
        the console's try-outs and the builder's preview are not live)."""
        channel_ = rows.enum_value(Channel, channel, "channel")
        if (contact_id is None) == (user_id is None):
            raise errors.Invalid(
                "a conversation has exactly one participant: a contact_id or a user_id",
                code="one_participant",
            )
        now = self._time(at, None)
        token = new_secret("vt")
        with self.rt.db.write() as conn:
            agent = tenancy_store.agent(conn, workspace_id, agent_id)
            if live and contact_id is not None:
                agent.require_door(channel_.value)
            if contact_id is not None:
                rows.require(conn, "contact", workspace_id, contact_id)
                if account_ref is not None:
                    self._check_account(conn, workspace_id, contact_id, account_ref)
            else:
                rows.require(conn, "user", workspace_id, user_id or "")
            conv_id = ConversationId(new_id("cnv"))
            store.open_conversation(
                conn,
                id=conv_id,
                workspace_id=workspace_id,
                agent_id=agent_id,
                channel=channel_.value,
                contact_id=contact_id,
                user_id=user_id,
                account_ref=account_ref,
                excluded_from_memory=bool(excluded_from_memory),
                thread=thread,
                visitor_token_hash=hash_secret(token),
                started_at=now,
                last_activity_at=now,
            )
        return self.get(workspace_id, conv_id), token

    @staticmethod
    def _check_account(
        conn: Connection, workspace_id: WorkspaceId, contact_id: ContactId, ref: str
    ) -> None:
        norm = identity.normalize("account_ref", ref)
        if not store.holds_account(conn, workspace_id, contact_id, norm):
            raise errors.Invalid(
                "that account is not one of the contact's accounts", code="account_not_linked"
            )

    def _time(self, at: datetime | None, by: Principal | None) -> datetime:
        skew = self.rt.limits.clients.clock_skew_s
        trusted = by is None or not by.is_visitor
        return client_time(at, self.rt.clock.now(), skew, trusted=trusted)

    def get(self, workspace_id: WorkspaceId, conversation_id: ConversationId) -> Conversation:
        with self.rt.db.read() as conn:
            return store.conversation_from_row(
                rows.require(conn, "conversation", workspace_id, conversation_id)
            )

    def by_visitor_token(self, token: str) -> Conversation | None:
        """The open conversation a visitor token belongs to: the token dies with it."""
        with self.rt.db.read() as conn:
            return store.by_token_hash(conn, hash_secret(token))

    def conversations(
        self,
        workspace_id: WorkspaceId,
        *,
        contact_id: ContactId | None = None,
        before: str | None = None,
        limit: int = 50,
    ) -> list[Conversation]:
        with self.rt.db.read() as conn:
            return store.listing(
                conn,
                workspace_id,
                contact_id=contact_id,
                before=before,
                limit=max(1, min(limit, 500)),
            )

    # -- turns ---------------------------------------------------------------------------
    @staticmethod
    def _door(conn: Any, workspace_id: WorkspaceId, conv: Conversation) -> None:
        tenancy_store.agent(conn, workspace_id, conv.agent_id).require_door(conv.channel.value)

    def require_open_door(self, workspace_id: WorkspaceId, conversation_id: ConversationId) -> None:
        """Conflict when the door this conversation came through is switched off now."""
        with self.rt.db.read() as conn:
            row = rows.require(conn, "conversation", workspace_id, conversation_id)
            self._door(conn, workspace_id, store.conversation_from_row(row))

    def append(
        self,
        workspace_id: WorkspaceId,
        conversation_id: ConversationId,
        role: str,
        text: str,
        at: datetime | None = None,
        *,
        by: Principal | None = None,
    ) -> Turn:
        (turn,) = self.append_many(workspace_id, conversation_id, [NewTurn(role, text, at)], by=by)
        return turn

    def append_many(
        self,
        workspace_id: WorkspaceId,
        conversation_id: ConversationId,
        new: Sequence[NewTurn],
        *,
        by: Principal | None = None,
    ) -> list[Turn]:
        """Append turns in one transaction: all of them or none.

        ``by`` is who writes: a visitor writes customer turns of its own conversation only,
        and its times count only near the server clock."""
        if not new:
            return []
        if len(new) > MAX_BATCH:
            raise errors.LimitExceeded(
                f"at most {MAX_BATCH} turns per batch", code="batch_too_large"
            )
        now = self.rt.clock.now()
        with self.rt.db.write() as conn:
            conv = store.conversation_from_row(
                rows.require(conn, "conversation", workspace_id, conversation_id)
            )
            if by is not None and by.is_visitor and by.conversation_id != conversation_id:
                raise errors.NotFound("no such conversation", code="conversation_not_found")
            if conv.status is not ConversationStatus.open:
                raise errors.Conflict(
                    f"the conversation is {conv.status.value}; start a new one",
                    code="conversation_closed",
                )
            if by is not None and by.is_visitor:  # a door switched off takes nothing more
                self._door(conn, workspace_id, conv)
            keep_text = (
                store.record_policy(conn, workspace_id, conv.agent_id) is RecordPolicy.archive
            )
            batch = []
            for t in new:
                role = rows.enum_value(Author, t.role, "role")
                if by is not None and by.is_visitor and role is not Author.customer:
                    raise errors.Forbidden("a visitor writes only customer turns", code="forbidden")
                check_role_for_participant(role, conv.staff_facing)
                text, cleaned = turn_text(t.text)
                batch.append(
                    {
                        "id": new_id("trn"),
                        "workspace_id": workspace_id,
                        "conversation_id": conversation_id,
                        "role": role.value,
                        "channel": conv.channel.value,
                        "text": text if keep_text else None,
                        "at": self._time(t.at, by) if t.at else now,
                        "cleaned": cleaned or None,
                    }
                )
            seqs = store.append_turns(conn, self.rt.db.backend, conversation_id, batch)
            stored = [{**r, "seq": seq} for r, seq in zip(batch, seqs, strict=True)]
        return [store.turn_from_row(SimpleNamespace(**r)) for r in stored]

    def turns(
        self,
        workspace_id: WorkspaceId,
        conversation_id: ConversationId,
        *,
        after: int | None = None,
        limit: int = 500,
    ) -> list[Turn]:
        with self.rt.db.read() as conn:
            rows.require(conn, "conversation", workspace_id, conversation_id)
            return store.turns_page(
                conn, workspace_id, conversation_id, after, max(1, min(limit, 5000))
            )

    def end(self, workspace_id: WorkspaceId, conversation_id: ConversationId) -> Conversation:
        """End a conversation explicitly. Idempotent: ending an ended one changes nothing."""
        with self.rt.db.write() as conn:
            rows.require(conn, "conversation", workspace_id, conversation_id)
            close(
                conn,
                self.rt.bus,
                workspace_id,
                conversation_id,
                ConversationStatus.ended,
                self.rt.clock.now(),
            )
        return self.get(workspace_id, conversation_id)

    def search(
        self,
        workspace_id: WorkspaceId,
        query: str,
        *,
        limit: int = 20,
        conversation_id: ConversationId | None = None,
    ) -> list[RecordHit]:
        """Operator full-text search over the record, best first, with <mark> highlights."""
        if not isinstance(query, str) or not query.strip():
            raise errors.Invalid("a search needs some words", code="empty_query")
        if len(query) > 500:
            raise errors.Invalid("a search is limited to 500 characters", code="too_long")
        with self.rt.db.read() as conn:
            return search.search(
                self.rt.db.backend,
                conn,
                query,
                workspace_id,
                limit=max(1, min(limit, 200)),
                conversation_id=conversation_id,
            )


def close(
    conn: Connection,
    bus: Bus,
    workspace_id: WorkspaceId,
    conversation_id: ConversationId,
    status: ConversationStatus,
    at: datetime,
) -> bool:
    """Mark an open conversation ended or expired; False if it was already closed.

    The one place a conversation closes. It publishes ``ConversationClosed`` on the bus, in
    the same transaction: memory queues the extraction, record recall the embedding of the
    turns (the handlers the composition root subscribed).
    """
    done, contact = store.close(conn, workspace_id, conversation_id, status, at)
    if done:
        bus.publish(conn, ConversationClosed(workspace_id, conversation_id, contact, status, at))
        events.emit_in(
            conn,
            workspace_id,
            "conversation.ended",
            {"conversation_id": conversation_id, "contact_id": contact, "status": status},
            at,
        )
    return done
