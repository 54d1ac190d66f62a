"""Inbound webhooks: email, SMS and voice/phone transcripts from any provider.

Each request carries provider-neutral JSON (from, to, text or transcript, thread id, time) and
an HMAC-SHA256 signature of its raw body with the workspace's shared secret; a bad signature
records nothing. Replies are threaded into the open conversation of the same channel and
thread; every turn is recorded with its channel. A sender is matched to a contact by the
channel's identity (email or phone); when none or several match, a new contact is created
rather than guessing who it is.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets as pysecrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from memwise import errors
from memwise.services.record import NewTurn
from memwise.services.runtime import Runtime
from memwise.storage.schema import agents, conversations, webhook_secrets

CHANNELS = {"email": "email", "sms": "phone", "voice": "phone", "phone": "phone"}
ROLES = {
    "customer": "customer",
    "caller": "customer",
    "agent": "operator",
    "operator": "operator",
    "assistant": "assistant",
}


@dataclass(frozen=True)
class Received:
    conversation_id: str
    contact_id: str
    turn_ids: list[str]
    threaded: bool


def sign(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class Inbound:
    def __init__(self, rt: Runtime, mw: Any) -> None:
        self.rt = rt
        self.mw = mw

    def rotate_secret(self, workspace_id: str) -> str:
        """A new shared secret (shown once); the old one stops working at once."""
        secret = "whk_" + pysecrets.token_urlsafe(32)
        with self.rt.db.write() as conn:
            conn.execute(
                webhook_secrets.delete().where(webhook_secrets.c.workspace_id == workspace_id)
            )
            conn.execute(
                webhook_secrets.insert().values(
                    workspace_id=workspace_id, secret=secret, created_at=self.rt.clock.now()
                )
            )
        return secret

    def verify(self, workspace_id: str, body: bytes, signature: str | None) -> None:
        with self.rt.db.read() as conn:
            secret = conn.execute(
                sa.select(webhook_secrets.c.secret).where(
                    webhook_secrets.c.workspace_id == workspace_id
                )
            ).scalar()
        if not secret or not signature or not hmac.compare_digest(sign(secret, body), signature):
            raise errors.Unauthorized(
                "the webhook signature is missing or wrong", code="bad_signature"
            )

    def receive(self, workspace_id: str, channel: str, payload: dict[str, Any]) -> Received:
        if channel not in CHANNELS:
            raise errors.Invalid(
                "channel must be email, sms, voice or phone", code="invalid_channel"
            )
        sender = str(payload.get("from") or "").strip()
        if not sender:
            raise errors.Invalid("the message needs a sender ('from')", code="invalid_sender")
        lines = _lines(payload)
        at = payload.get("at")
        try:
            when = datetime.fromisoformat(at) if isinstance(at, str) and at else None
        except ValueError as exc:
            raise errors.Invalid("'at' is not an ISO 8601 time", code="invalid_time") from exc
        if when is not None and when.tzinfo is None:
            raise errors.Invalid("'at' needs a timezone offset", code="invalid_time")
        thread = str(payload.get("thread_id") or "").strip()[:300] or None
        agent_id = payload.get("agent_id") or self._default_agent(workspace_id)
        conv = self._open_thread(workspace_id, channel, thread)
        threaded = conv is not None
        if conv is None:
            contact_id = self._sender(workspace_id, channel, sender)
            conv, _ = self.mw.record.start(
                workspace_id, agent_id, channel, contact_id=contact_id, thread=thread, at=when
            )
        turns = self.mw.record.append_many(
            workspace_id, conv.id, [NewTurn(role, text, when) for role, text in lines]
        )
        return Received(conv.id, conv.contact_id, [t.id for t in turns], threaded)

    def _default_agent(self, workspace_id: str) -> str:
        with self.rt.db.read() as conn:
            agent = conn.execute(
                sa.select(agents.c.id)
                .where(agents.c.workspace_id == workspace_id)
                .order_by(agents.c.created_at)
            ).scalar()
        if agent is None:
            raise errors.Conflict("create an agent before receiving messages", code="no_agent")
        return str(agent)

    def _open_thread(self, workspace_id: str, channel: str, thread: str | None) -> Any:
        if thread is None:
            return None
        with self.rt.db.read() as conn:
            row = conn.execute(
                sa.select(conversations.c.id)
                .where(
                    conversations.c.workspace_id == workspace_id,
                    conversations.c.channel == channel,
                    conversations.c.thread == thread,
                    conversations.c.status == "open",
                )
                .order_by(conversations.c.started_at.desc())
            ).scalar()
        return self.mw.record.get(workspace_id, row) if row else None

    def _sender(self, workspace_id: str, channel: str, sender: str) -> str:
        kind = CHANNELS[channel]
        try:
            found = self.mw.tenancy.find_contacts(
                workspace_id, kind if kind == "email" else "phone", sender
            )
        except errors.Invalid:
            found = []
        if len(found) == 1:
            return str(found[0])
        identities = {"emails": [sender]} if kind == "email" else {"phones": [sender]}
        try:
            return str(self.mw.tenancy.create_contact(workspace_id, sender, **identities).id)
        except errors.Invalid:
            return str(self.mw.tenancy.create_contact(workspace_id, sender).id)


def _lines(payload: dict[str, Any]) -> list[tuple[str, str]]:
    text, transcript = payload.get("text"), payload.get("transcript")
    if isinstance(text, str) and text.strip():
        return [("customer", text)]
    if isinstance(transcript, str) and transcript.strip():
        return [("customer", transcript)]
    if isinstance(transcript, list) and transcript:
        out = []
        for seg in transcript:
            if not isinstance(seg, dict) or not str(seg.get("text") or "").strip():
                continue
            role = ROLES.get(str(seg.get("speaker") or "customer").lower())
            if role is None:
                raise errors.Invalid(
                    "a transcript speaker is customer, caller, agent, operator or assistant",
                    code="invalid_speaker",
                )
            out.append((role, str(seg["text"])))
        if out:
            return out
    raise errors.Invalid("the message needs 'text' or a 'transcript'", code="empty_message")
