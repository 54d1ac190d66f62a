"""Inbound webhooks: email, SMS and voice/phone transcripts from any provider.

Each request carries provider-neutral JSON (from, to, text or transcript, thread id, time,
message id) and two headers: ``X-Memwise-Timestamp`` (Unix seconds) and
``X-Memwise-Signature: sha256=<hex>``, the HMAC-SHA256 with the workspace's shared secret of
``"{timestamp}.{channel}." + raw body``. A bad signature, a timestamp outside the window
(5 minutes) or a delivery already received (the provider's ``message_id``, else the
signature, remembered for 24 hours) records nothing.

Each message should carry its provider's verdict on the sender (``authentication``: for
email ``{"spf", "dkim", "dmarc"}`` as the provider checked them, a pass being DMARC, or SPF
and DKIM; for SMS and voice ``{"verified": true}`` when the provider verified the number).
Without a pass, the words are recorded as the ``sender``'s, never the customer's: a forged
From can reach the record but never becomes memory about the contact it names.

A reply joins the open conversation of the same channel and thread only when its sender is
that conversation's contact; anyone else who knows the thread id starts a conversation of
their own. A sender is matched to a contact by the channel's identity (email or phone); when
none or several match, a new contact is created rather than guessing who it is. A message is
one unit of work: contact, conversation and turns are all written, or nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets as pysecrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import parseaddr
from typing import Any

from memwise import errors
from memwise._ids import ContactId, ConversationId, WorkspaceId
from memwise._services.conversation.record import NewTurn, Record
from memwise._services.platform.runtime import Runtime
from memwise._services.platform.tenancy import Tenancy
from memwise._storage.stores import record as record_store
from memwise._storage.stores import webhooks as store

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
    conversation_id: ConversationId
    contact_id: ContactId
    turn_ids: list[str]
    threaded: bool


def sign(secret: str, body: bytes, timestamp: int | str, channel: str) -> str:
    """The signature a sender puts in ``X-Memwise-Signature``."""
    signed = f"{timestamp}.{channel}.".encode() + body
    return "sha256=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


class Duplicate(errors.Conflict):
    """This delivery was already received."""

    code = "duplicate_delivery"


class Inbound:
    def __init__(self, rt: Runtime, record: Record, tenancy: Tenancy) -> None:
        self.rt = rt
        self.record = record
        self.tenancy = tenancy

    def rotate_secret(self, workspace_id: WorkspaceId) -> str:
        """A new shared secret (shown once); the old one stops working at once."""
        secret = "whk_" + pysecrets.token_urlsafe(32)
        with self.rt.db.write() as conn:
            store.replace_secret(conn, workspace_id, secret, self.rt.clock.now())
        return secret

    def verify(
        self,
        workspace_id: WorkspaceId,
        channel: str,
        body: bytes,
        signature: str | None,
        timestamp: str | None,
    ) -> None:
        """The signature covers timestamp, channel and body; the timestamp must be fresh."""
        with self.rt.db.read() as conn:
            secret = store.secret(conn, workspace_id)
        bad = errors.Unauthorized("the webhook signature is missing or wrong", code="bad_signature")
        ts = (timestamp or "").strip()
        if not secret or not signature or not ts.isdigit() or len(ts) > 12:
            raise bad
        if not hmac.compare_digest(sign(secret, body, ts, channel).encode(), signature.encode()):
            raise bad
        window = self.rt.limits.clients.webhook_window_s
        if abs(self.rt.clock.now().timestamp() - int(ts)) > window:
            raise errors.Unauthorized(
                f"the webhook timestamp is more than {window:g} s from the server's clock",
                code="stale_signature",
            )

    def _once(self, workspace_id: WorkspaceId, key: str) -> None:
        """Remember this delivery (inside the receiving unit of work); refuse a replay."""
        now = self.rt.clock.now()
        keep = timedelta(hours=self.rt.limits.clients.webhook_dedupe_hours)
        with self.rt.db.write() as conn:
            if not store.first_delivery(conn, workspace_id, key, now, now - keep):
                raise Duplicate("this message was already received", key=key)

    def receive(
        self,
        workspace_id: WorkspaceId,
        channel: str,
        payload: dict[str, Any],
        *,
        delivery: str | None = None,
    ) -> Received:
        """Record one inbound message. ``delivery`` (the signature, by the webhook route)
        de-duplicates when the payload has no ``message_id``."""
        if channel not in CHANNELS:
            raise errors.Invalid(
                "channel must be email, sms, voice or phone", code="invalid_channel"
            )
        for name in ("from", "to", "thread_id", "message_id", "agent_id", "at"):
            value = payload.get(name)
            if value is not None and (not isinstance(value, str | int) or isinstance(value, bool)):
                raise errors.Invalid(f"'{name}' must be a string", code="invalid_field")
            if value is not None and len(str(value)) > 500:
                raise errors.Invalid(f"'{name}' is longer than 500 characters", code="too_long")
        if payload.get("agent_id") is not None and not isinstance(payload["agent_id"], str):
            raise errors.Invalid("'agent_id' must be a string", code="invalid_field")
        sender = str(payload.get("from") or "").strip()
        if CHANNELS.get(channel) == "email" and "<" in sender:
            sender = parseaddr(sender)[1] or sender  # "Anna Weber <anna@example.com>"
        if not sender:
            raise errors.Invalid("the message needs a sender ('from')", code="invalid_sender")
        lines = _lines(payload)
        if not authenticated(channel, payload):  # recorded, never evidence for memory
            lines = [("sender" if role == "customer" else role, text) for role, text in lines]
        at = payload.get("at")
        try:
            when = datetime.fromisoformat(at) if isinstance(at, str) and at else None
        except (ValueError, OverflowError) as exc:
            raise errors.Invalid("'at' is not an ISO 8601 time", code="invalid_time") from exc
        if when is not None and when.tzinfo is None:
            raise errors.Invalid("'at' needs a timezone offset", code="invalid_time")
        thread = str(payload.get("thread_id") or "").strip()[:300] or None
        message_id = str(payload.get("message_id") or "").strip()
        key = f"id:{message_id}"[:200] if message_id else (delivery or "")[:200]
        with self.rt.db.write():  # one unit of work: contact, conversation and turns, or nothing
            agent_id = payload.get("agent_id") or self.tenancy.default_agent(workspace_id)
            self.tenancy.require_door(workspace_id, agent_id, channel)
            if key:
                self._once(workspace_id, key)
            senders = self._senders(workspace_id, channel, sender)
            conv = self._open_thread(workspace_id, channel, thread, senders)
            if conv is not None and conv.agent_id != agent_id:  # the thread's assistant decides
                self.tenancy.require_door(workspace_id, conv.agent_id, channel)
            threaded = conv is not None
            if conv is None:
                contact_id = (
                    senders[0]
                    if len(senders) == 1
                    else self._new_contact(workspace_id, channel, sender)
                )
                conv, _ = self.record.start(
                    workspace_id, agent_id, channel, contact_id=contact_id, thread=thread, at=when
                )
            turns = self.record.append_many(
                workspace_id, conv.id, [NewTurn(role, text, when) for role, text in lines]
            )
        return Received(conv.id, conv.contact_id, [t.id for t in turns], threaded)

    def _open_thread(
        self,
        workspace_id: WorkspaceId,
        channel: str,
        thread: str | None,
        senders: list[ContactId],
    ) -> Any:
        """The open conversation of this thread, only if the sender is its contact: knowing
        a thread id never lets a stranger write into someone else's conversation."""
        if thread is None or not senders:
            return None
        with self.rt.db.read() as conn:
            row = record_store.open_thread(conn, workspace_id, channel, thread, senders)
        return self.record.get(workspace_id, row) if row else None

    def _senders(self, workspace_id: WorkspaceId, channel: str, sender: str) -> list[ContactId]:
        """The contacts the sender may be (``Tenancy.resolve_contact``'s rule)."""
        return self.tenancy.resolve_contact(workspace_id, CHANNELS[channel], sender).matches

    def _new_contact(self, workspace_id: WorkspaceId, channel: str, sender: str) -> ContactId:
        """None or several matched: a contact of its own, rather than guessing who it is."""
        made = self.tenancy.resolve_contact(workspace_id, CHANNELS[channel], sender, create=True)
        assert made.contact_id is not None
        return made.contact_id


# a reply's quoted history: "> …" lines, and everything from "On … wrote:" or an
# "Original Message" header on. Indentation is spaces and tabs only: a "\s*" there would
# run over every following blank line from each line start (quadratic in blank lines).
_QUOTED_LINE = re.compile(r"^[ \t]*>.*$", re.M)
_HISTORY = re.compile(
    r"^[ \t]*(?:On\b.{0,200}\bwrote:|-{2,}[ \t]*Original Message[ \t]*-{2,}"
    r"|From:[ \t].+\n[ \t]*(?:Sent|Date):)",
    re.M | re.I,
)
# who speaks in a transcript given as one string: "Agent: … Caller: …"
_SPEAKER = re.compile(
    r"(?:^|(?<=[\s.!?]))(customer|caller|client|agent|operator|assistant|bot|rep|representative|"
    r"advisor|adviser|support|staff)\s*:\s*",
    re.I,
)
_SPOKEN = {"client": "customer", "bot": "assistant"}


def authenticated(channel: str, payload: dict[str, Any]) -> bool:
    """Whether the provider vouched for the sender: DMARC passed, or SPF and DKIM both did
    (email); the number was verified (SMS, voice). Absent or malformed: not vouched."""
    verdict = payload.get("authentication")
    if not isinstance(verdict, dict):
        return False
    if CHANNELS.get(channel) == "email":
        said = {k: str(verdict.get(k) or "").strip().lower() for k in ("spf", "dkim", "dmarc")}
        return said["dmarc"] == "pass" or (said["spf"] == "pass" and said["dkim"] == "pass")
    return verdict.get("verified") is True


def new_words(text: str) -> tuple[str, str]:
    """A message's new words and the history it quotes: what a reply repeats is not the
    customer's own, but it is kept in the record (as quoted material, never evidence)."""
    cut = _HISTORY.search(text)
    kept, history = (text[: cut.start()], text[cut.start() :]) if cut else (text, "")
    quoted = "\n".join(m.group().strip() for m in _QUOTED_LINE.finditer(kept))
    mine = _QUOTED_LINE.sub("", kept).strip()
    return mine, "\n".join(x for x in (quoted, history.strip()) if x)


def spoken(transcript: str) -> list[tuple[str, str]]:
    """A transcript given as one string, split by its speaker labels: only the caller's or
    the customer's lines are theirs. Without labels, it is the customer's."""
    marks = list(_SPEAKER.finditer(transcript))
    if not marks:
        return [("customer", transcript)]
    out = []
    head = transcript[: marks[0].start()].strip()
    if head:
        out.append(("operator", head))  # words before any label: not shown to be the caller's
    for m, nxt in zip(marks, [*marks[1:], None], strict=True):
        said = transcript[m.end() : nxt.start() if nxt else len(transcript)].strip()
        if said:
            label = m.group(1).lower()
            out.append((ROLES.get(_SPOKEN.get(label, label), "operator"), said))
    return out


def _lines(payload: dict[str, Any]) -> list[tuple[str, str]]:
    text, transcript = payload.get("text"), payload.get("transcript")
    if isinstance(text, str) and text.strip():
        mine, quoted = new_words(text)
        return [("customer", mine)] * bool(mine) + [("tool", quoted)] * bool(quoted)
    if isinstance(transcript, str) and transcript.strip():
        return spoken(transcript)
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
