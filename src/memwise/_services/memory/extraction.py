"""Conversations become memory at their end: read whole, extract, verify quotes, apply once.

The extractor is pure (transcript in, proposals out); the harness keeps only proposals whose
quotes are the contact's own words; the apply step writes items, the session summary,
events, the metered interaction and the job's "done" mark in one transaction.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal
from zoneinfo import ZoneInfo

from sqlalchemy.engine import Connection

from memwise import _observability as observability
from memwise import errors
from memwise._domain import record
from memwise._domain.jobs import Job
from memwise._domain.memory import Evidence, check_key
from memwise._extraction import dates, harness, hygiene, summary
from memwise._extraction import pack as packs
from memwise._extraction.rules import RuleExtractor
from memwise._extraction.types import Existing, Extractor, Line, Proposal
from memwise._extraction.verify import ItemVerifier
from memwise._ids import ContactId, ConversationId, WorkspaceId, new_id
from memwise._retrieval import embedders
from memwise._safety import instructions, secrets
from memwise._services.memory import gates
from memwise._services.memory.memory import Memory, NewItem
from memwise._services.platform.jobs import Jobs
from memwise._services.platform.runtime import Runtime
from memwise._storage.stores import contact_events as event_store
from memwise._storage.stores import memory_items as item_store
from memwise._storage.stores import record as record_store
from memwise._storage.stores import tenancy as tenancy_store
from memwise._storage.stores import usage as usage_store
from memwise._text import language, normal, parse

RunStatus = Literal["applied", "skipped", "waiting", "failed", "retrying"]


@dataclass
class Outcome:
    status: RunStatus
    written: dict[str, int] = field(default_factory=dict)
    discarded: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    events: int = 0
    reason: str | None = None
    not_read: list[str] = field(default_factory=list)  # what the extractor did not read
    rekeyed: int = 0  # items about someone else, kept under that person's key
    # the session summary: {"action": created | superseded (a rebuild) | refused code,
    # "left_out": sentences the boundary kept out, by class}
    summary: dict[str, Any] | None = None
    # each proposal not kept, with why ({"text", "why"}): its secrets masked, at most
    # MAX_PROPOSALS of them (the counts above hold every one)
    refusals: list[dict[str, str]] = field(default_factory=list)

    def malformed(self, n: int) -> None:
        """Count the proposals an extractor gave that were not in its schema (a model's) or
        with a text or quote that was not text."""
        if n:
            self.discarded += n
            self.refuse(f"{n} proposals not in the extraction schema", "malformed")

    def refuse(self, text: str, why: str) -> None:
        """Name one proposal that was not kept, and why (its secrets masked)."""
        if len(self.refusals) < MAX_PROPOSALS:
            self.refusals.append({"text": secrets.redact(text[:300]), "why": why})

    def as_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "written": self.written,
            "discarded": self.discarded,
            "refused": self.refused,
            "events": self.events,
            "reason": self.reason,
            "not_read": self.not_read,
            "rekeyed": self.rekeyed,
            "summary": self.summary,
            "refusals": self.refusals,
        }


def month_of(moment: datetime, zone: ZoneInfo) -> str:
    return moment.astimezone(zone).strftime("%Y-%m")


def next_month_start(moment: datetime, zone: ZoneInfo) -> datetime:
    local = moment.astimezone(zone)
    year, month = (local.year + 1, 1) if local.month == 12 else (local.year, local.month + 1)
    return datetime(year, month, 1, tzinfo=zone)


class _OverAllowance(Exception):
    """Raised inside the apply transaction to roll it back when the allowance ran out."""


class Metering:
    """One interaction per conversation extracted, against a monthly allowance."""

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    def used(self, conn: Connection, workspace_id: WorkspaceId, month: str) -> int:
        return usage_store.used(conn, workspace_id, month)

    def add(self, workspace_id: WorkspaceId, month: str, n: int = 1) -> int:
        """Count ``n`` interactions atomically (same SQL on both); returns the month's total,
        exact even with several workers (the row is locked until the transaction ends).
        Joins an open unit of work."""
        with self.rt.db.write() as conn:
            return usage_store.add(conn, workspace_id, month, n)

    def remaining(self, workspace_id: WorkspaceId) -> tuple[int, int, str]:
        """(used this month, allowance, month) in the workspace's timezone."""
        with self.rt.db.read() as conn:
            ws = tenancy_store.workspace(conn, workspace_id)
            month = month_of(self.rt.clock.now(), ZoneInfo(ws.timezone))
            return self.used(conn, workspace_id, month), ws.monthly_allowance, month


class ExtractionRunner:
    def __init__(
        self,
        rt: Runtime,
        memory: Memory,
        jobs: Jobs,
        extractor: Extractor | None = None,
        quote_threshold: float = 90.0,
        verifier: ItemVerifier | None = None,
    ) -> None:
        self.rt = rt
        self.verifier = verifier  # with a model: a second look at every kept item
        self.memory = memory
        self.jobs = jobs
        self.extractor: Extractor = extractor or RuleExtractor(embedders.shipped)
        self.threshold = quote_threshold
        self.metering = Metering(rt)
        self.last_error: str | None = None  # the extractor's (the model's) last failure
        self.last_error_at: datetime | None = None

    def run(self, job: Job) -> Outcome:
        ws_id, conv_id = job.workspace_id, job.payload["conversation_id"]
        with self.rt.db.read() as conn:
            reason = gates.blocked(conn, ws_id, conv_id, metered=self.rt.metering)
            ctx = self._context(conn, ws_id, conv_id) if reason is None else None
        if reason is not None or ctx is None:
            return self._finish(job, Outcome("skipped", reason=reason))
        zone, agent, contact_id, transcript, existing, allowance, channel = ctx
        if not any(line.text for line in transcript):
            return self._finish(job, Outcome("skipped", reason="no transcript text was recorded"))
        month = month_of(self.rt.clock.now(), zone)
        with self.rt.db.read() as conn:
            used = self.metering.used(conn, ws_id, month)
        if self.rt.metering and used + 1 > allowance:
            why = (
                f"the monthly allowance of {allowance} interactions is used up for {month}; "
                "extraction waits for the next month"
            )
            self.jobs.hold(job, why, next_month_start(self.rt.clock.now(), zone))
            return Outcome("waiting", reason=why)
        pack = packs.load(agent.domain or "general")
        model = self.extractor.name != "rules"
        # the turns are read by several parts (the extractor, the summary, the harness):
        # parsed in one batch first, about half the time of one parse each
        parse.prefetch([line.text for line in transcript])
        try:
            with observability.span("memwise.extract", extractor=self.extractor.name):
                extraction = self.extractor.extract(transcript, existing, pack)
            if model:
                observability.MODEL_CALLS.labels("extract", "ok").inc()
        except Exception as exc:  # a model or network failure: retry with backoff, then fail
            if model:
                observability.MODEL_CALLS.labels("extract", "error").inc()
            self.last_error = f"{type(exc).__name__}: {str(exc)[:200]}"
            self.last_error_at = self.rt.clock.now()
            status = self.jobs.fail(job, f"{type(exc).__name__}: {exc}")
            return Outcome("failed" if status == "failed" else "retrying", reason=str(exc))
        extraction, malformed = hygiene.cleaned(extraction)  # no NUL, no surrogate, text only
        # a conversation's proposals are applied up to a bound: each is checked, grounded and
        # written (~25 ms), and a pasted list of 300 "I live in …" must not hold the worker
        proposals = extraction.items[:MAX_PROPOSALS]
        past = len(extraction.items) - MAX_PROPOSALS
        verified = harness.verify(
            proposals,
            extraction.events[:MAX_PROPOSALS] if agent.business_intelligence else [],
            transcript,
            self.threshold,
        )
        outcome = Outcome(
            "applied",
            discarded=verified.discarded,
            not_read=list(extraction.not_read)
            + (
                [f"{past} proposals past the first {MAX_PROPOSALS}, not applied"]
                if past > 0
                else []
            ),
        )
        for text, why in verified.dropped:
            outcome.refuse(text, why)
        outcome.malformed(malformed)
        # words that steer the assistant are data, never memory, whichever extractor
        # proposed them ("I always get the first-timer discount" read as a preference)
        steering = {id(p) for p in verified.items if any(instructions.scan(e.quote) for e in p[1])}
        if steering:
            for pair in verified.items:
                if id(pair) in steering:
                    outcome.refuse(pair[0].text, "instruction_not_memory")
            verified.items = [p for p in verified.items if id(p) not in steering]
            refused = outcome.refused.get("instruction_not_memory", 0) + len(steering)
            outcome.refused["instruction_not_memory"] = refused
        # the model's summary, held to the offline one's rules; else the offline one
        made = summary.from_model(extraction.summary, transcript, zone)
        told = [
            (Proposal("note", x.text, [x.quote]), [Evidence(x.turn_id, x.quote)])
            for x in (made.sentences if made else [])
        ]
        looked_at = list(verified.items) + told
        if self.verifier is not None and looked_at:
            try:
                with observability.span("memwise.verify", verifier=self.verifier.name):
                    checked = self.verifier.check(looked_at, transcript)
                observability.MODEL_CALLS.labels("verify", "ok").inc()
            except Exception as exc:  # not verified is not stored: retry, then fail
                observability.MODEL_CALLS.labels("verify", "error").inc()
                self.last_error = f"{type(exc).__name__}: {str(exc)[:200]}"
                self.last_error_at = self.rt.clock.now()
                status = self.jobs.fail(job, f"verification: {type(exc).__name__}: {exc}")
                return Outcome("failed" if status == "failed" else "retrying", reason=str(exc))
            cleared = {id(pair) for pair in checked.kept}
            for pair in verified.items:
                if id(pair) not in cleared:
                    outcome.refuse(pair[0].text, "not_supported_by_the_verifier")
            verified.items = [pair for pair in verified.items if id(pair) in cleared]
            if made is not None:  # the summary's sentences get the same second look
                made.sentences = [
                    x for x, pair in zip(made.sentences, told, strict=True) if id(pair) in cleared
                ]
                if not any(x.role == "customer" for x in made.sentences):
                    made = None
            for why, n in checked.refused.items():
                outcome.refused[why] = outcome.refused.get(why, 0) + n
        if made is None:
            embedder = self.memory.embedder or embedders.shipped()
            with observability.span("memwise.summarise"):
                made = summary.summarise(transcript, zone, embedder)
        try:
            applied = self._apply(
                job,
                verified,
                outcome,
                (ws_id, contact_id, conv_id, str(channel)),
                made,
                zone,
                month,
                allowance,
            )
            kept = sum(n for action, n in applied.written.items() if action != "skipped")
            observability.extraction_outcome(kept, applied.discarded, applied.refused)
            return applied
        except _OverAllowance:
            why = (
                f"the monthly allowance of {allowance} interactions is used up for {month}; "
                "extraction waits for the next month"
            )
            self.jobs.hold(job, why, next_month_start(self.rt.clock.now(), zone))
            return Outcome("waiting", reason=why)

    def _apply(
        self,
        job: Job,
        verified: harness.Verified,
        outcome: Outcome,
        where: tuple[WorkspaceId, ContactId, ConversationId, str],
        made: summary.Summary | None,
        zone: ZoneInfo,
        month: str,
        allowance: int,
    ) -> Outcome:
        """Items, the session summary, events, the metered interaction and the done mark:
        one transaction, or nothing."""
        ws_id, contact_id, conv_id, channel = where
        with self.rt.db.write() as conn:
            for proposal, evidence in verified.items:
                self._apply_item(
                    conn, ws_id, contact_id, conv_id, proposal, evidence, zone, outcome
                )
            if made is not None:  # the summary replaces the old "Asked about" note
                self._apply_summary(ws_id, contact_id, conv_id, channel, made, outcome)
            for event, ev in verified.events:
                record_event_in(
                    conn,
                    ws_id,
                    contact_id,
                    conv_id,
                    event.type,
                    said_labels(event.labels),
                    ev.at or self.rt.clock.now(),
                    "extraction",
                    self.rt.clock.now(),
                )
                outcome.events += 1
            if self.metering.add(ws_id, month) > allowance and self.rt.metering:
                raise _OverAllowance()  # another worker took the last one: undo all of this
            self.jobs.finish(job, outcome.as_dict() | self._made_by())
        return outcome

    def _apply_summary(
        self,
        ws_id: WorkspaceId,
        contact_id: ContactId,
        conv_id: ConversationId,
        channel: str,
        made: summary.Summary,
        outcome: Outcome,
    ) -> None:
        """The session summary, under the write boundary like every item: a refusal leaves
        the summary out (counted), never the conversation's items."""
        outcome.summary = {"action": None, "left_out": dict(made.left_out)}
        try:
            written = self.memory.write_summary(
                ws_id, contact_id, conv_id, made, channel, extractor="summary"
            )
        except (errors.Refused, errors.Invalid) as exc:
            outcome.summary["action"] = exc.code
            return
        if written is not None:
            outcome.summary["action"] = written.action

    def _made_by(self) -> dict[str, str]:
        made = {"extractor": self.extractor.name, "prompt_version": self.extractor.prompt_version}
        mode = getattr(self.extractor, "mode", None)  # how a model was asked for its JSON
        return made | ({"mode": str(mode)} if mode else {})

    def _finish(self, job: Job, outcome: Outcome) -> Outcome:
        self.jobs.finish(job, outcome.as_dict())
        return outcome

    def _context(self, conn: Connection, ws_id: WorkspaceId, conv_id: ConversationId) -> Any:
        conv = record_store.conversation(conn, conv_id)
        agent = tenancy_store.agent(conn, ws_id, conv.agent_id)
        ws = tenancy_store.workspace(conn, ws_id)
        transcript = [
            Line(t.id, t.role, t.text or "", t.at) for t in record_store.all_turns(conn, conv_id)
        ]
        existing = [
            Existing(r.key, r.kind, r.text)
            for r in (
                item_store.contact_rows(conn, ws_id, conv.contact_id, ["active"])
                if conv.contact_id
                else []
            )
        ]
        return (
            ZoneInfo(ws.timezone),
            agent,
            conv.contact_id,
            transcript,
            existing,
            ws.monthly_allowance,
            conv.channel,
        )

    def _apply_item(
        self,
        conn: Connection,
        ws_id: WorkspaceId,
        contact_id: ContactId,
        conv_id: ConversationId,
        p: Proposal,
        evidence: Sequence[Evidence],
        zone: ZoneInfo,
        outcome: Outcome,
        key: str | None = None,
    ) -> None:
        occurs_on = None
        # A date and the entities an extractor names are kept only when the quotes say them:
        # "tomorrow" beside a quote that says "in March" is dropped, and so is "Munich" beside
        # "I'm moving to Hamburg".
        phrase, said = None, None
        if p.occurs_phrase:
            said = next((e for e in evidence if _dated(e.quote, p.occurs_phrase)), None)
            phrase = p.occurs_phrase if said is not None else None
        if phrase and said is not None:
            said_in = language.detect(said.quote)  # a model extracts in any language
            lang = said_in.code if said_in is not None else "en"
            found = dates.resolve(phrase, said.at or self.rt.clock.now(), zone, said.quote, lang)
            occurs_on = found.value if found else None
            if found and p.kind == "event" and (key or p.key):
                occurs_on = _same_time(conn, ws_id, contact_id, key or p.key or "", found, zone)
        entities = [x for x in p.entities if any(_says(e.quote, x) for e in evidence)]
        try:
            written = self.memory.write(
                ws_id,
                contact_id,
                NewItem(
                    kind=p.kind,
                    text=p.text,
                    key=key or p.key,
                    evidence=list(evidence),
                    occurs_on=occurs_on,
                    occurs_phrase=phrase,
                    conversation_id=conv_id,
                    entities=entities,
                    extractor=self.extractor.name,
                    prompt_version=self.extractor.prompt_version,
                ),
            )
        except errors.Invalid as exc:  # refused at the write boundary: counted, never stored
            outcome.refused[exc.code] = outcome.refused.get(exc.code, 0) + 1
            outcome.refuse(p.text, exc.code)
            return
        outcome.written[written.action] = outcome.written.get(written.action, 0) + 1
        outcome.rekeyed += bool((key or p.key) and written.item.key != check_key(key or p.key))


MAX_PROPOSALS = 60  # of one conversation (the busiest blind conversations give about 15)


def _same_time(
    conn: Connection,
    ws_id: WorkspaceId,
    contact_id: ContactId,
    key: str,
    found: Any,
    zone: ZoneInfo,
) -> str:
    """A correction that moves only the day keeps the time ("moved to Wednesday, same
    time"): a day-only date for a key whose current item has a time takes that time; and
    one that says only a time keeps the day ("3.30pm ok" after "this Saturday")."""
    only_time = found.has_time and dates.find_phrase(found.phrase) is None
    if found.has_time and not only_time:
        return str(found.value)
    for row in item_store.active_matching(conn, ws_id, contact_id, key, ""):
        if row.key != key or not row.occurs_on:
            continue
        if only_time:
            day = date.fromisoformat(row.occurs_on[:10])
            at = datetime.fromisoformat(str(found.value)).astimezone(zone)
        elif "T" in row.occurs_on:
            at = datetime.fromisoformat(row.occurs_on).astimezone(zone)
            day = found.day
        else:
            continue
        moved = datetime(day.year, day.month, day.day, at.hour, at.minute, tzinfo=zone)
        return moved.isoformat()
    return str(found.value)


def _says(quote: str, words: str) -> bool:
    """Whether ``words`` occur, whole, in ``quote`` (case, accents and punctuation aside)."""
    wanted = re.sub(r"^(?:(?:on|at|in|by|for|from|until|the)\s+)+", "", normal.norm(words))
    return bool(wanted) and f" {wanted} " in f" {normal.norm(quote)} "


_GLUE = frozenset(["on", "at", "in", "by", "for", "from", "until", "the", "of", "a", "an"])


def _dated(quote: str, phrase: str) -> bool:
    """Whether a date phrase is the quote's: each of its words is in it ("on in two weeks"
    for "… in two weeks")."""
    wanted = set(normal.norm(phrase).split()) - _GLUE
    return bool(wanted) and wanted <= set(normal.norm(quote).split())


def said_labels(labels: dict[str, str]) -> dict[str, str]:
    """An extracted event's labels without a value that holds a secret or an instruction."""
    return {
        k: v
        for k, v in labels.items()
        if not secrets.find(str(v)) and not instructions.scan(str(v))
    }


def record_event_in(
    conn: Connection,
    ws_id: WorkspaceId,
    contact_id: ContactId,
    conv_id: ConversationId | None,
    type_: str,
    labels: dict[str, str],
    at: datetime,
    source: str,
    now: datetime,
) -> str:
    """Record a contact event (labels trimmed and cleaned as turns are — no NUL, no lone
    surrogate, whichever door it came through —, empty ones dropped); its id."""
    event_id = new_id("evt")
    said = {record.clean(str(k))[0][:60]: record.clean(str(v))[0] for k, v in labels.items()}
    clean = {k: " ".join(v.split())[:200] for k, v in said.items() if v.strip()}
    kind = record.clean(type_)[0][:60]
    event_store.insert(conn, event_id, ws_id, contact_id, conv_id, kind, clean, at, source, now)
    return event_id
