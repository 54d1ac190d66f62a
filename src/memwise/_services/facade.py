"""``Memwise``: one object that holds the runtime and offers every service."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast, get_args

from memwise import errors
from memwise._accounts.policy import AccountPolicy
from memwise._clock import Clock, SystemClock
from memwise._domain.jobs import Job, JobStatus
from memwise._domain.memory import Remembered as Remembered
from memwise._domain.memory import RememberStatus as RememberStatus
from memwise._extraction.types import Extractor
from memwise._extraction.verify import ItemVerifier
from memwise._ids import ContactId, ConversationId, WorkspaceId
from memwise._policies.compaction import Summariser
from memwise._policies.limits import Limits
from memwise._retrieval.embedders import Embedder, remembering
from memwise._services.assistant.accounts import Accounts
from memwise._services.assistant.assistant import Assistant, Reply
from memwise._services.assistant.builder import Builder
from memwise._services.assistant.model_mode import Complete, ModelAssistant
from memwise._services.assistant.notebook import Notebook
from memwise._services.assistant.rulebook import Rulebook
from memwise._services.conversation.inbound import Inbound
from memwise._services.conversation.record import NewTurn, Record
from memwise._services.conversation.window import Windows
from memwise._services.knowledge.knowledge import Knowledge
from memwise._services.knowledge.learning import FOLD, Judge, Learning, schedule_folds
from memwise._services.knowledge.teaching import Teaching, TicketAdapter, Tickets
from memwise._services.memory import gates
from memwise._services.memory import history as history_events
from memwise._services.memory.data_request import DataRequests
from memwise._services.memory.extraction import ExtractionRunner, Metering
from memwise._services.memory.history import EMBED_TURNS, History
from memwise._services.memory.memory import Memory
from memwise._services.memory.patterns import PROMOTE, Patterns
from memwise._services.memory.rebuild import Rebuilds
from memwise._services.memory.recall import Recaller
from memwise._services.platform.audit import Audit
from memwise._services.platform.buckets import Buckets
from memwise._services.platform.bus import ConversationClosed
from memwise._services.platform.events import DELIVER, Events
from memwise._services.platform.jobs import Jobs
from memwise._services.platform.runtime import Runtime
from memwise._services.platform.tenancy import Tenancy
from memwise._services.platform.worker import Worker
from memwise._storage.engine import Database

REMEMBER_WAIT_S = 10.0  # how long remember waits for a worker that took its job


def _run_status(value: object, default: RememberStatus = "applied") -> RememberStatus:
    """A stored job's status or result, read back as one of ``RememberStatus``."""
    for status in get_args(RememberStatus):
        if value == status:
            return cast(RememberStatus, status)
    return default


def _turn(m: NewTurn | dict[str, Any]) -> NewTurn:
    if isinstance(m, NewTurn):
        return m
    if not isinstance(m, dict):
        raise errors.Invalid("each message is {role, text, at?}", code="invalid_message")
    role = {"user": "customer", "human": "customer"}.get(str(m.get("role")), str(m.get("role")))
    at = m.get("at")
    if isinstance(at, str):
        given = at
        try:
            at = datetime.fromisoformat(given)
        except ValueError as exc:
            raise errors.Invalid(f"'at' is not an ISO 8601 time: {given[:40]!r}") from exc
    if at is not None and not isinstance(at, datetime):
        raise errors.Invalid("'at' is an ISO 8601 time", code="invalid_time")
    return NewTurn(role, str(m.get("text") or m.get("content") or ""), at)


class Memwise:
    """The memwise library. ``Memwise.open("sqlite:///memwise.db")`` to start."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Clock | None = None,
        limits: Limits | None = None,
        extractor: Extractor | None = None,
        summariser: Summariser | None = None,
        embedder: Embedder | None = None,
        tickets: TicketAdapter | None = None,
        chat_model: Complete | None = None,
        account_policy: AccountPolicy | None = None,
        verifier: ItemVerifier | None = None,
        metering: bool = False,
    ):
        self.rt = Runtime(db=db, clock=clock or SystemClock(), limits=limits or Limits())
        self.rt.metering = metering
        embedder = remembering(embedder)  # a turn's question is embedded once, for every part
        self.rt.embedder_id = embedder.id if embedder is not None else None
        self.rt.bus.subscribe(ConversationClosed, gates.on_conversation_closed)
        if embedder is not None:
            self.rt.bus.subscribe(ConversationClosed, history_events.on_conversation_closed)
        self.tenancy = Tenancy(self.rt)
        self.record = Record(self.rt)
        self.audit = Audit(self.rt)
        self.notebook = Notebook(self.rt)
        self.windows = Windows(self.rt, summariser)
        self.memory = Memory(self.rt, embedder)
        self.recaller = Recaller(self.rt, self.memory)
        self.history = History(self.rt, embedder)
        self.data_requests = DataRequests(self.rt, self.tenancy)
        self.data_requests.after_delete.append(self.history.forget)
        self.data_requests.after_delete.append(self.recaller.forget)
        self.jobs = Jobs(self.rt)
        self.buckets = Buckets(self.rt)
        self.metering = Metering(self.rt)
        self.extraction = ExtractionRunner(
            self.rt, self.memory, self.jobs, extractor, verifier=verifier
        )
        self.rebuilds = Rebuilds(self.rt)
        self.patterns = Patterns(self.rt, self.memory)
        self.knowledge = Knowledge(self.rt, embedder)
        self.teaching = Teaching(self.rt, self.knowledge)
        self.tickets = Tickets(self.rt, tickets)  # its policy: the accounts' (set below)
        self.learning = Learning(self.rt, self.knowledge, Judge(chat_model) if chat_model else None)
        self.inbound = Inbound(self.rt, self.record, self.tenancy)
        self.accounts = Accounts(self.rt, self.tenancy, account_policy)
        self.events = Events(self.rt, self.jobs, self.accounts)
        self.tickets.policy = self.accounts
        self.assistant = Assistant(
            self.rt,
            record=self.record,
            windows=self.windows,
            recaller=self.recaller,
            knowledge=self.knowledge,
            teaching=self.teaching,
            tickets=self.tickets,
            tenancy=self.tenancy,
            notebook=self.notebook,
            accounts=self.accounts,
        )
        self.rulebook = Rulebook(self.rt)
        self.builder = Builder(
            self.rt,
            tenancy=self.tenancy,
            record=self.record,
            knowledge=self.knowledge,
            teaching=self.teaching,
            rulebook=self.rulebook,
            assistant=self.assistant,
        )
        self.model_assistant = (
            ModelAssistant(self, self.assistant, self.windows, chat_model) if chat_model else None
        )

    def chat(
        self, workspace_id: WorkspaceId, conversation_id: ConversationId, text: str, **kw: Any
    ) -> Reply:
        """Answer a turn: with the model when one is configured, else in preview mode."""
        if self.model_assistant is not None:
            return self.model_assistant.chat(workspace_id, conversation_id, text, **kw)
        return self.assistant.chat(workspace_id, conversation_id, text, **kw)

    def remember(
        self,
        workspace_id: WorkspaceId,
        contact_id: ContactId | None,
        messages: Sequence[NewTurn | dict[str, Any]],
        *,
        agent_id: str | None = None,
        channel: str = "api",
        user_id: str | None = None,
        email: str | None = None,
        phone: str | None = None,
        name: str | None = None,
    ) -> Remembered:
        """One call for a finished exchange: record the messages as one conversation of the
        contact, end it, and extract now (the same harness and boundary as the worker).

        The customer is ``contact_id``, or found or made by ``user_id`` (your own id for
        them), ``email`` or ``phone``. A workspace with no agent gets its default one here
        ("Assistant": memory on, the general domain). ``messages`` are turns or ``{"role",
        "text", "at"?}`` dicts; the role ``user`` is the customer. Returns the conversation,
        the extraction outcome and the items it wrote.
        """
        turns = [_turn(m) for m in messages]
        if not turns:
            raise errors.Invalid("give at least one message", code="no_messages")
        if len(turns) > 1000:
            raise errors.LimitExceeded("at most 1,000 messages per call", code="too_many")
        if contact_id is not None and (user_id or email or phone):
            raise errors.Invalid(
                "name the customer once: contact_id, or user_id, email or phone",
                code="contact_required",
            )
        with self.rt.db.write():  # the contact, agent and conversation together, or nothing
            if contact_id is None:
                contact_id = self.tenancy.contact_for(
                    workspace_id, user_id=user_id, email=email, phone=phone, name=name
                )
            agent = self.tenancy.agent_for(workspace_id, agent_id)
            conv, _ = self.record.start(
                workspace_id, agent, channel, contact_id=contact_id, live=True
            )
            self.record.append_many(workspace_id, conv.id, turns)
            self.record.end(workspace_id, conv.id)
        job = self.jobs.by_key(workspace_id, f"extract:{conv.id}")
        if job is None:  # a gate says no (memory off, a free plan, excluded)
            with self.rt.db.read() as conn:
                reason = gates.blocked(conn, workspace_id, conv.id, metered=self.rt.metering)
            if reason == "the agent has memory turned off":  # say the whole recipe
                reason += (
                    f": give agent {agent} a business domain and turn memory on "
                    '(PATCH /v1/agents/{id} {"domain": "general", "memory_enabled": true})'
                )
            return Remembered(conv.id, "skipped", reason, [], {}, 0, contact_id=contact_id)
        claimed = self.jobs.claim(f"remember:{conv.id}", ["extract"], job_id=job.id)
        if claimed is None:  # not due (the allowance) or a worker took it first
            current = self._worker_done(workspace_id, f"extract:{conv.id}") or job
            if current.status is JobStatus.done and current.result:
                done = current.result
                written = [
                    s
                    for s in self.memory.items(workspace_id, contact_id)
                    if s.item.conversation_id == conv.id
                ]
                return Remembered(
                    conv.id,
                    _run_status(done.get("status")),
                    done.get("reason"),
                    written,
                    dict(done.get("refused") or {}),
                    int(done.get("discarded") or 0),
                    contact_id,
                )
            why = current.last_error or "a worker will extract it"
            waiting = _run_status(current.status.value, "queued")
            return Remembered(conv.id, waiting, why, [], {}, 0, contact_id=contact_id)
        try:
            outcome = self.extraction.run(claimed)
        except Exception as exc:  # counted as a failed attempt, as the worker would
            self.jobs.fail(claimed, f"{type(exc).__name__}: {exc}")
            raise
        written = [
            s
            for s in self.memory.items(workspace_id, contact_id)
            if s.item.conversation_id == conv.id
        ]
        return Remembered(
            conv.id,
            outcome.status,
            outcome.reason,
            written,
            dict(outcome.refused),
            outcome.discarded,
            contact_id,
        )

    def _worker_done(self, workspace_id: WorkspaceId, key: str) -> Job | None:
        """The job of ``key`` once a worker that took it has finished it: waited for at most
        ``REMEMBER_WAIT_S`` (a conversation's extraction takes well under a second), so a
        caller who asked to remember now is answered with what was written."""
        until = time.monotonic() + REMEMBER_WAIT_S
        while True:
            current = self.jobs.by_key(workspace_id, key)
            if current is None or current.status is not JobStatus.running:
                return current
            if time.monotonic() >= until:
                return current
            time.sleep(0.05)

    def worker(self, name: str | None = None) -> Worker:
        """A worker for every job kind memwise runs, with the scheduled sweeps."""
        return Worker(
            self.jobs,
            {
                "extract": self.extraction.run,
                PROMOTE: self._promote,
                FOLD: self._fold,
                DELIVER: self.events.deliver,
                EMBED_TURNS: self._embed_turns,
            },
            sweeps=[
                lambda force, ws: self.windows.expire_idle(ws),
                self.memory.settle_moves,
                self.patterns.schedule,
                lambda force, ws: schedule_folds(self.rt, force, ws),
                lambda force, ws: self.knowledge.embed_missing(ws),
                lambda force, ws: self.memory.embed_missing(ws),
            ],
            name=name,
        )

    def _embed_turns(self, job: Job) -> dict[str, int]:
        count = self.history.embed_conversation(job.workspace_id, job.payload["conversation_id"])
        self.jobs.finish(job, {"turns": count})
        return {"turns": count}

    def _fold(self, job: Job) -> dict[str, int]:
        counts = self.learning.fold(job.workspace_id, job.payload["source"])
        self.jobs.finish(job, counts)
        return counts

    def _promote(self, job: Job) -> dict[str, int]:
        with self.rt.db.write():  # one unit of work: the promotions and the job being done
            counts = self.patterns.promote(job.workspace_id)
            self.jobs.finish(job, counts)
        return counts

    @classmethod
    def open(
        cls,
        database_url: str = "sqlite:///memwise.db",
        *,
        clock: Clock | None = None,
        limits: Limits | None = None,
        migrate: bool = True,
        extractor: Extractor | None = None,
        summariser: Summariser | None = None,
        embedder: Embedder | None = None,
        tickets: TicketAdapter | None = None,
        chat_model: Complete | None = None,
        account_policy: AccountPolicy | None = None,
        verifier: ItemVerifier | None = None,
        metering: bool = False,
    ) -> Memwise:
        """``metering``: plans and monthly allowances apply (a hosted operator); off, a
        self-hosted deployment meters nothing (usage is still counted)."""
        db = Database(database_url)
        if migrate:
            db.migrate()
        return cls(
            db,
            clock=clock,
            limits=limits,
            extractor=extractor,
            summariser=summariser,
            embedder=embedder,
            tickets=tickets,
            chat_model=chat_model,
            account_policy=account_policy,
            verifier=verifier,
            metering=metering,
        )

    @property
    def clock(self) -> Clock:
        return self.rt.clock

    def close(self) -> None:
        self.rt.db.dispose()

    def __enter__(self) -> Memwise:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
