"""The teaching step, unanswered items and tickets.

Answering a customer and creating a lesson are separate operations. An operator drafts a
lesson (optionally from an unanswered item); a person with the right role approves it; the
published lesson and its receipt (who, when, what text, from which item, content hash) are
committed in one transaction. Lessons can be revised (a new version, a new receipt) and
withdrawn (kept, no longer served). A raw conversation never becomes knowledge by itself.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime
from typing import Any, Protocol

import httpx
from sqlalchemy.engine import Connection

from memwise import errors
from memwise._accounts.policy import AccountPolicy
from memwise._domain.access import Principal, require_staff
from memwise._domain.knowledge import (
    QUESTION_CHARS,
    Lesson,
    LessonStatus,
    Receipt,
    Ticket,
    Unanswered,
    UnansweredStatus,
)
from memwise._domain.tenancy import Role
from memwise._ids import ContactId, ConversationId, WorkspaceId, new_id
from memwise._policies.notebook import normalize
from memwise._providers import http
from memwise._safety import pii, secrets
from memwise._services.knowledge.knowledge import Knowledge
from memwise._services.platform import audit, events, rows
from memwise._services.platform.runtime import Runtime
from memwise._storage.stores import knowledge as kstore
from memwise._storage.stores import lessons as lstore
from memwise._storage.stores import tickets as tstore
from memwise._text import lexical


def check_refs(
    conn: Connection,
    workspace_id: WorkspaceId,
    *,
    contact_id: ContactId | None = None,
    conversation_id: ConversationId | None = None,
    unanswered_id: str | None = None,
) -> None:
    """Every id taken from input names a row of the caller's workspace (else NotFound)."""
    if contact_id is not None:
        rows.require(conn, "contact", workspace_id, contact_id)
    if conversation_id is not None:
        rows.require(conn, "conversation", workspace_id, conversation_id)
    if unanswered_id is not None:
        rows.require(conn, "unanswered", workspace_id, unanswered_id)


def content_hash(question: str, answer: str) -> str:
    return hashlib.sha256(f"{question}\n\n{answer}".encode()).hexdigest()


def same_question(a: str, b: str) -> bool:
    """Two questions ask the same thing when the content words of one are (nearly) all in
    the other, and they share a fair part of their words overall. Redaction placeholders
    ("[email]") do not count as words."""
    x, y = (set(lexical.terms(re.sub(r"\[[a-z_]+\]", " ", t))) for t in (a, b))
    if not x or not y:
        return normalize(a) == normalize(b)
    shared = len(x & y)
    return shared / min(len(x), len(y)) >= 0.8 and shared / len(x | y) >= 0.4


def _text(value: str, what: str, limit: int) -> str:
    cleaned = str(value or "").strip()
    if not cleaned:
        raise errors.Invalid(f"a lesson needs a {what}", code=f"empty_{what}")
    if len(cleaned) > limit:
        raise errors.Invalid(f"a lesson's {what} is limited to {limit} characters", code="too_long")
    return cleaned


class Teaching:
    def __init__(self, rt: Runtime, knowledge: Knowledge) -> None:
        self.rt = rt
        self.knowledge = knowledge

    # -- lessons ---------------------------------------------------------------------------
    def draft(
        self,
        workspace_id: WorkspaceId,
        question: str,
        answer: str,
        *,
        unanswered_id: str | None = None,
        actor: str = "operator",
        revises: str | None = None,
    ) -> Lesson:
        q, a = _text(question, "question", QUESTION_CHARS), _text(answer, "answer", 20000)
        with self.rt.db.write() as conn:
            pii.check(conn, workspace_id, f"{q}\n{a}")
            key, version = new_id("lk"), 1
            if revises:
                prior = rows.require(conn, "lesson", workspace_id, revises)
                key = prior.lesson_key
                version = lstore.next_version(conn, key)
                unanswered_id = unanswered_id or prior.unanswered_id
            if unanswered_id:
                rows.require(conn, "unanswered", workspace_id, unanswered_id)
            return lstore.insert_lesson(
                conn,
                id=new_id("les"),
                workspace_id=workspace_id,
                lesson_key=key,
                version=version,
                question=q,
                answer=a,
                status="draft",
                unanswered_id=unanswered_id,
                created_by=actor[:200],
                created_at=self.rt.clock.now(),
            )

    def revise(
        self,
        workspace_id: WorkspaceId,
        lesson_id: str,
        *,
        question: str | None = None,
        answer: str | None = None,
        actor: str = "operator",
    ) -> Lesson:
        """A new draft version of a lesson; the published one stays until this is approved."""
        current = self.lesson(workspace_id, lesson_id)
        return self.draft(
            workspace_id,
            question or current.question,
            answer or current.answer,
            actor=actor,
            revises=lesson_id,
        )

    def approve(
        self,
        workspace_id: WorkspaceId,
        lesson_id: str,
        *,
        approved_by: str,
        by: Principal | None = None,
    ) -> Receipt:
        """Publish a draft: lesson, receipt, search chunk and closed item in one transaction."""
        require_staff(by, Role.admin)  # the rule holds for every door
        draft = self.lesson(workspace_id, lesson_id)
        text = f"Q: {draft.question}\nA: {draft.answer}"
        vectors = self.knowledge.embed_texts([text])  # before the transaction: it may be remote
        now = self.rt.clock.now()
        with self.rt.db.write() as conn:
            row = rows.require(conn, "lesson", workspace_id, lesson_id)
            if row.status != "draft":
                raise errors.Conflict(
                    f"only a draft can be approved (this one is {row.status})", code="not_a_draft"
                )
            pii.check(conn, workspace_id, f"{row.question}\n{row.answer}")
            digest = content_hash(row.question, row.answer)
            for old in lstore.published_versions(conn, row.lesson_key):
                lstore.set_lesson(conn, old, status="superseded")
                kstore.retire_chunks(conn, old)
            lstore.set_lesson(
                conn,
                lesson_id,
                status="published",
                approved_by=approved_by[:200],
                approved_at=now,
                content_hash=digest,
            )
            receipt = self._receipt(conn, workspace_id, row, approved_by, now, "published", digest)
            events.emit_in(
                conn,
                workspace_id,
                "lesson.published",
                {
                    "lesson_id": lesson_id,
                    "question": row.question,
                    "receipt_id": receipt.id,
                    "approved_by": approved_by[:200],
                },
                now,
            )
            if (row.question, row.answer) != (draft.question, draft.answer):
                raise errors.Conflict(
                    "the draft changed while it was being approved", code="draft_changed"
                )
            self.knowledge.insert_chunks(
                conn,
                workspace_id,
                "lesson",
                lesson_id,
                row.question,
                [text],
                None,
                f"v{row.version}",
                vectors,
            )
            if row.unanswered_id:
                lstore.close_item(conn, row.unanswered_id, lesson_id)
        return receipt

    def withdraw(
        self,
        workspace_id: WorkspaceId,
        lesson_id: str,
        *,
        by_name: str,
        by: Principal | None = None,
    ) -> Receipt:
        """Stop serving a published lesson; it is kept, with a receipt of the withdrawal."""
        require_staff(by, Role.admin)  # the rule holds for every door
        now = self.rt.clock.now()
        with self.rt.db.write() as conn:
            row = rows.require(conn, "lesson", workspace_id, lesson_id)
            if row.status != "published":
                raise errors.Conflict(
                    "only a published lesson can be withdrawn", code="not_published"
                )
            lstore.set_lesson(conn, lesson_id, status="withdrawn")
            kstore.retire_chunks(conn, lesson_id)
            return self._receipt(
                conn,
                workspace_id,
                row,
                by_name,
                now,
                "withdrawn",
                row.content_hash or content_hash(row.question, row.answer),
            )

    def _receipt(
        self,
        conn: Connection,
        ws: WorkspaceId,
        row: Any,
        by: str,
        at: datetime,
        action: str,
        digest: str,
    ) -> Receipt:
        receipt = Receipt(
            new_id("rcp"),
            row.id,
            by[:200],
            at,
            action,
            row.question,
            row.answer,
            row.unanswered_id,
            digest,
        )
        lstore.add_receipt(conn, ws, receipt)
        return receipt

    def lesson(self, workspace_id: WorkspaceId, lesson_id: str) -> Lesson:
        with self.rt.db.read() as conn:
            return lstore.lesson_from_row(rows.require(conn, "lesson", workspace_id, lesson_id))

    def lessons(
        self, workspace_id: WorkspaceId, status: LessonStatus | None = None
    ) -> list[Lesson]:
        with self.rt.db.read() as conn:
            return lstore.lessons_of(conn, workspace_id, status)

    def receipts(self, workspace_id: WorkspaceId, lesson_id: str | None = None) -> list[Receipt]:
        with self.rt.db.read() as conn:
            return lstore.receipts_of(conn, workspace_id, lesson_id)

    # -- unanswered items ------------------------------------------------------------------
    def record_unanswered(
        self,
        workspace_id: WorkspaceId,
        question: str,
        *,
        conversation_id: ConversationId | None = None,
        contact_id: ContactId | None = None,
    ) -> tuple[Unanswered, bool]:
        """A question knowledge could not answer: counted onto an open item asking the same,
        or a new item. Returns (item, created)."""
        # a secret in the question is masked before anything keeps it (the item, its ticket,
        # the events sent out, the console's teach queue)
        text = secrets.redact(_text(question, "question", QUESTION_CHARS))
        now = self.rt.clock.now()
        with self.rt.db.write() as conn:
            check_refs(conn, workspace_id, contact_id=contact_id, conversation_id=conversation_id)
            for r in lstore.open_items(conn, workspace_id):
                if same_question(r.question, text):
                    lstore.asked_again(conn, r, now)
                    return lstore.item(conn, r.id), False
            item_id = new_id("una")
            lstore.insert_item(
                conn,
                id=item_id,
                workspace_id=workspace_id,
                question=text,
                normalized=normalize(text),
                count=1,
                status="open",
                conversation_id=conversation_id,
                contact_id=contact_id,
                first_asked_at=now,
                last_asked_at=now,
            )
            events.emit_in(
                conn,
                workspace_id,
                "unanswered.created",
                {"unanswered_id": item_id, "question": text, "contact_id": contact_id},
                now,
            )
            return lstore.item(conn, item_id), True

    def unanswered(
        self, workspace_id: WorkspaceId, status: UnansweredStatus | None = UnansweredStatus.open
    ) -> list[Unanswered]:
        with self.rt.db.read() as conn:
            return lstore.items_of(conn, workspace_id, status)


class TicketAdapter(Protocol):
    name: str

    def submit(self, ticket: Ticket) -> tuple[str, str | None, str | None]:
        """(status, external reference, error): accepted only once the system confirms it."""
        ...


class LocalTickets:
    """Tickets kept in memwise's own table: the table is the system, so accepted at once."""

    name = "local"

    def submit(self, ticket: Ticket) -> tuple[str, str | None, str | None]:
        return "accepted", ticket.id, None


class WebhookTickets:
    """Posts the ticket as JSON to a URL; accepted only on a 2xx answer. The whole exchange
    has a deadline and the answer a size cap (``providers.http``)."""

    name = "webhook"

    def __init__(
        self,
        url: str,
        headers: dict[str, str] | None = None,
        timeout: float = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.url = url
        self.headers = headers or {}
        self.deadline_s = timeout
        self.transport = transport

    def submit(self, ticket: Ticket) -> tuple[str, str | None, str | None]:
        return self.post(ticket, self.url, {}, {})

    def post(
        self, ticket: Ticket, target: str, headers: dict[str, str], extensions: dict[str, str]
    ) -> tuple[str, str | None, str | None]:
        payload = {
            "id": ticket.id,
            "subject": ticket.subject,
            "body": ticket.body,
            "contact_id": ticket.contact_id,
            "conversation_id": ticket.conversation_id,
        }
        try:
            r = http.request(
                "POST",
                target,
                content=json.dumps(payload).encode(),
                headers={"content-type": "application/json", **self.headers, **headers},
                extensions=extensions,
                deadline_s=self.deadline_s,
                max_bytes=TICKET_ANSWER_BYTES,
                transport=self.transport,
            )
        except httpx.HTTPError as exc:
            return "failed", None, f"{type(exc).__name__}"
        except errors.Unavailable as exc:  # too slow or too large
            return "failed", None, exc.message
        if 200 <= r.status < 300:
            return "accepted", _reference(r.body) or ticket.id, None
        return "failed", None, f"the ticket system answered {r.status}"


TICKET_ANSWER_BYTES = 64_000  # a helpdesk's answer: its status and the ticket's id


def _reference(body: bytes) -> str | None:
    """The helpdesk's id for the ticket, when its answer is a JSON object that gives one
    (a list, a number or no JSON at all gives none)."""
    try:
        answer = json.loads(body)
    except ValueError:
        return None
    ref = answer.get("id") if isinstance(answer, dict) else None
    return str(ref)[:200] if isinstance(ref, str | int) and not isinstance(ref, bool) else None


class HostPolicy(Protocol):
    """What holds the server's policy for outbound hosts (the accounts service does): read
    at each submit, so a changed policy applies at once."""

    @property
    def policy(self) -> AccountPolicy: ...


class _GuardedWebhook(WebhookTickets):
    """A workspace's helpdesk URL: never an internal address unless the server names that
    host for tickets (and this workspace), and the checked address is the one connected."""

    def __init__(
        self,
        url: str,
        headers: dict[str, str],
        policy: HostPolicy | None,
        workspace_id: WorkspaceId,
    ) -> None:
        super().__init__(url, headers)
        self.policy = policy
        self.workspace_id = workspace_id

    def submit(self, ticket: Ticket) -> tuple[str, str | None, str | None]:
        from memwise._accounts.policy import PolicyRefused, pinned

        policy = self.policy.policy if self.policy is not None else None
        try:
            address = (
                policy.check_host(self.url, purpose="tickets", workspace_id=self.workspace_id)
                if policy is not None
                else None
            )
        except (PolicyRefused, errors.Unavailable):
            return "failed", None, "the helpdesk's host is not reachable from this server"
        return self.post(ticket, *pinned(self.url, address))


class Tickets:
    def __init__(
        self, rt: Runtime, adapter: TicketAdapter | None = None, policy: HostPolicy | None = None
    ) -> None:
        """``adapter``: the server's default (memwise itself); a workspace may configure its
        helpdesk's webhook (``configure``). ``policy``: what decides which hosts a
        workspace's URL may reach (the accounts service's policy)."""
        self.rt = rt
        self.adapter: TicketAdapter = adapter or LocalTickets()
        self.policy = policy

    def configure(
        self,
        workspace_id: WorkspaceId,
        url: str,
        headers: dict[str, str] | None = None,
        *,
        by: Principal | None = None,
    ) -> dict[str, Any]:
        """Send this workspace's tickets to its helpdesk: POST url with the ticket as JSON
        (accepted on a 2xx). Header values are write-only (shown as •••). Admin+."""
        require_staff(by, Role.admin)  # the rule holds for every door
        from memwise._accounts.policy import check_headers
        from memwise._services.platform.events import check_url

        clean = check_url(url)
        check_headers(dict(headers or {}))
        with self.rt.db.write() as conn:
            tstore.set_adapter(conn, workspace_id, clean, dict(headers or {}), self.rt.clock.now())
        return {"type": "webhook", "url": clean, "headers": {k: "•••" for k in headers or {}}}

    def configured(self, workspace_id: WorkspaceId) -> dict[str, Any]:
        with self.rt.db.read() as conn:
            row = tstore.adapter(conn, workspace_id)
        if row is None:
            return {"type": self.adapter.name}
        return {"type": "webhook", "url": row.url, "headers": {k: "•••" for k in row.headers}}

    def unconfigure(self, workspace_id: WorkspaceId, *, by: Principal | None = None) -> None:
        require_staff(by, Role.admin)  # the rule holds for every door
        with self.rt.db.write() as conn:
            tstore.drop_adapter(conn, workspace_id)

    def _adapter(self, workspace_id: WorkspaceId) -> TicketAdapter:
        with self.rt.db.read() as conn:
            row = tstore.adapter(conn, workspace_id)
        if row is None:
            return self.adapter
        return _GuardedWebhook(row.url, dict(row.headers), self.policy, workspace_id)

    def open(
        self,
        workspace_id: WorkspaceId,
        *,
        subject: str,
        body: str,
        contact_id: ContactId | None = None,
        conversation_id: ConversationId | None = None,
        unanswered_id: str | None = None,
        actor: str = "assistant",
    ) -> Ticket:
        """Create a ticket (pending), hand it to the adapter, record what it said.

        Every id must be of this workspace. A contact has at most one open ticket per
        question: asking again returns the open one (no ticket spam)."""
        now = self.rt.clock.now()
        ticket_id = new_id("tkt")
        subject_text = secrets.redact(_text(subject, "subject", 300))
        with self.rt.db.write() as conn:
            check_refs(
                conn,
                workspace_id,
                contact_id=contact_id,
                conversation_id=conversation_id,
                unanswered_id=unanswered_id,
            )
            if contact_id is not None:
                open_ = tstore.open_of(conn, workspace_id, contact_id)
                for r in open_:
                    if (unanswered_id and r.unanswered_id == unanswered_id) or same_question(
                        r.subject, subject_text
                    ):
                        return tstore.ticket_from_row(r)
                cap = self.rt.limits.clients.open_tickets_per_contact
                if len(open_) >= cap:
                    raise errors.LimitExceeded(
                        f"this contact already has {cap} open tickets", code="too_many_tickets"
                    )
            adapter = self._adapter(workspace_id)  # read inside the transaction, closed below
            pending = tstore.insert(
                conn,
                id=ticket_id,
                workspace_id=workspace_id,
                contact_id=contact_id,
                conversation_id=conversation_id,
                unanswered_id=unanswered_id,
                subject=subject_text,
                body=secrets.redact(_text(body, "body", 20000)),
                status="pending",
                adapter=adapter.name,
                created_at=now,
                updated_at=now,
            )
        status, ref, error = adapter.submit(pending)
        with self.rt.db.write() as conn:
            tstore.answered(conn, ticket_id, status, ref, error, self.rt.clock.now())
            info = {"ticket_id": ticket_id, "subject": subject_text, "contact_id": contact_id}
            events.emit_in(conn, workspace_id, "ticket.created", info, self.rt.clock.now())
            if status == "accepted":
                events.emit_in(
                    conn,
                    workspace_id,
                    "ticket.accepted",
                    {**info, "external_ref": ref},
                    self.rt.clock.now(),
                )
            audit.log(
                conn,
                workspace_id=workspace_id,
                at=self.rt.clock.now(),
                actor=actor,
                tool="create_ticket",
                args={"subject": subject_text[:100], "unanswered_id": unanswered_id},
                status="executed" if status == "accepted" else "failed",
                result=f"{status}" + (f": {error}" if error else ""),
                contact_id=contact_id,
                conversation_id=conversation_id,
            )
            return tstore.ticket(conn, ticket_id)

    def find(self, workspace_id: WorkspaceId, contact_id: ContactId | None = None) -> list[Ticket]:
        with self.rt.db.read() as conn:
            return tstore.of(conn, workspace_id, contact_id)
