"""The extraction pipeline on every backend: gates, queue, leases, allowance, apply-once."""

from __future__ import annotations

import json
import threading
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from tools.extraction_eval import evaluate

from memwise import FixedClock, Memwise
from memwise._services.conversation.record import NewTurn
from memwise._services.platform.jobs import LeaseLost

DATA = Path(__file__).parent.parent / "data"


def _setup(mw: Memwise, plan: str = "startup", memory: bool = True, **ws: Any) -> tuple[str, str]:
    w, _ = mw.tenancy.create_workspace("Acme", "Europe/Berlin", plan, **ws)
    agent = mw.tenancy.create_agent(
        w.id, "Eve", memory_enabled=memory, domain="retail" if memory else None
    )
    return w.id, agent.id


def _conversation(
    mw: Memwise, ws: str, agent: str, *texts: str, excluded: bool = False
) -> tuple[str, str]:
    contact = mw.tenancy.create_contact(ws, "Ann").id
    conv, _ = mw.record.start(ws, agent, "web", contact_id=contact, excluded_from_memory=excluded)
    mw.record.append_many(ws, conv.id, [NewTurn("customer", t) for t in texts])
    return contact, conv.id


@pytest.mark.parametrize(
    ("plan", "memory", "excluded", "queued"),
    [
        ("startup", True, False, True),
        ("free", True, False, True),  # queued; the plan is checked when the job runs
        ("startup", False, False, False),
        ("startup", True, True, False),
    ],
)
def test_gates_decide_whether_an_ended_conversation_is_queued(
    mw: Memwise, plan: str, memory: bool, excluded: bool, queued: bool
) -> None:
    ws, agent = _setup(mw, plan, memory)
    _, conv = _conversation(mw, ws, agent, "I prefer email.", excluded=excluded)
    mw.record.end(ws, conv)
    mw.record.end(ws, conv)  # idempotent: still one job at most
    assert len(mw.jobs.find(ws)) == (1 if queued else 0)


@pytest.mark.parametrize("metering", [True, False])
def test_plans_and_allowances_apply_only_when_metering_is_on(mw: Memwise, metering: bool) -> None:
    """A hosted operator meters (MEMWISE_METERING); a self-hosted server does not: the free
    plan still remembers and a used-up allowance holds nothing back (usage is counted)."""
    mw.rt.metering = metering
    free, agent = _setup(mw, "free")
    contact, conv = _conversation(mw, free, agent, "I prefer email.")
    mw.record.end(free, conv)
    capped, capped_agent = _setup(mw, monthly_allowance=0)
    capped_contact, capped_conv = _conversation(mw, capped, capped_agent, "I prefer email.")
    mw.record.end(capped, capped_conv)
    mw.worker().run_once()
    remembered = bool(mw.memory.items(free, contact)), bool(mw.memory.items(capped, capped_contact))
    assert remembered == ((False, False) if metering else (True, True))
    (job,) = mw.jobs.find(free)
    assert (job.result or {}).get("reason", "") == (
        "the free plan does not include memory" if metering else None
    )
    assert mw.metering.remaining(capped)[0] == (0 if metering else 1)  # counted when it ran


def test_idle_expiry_queues_extraction(mw: Memwise, clock: FixedClock) -> None:
    ws, agent = _setup(mw)
    _, conv = _conversation(mw, ws, agent, "I prefer email.")
    clock.advance(minutes=31)
    assert mw.windows.expire_idle() == [conv]
    assert [j.payload["conversation_id"] for j in mw.jobs.find(ws)] == [conv]


def test_worker_extracts_verified_items_once(mw: Memwise) -> None:
    ws, agent = _setup(mw)
    contact, conv = _conversation(mw, ws, agent, "Please don't call me. I prefer email.")
    mw.record.append(ws, conv, "assistant", "So you're relocating to Munich in March?")
    mw.record.end(ws, conv)
    counts = mw.worker().run_once()
    assert counts == {"extract:applied": 1}
    texts = sorted(s.item.text for s in mw.memory.items(ws, contact))
    assert texts == ["Does not want phone calls", "Prefers to be contacted by email"]
    item = mw.memory.items(ws, contact)[0].item
    assert item.extractor == "rules" and item.prompt_version == "rules-1"
    assert mw.worker().run_once() == {}  # nothing left, nothing applied twice
    job = mw.jobs.find(ws)[0]
    assert job.status == "done" and job.result and job.result["written"] == {"created": 2}
    used, allowance, _ = mw.metering.remaining(ws)
    assert (used, allowance) == (1, 1000)


def test_a_lost_lease_applies_nothing(mw: Memwise, clock: FixedClock) -> None:
    ws, agent = _setup(mw)
    contact, conv = _conversation(mw, ws, agent, "I prefer email.")
    mw.record.end(ws, conv)
    slow = mw.jobs.claim("slow-worker")
    assert slow is not None
    clock.advance(minutes=6)  # the slow worker's lease ran out (it crashed, or hangs)
    assert mw.worker("fast-worker").run_once() == {"extract:applied": 1}
    with pytest.raises(LeaseLost):
        mw.extraction.run(slow)  # the late finisher is rolled back whole
    assert len(mw.memory.items(ws, contact)) == 1
    assert mw.metering.remaining(ws)[0] == 1


def test_failures_retry_with_backoff_then_fail(mw: Memwise, clock: FixedClock) -> None:
    class Broken:
        name, prompt_version = "broken", "0"

        def extract(self, *a: Any) -> Any:
            raise TimeoutError("model timed out")

    ws, agent = _setup(mw)
    _, conv = _conversation(mw, ws, agent, "I prefer email.")
    mw.record.end(ws, conv)
    mw.extraction.extractor = Broken()
    assert mw.worker().run_once() == {"extract:retrying": 1}
    assert mw.worker().run_once() == {}  # backing off
    for _ in range(4):
        clock.advance(hours=1)
        mw.worker().run_once()
    job = mw.jobs.find(ws)[0]
    assert job.status == "failed" and job.attempts == 5 and "timed out" in (job.last_error or "")


def test_allowance_holds_extraction_with_a_clear_status(mw: Memwise, clock: FixedClock) -> None:
    mw.rt.metering = True  # a hosted operator's server
    ws, agent = _setup(mw, monthly_allowance=1)
    _, first = _conversation(mw, ws, agent, "I prefer email.")
    contact, second = _conversation(mw, ws, agent, "I prefer phone calls.")
    mw.record.end(ws, first)
    clock.advance(seconds=1)  # the first to end is the first extracted (not an id's luck)
    mw.record.end(ws, second)
    counts = mw.worker().run_once()
    assert counts == {"extract:applied": 1, "extract:waiting": 1}
    waiting = [j for j in mw.jobs.find(ws) if j.status == "waiting"]
    assert len(waiting) == 1 and "allowance" in (waiting[0].last_error or "")
    assert mw.memory.items(ws, contact) == []
    clock.advance(days=3)  # 2 December: the next month has begun in Berlin
    assert mw.worker().run_once() == {"extract:applied": 1}
    assert len(mw.memory.items(ws, contact)) == 1


def test_two_workers_apply_each_conversation_exactly_once(mw: Memwise) -> None:
    ws, agent = _setup(mw, "enterprise")
    convs = [_conversation(mw, ws, agent, f"I prefer email, note {i}.")[1] for i in range(24)]
    for c in convs:
        mw.record.end(ws, c)
    results: list[Any] = []
    threads = [
        threading.Thread(target=lambda k=k: results.append(mw.worker(f"w{k}").run_once()))
        for k in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(sum(r.values()) for r in results) == 24
    assert mw.jobs.counts(ws) == {"done": 24}
    assert mw.metering.remaining(ws)[0] == 24


def test_offline_extractor_on_the_corpus(mw: Memwise, clock: FixedClock) -> None:
    corpus = json.loads((DATA / "extraction_corpus.json").read_text())
    assert len(corpus) >= 30
    said = clock.now().astimezone(__import__("zoneinfo").ZoneInfo("Europe/Berlin")) + timedelta(
        hours=0
    )
    report = evaluate(mw, corpus, said)
    assert report.forbidden == 0, report.failures
    assert report.precision >= 0.9 and report.recall >= 0.9, report.failures
    assert report.superseded_ok == report.superseded_expected


def test_rebuild_estimates_archives_requeues_and_reports_progress(mw: Memwise) -> None:
    ws, agent = _setup(mw, monthly_allowance=5)
    contact = mw.tenancy.create_contact(ws, "Ann").id
    for text in ("I prefer email.", "I'm allergic to peanuts."):
        conv, _ = mw.record.start(ws, agent, "web", contact_id=contact)
        mw.record.append(ws, conv.id, "customer", text)
        mw.record.end(ws, conv.id)
    mw.worker().run_once()
    from memwise._services.memory.memory import NewItem

    note = mw.memory.write(
        ws, contact, NewItem("note", "Knows the owner from school", source="operator")
    )
    before = {s.item.id for s in mw.memory.items(ws, contact)}
    estimate = mw.rebuilds.estimate(ws, contact)
    assert (estimate.conversations, estimate.cost, estimate.remaining, estimate.allowed) == (
        2,
        2,
        3,
        True,
    )
    started = mw.rebuilds.start(ws, contact)
    assert started.running and started.total == 2 and started.done == 0
    again = mw.rebuilds.start(ws, contact)  # clicking twice does nothing, costs nothing
    assert again.rebuild_id == started.rebuild_id and len(mw.jobs.find(ws)) == 4
    active = {s.item.id for s in mw.memory.items(ws, contact)}
    assert active == {note.item.id}  # old extracted items archived, the operator's note kept
    assert len(mw.memory.items(ws, contact, include=["archived"])) == 3
    mw.worker().run_once()
    done = mw.rebuilds.progress(ws, contact)
    assert (done.total, done.done, done.running) == (2, 2, False)
    assert len(mw.memory.items(ws, contact)) == 3 and before
    assert mw.metering.remaining(ws)[0] == 4


def test_rebuild_over_the_allowance_is_refused_before_anything(mw: Memwise) -> None:
    mw.rt.metering = True  # a hosted operator's server
    from memwise import errors

    ws, agent = _setup(mw, monthly_allowance=1)
    contact = mw.tenancy.create_contact(ws, "Ann").id
    for _ in range(2):
        conv, _ = mw.record.start(ws, agent, "web", contact_id=contact)
        mw.record.append(ws, conv.id, "customer", "I prefer email.")
        mw.record.end(ws, conv.id)
    assert mw.rebuilds.estimate(ws, contact).allowed is False
    with pytest.raises(errors.LimitExceeded) as exc:
        mw.rebuilds.start(ws, contact)
    assert exc.value.code == "allowance_exceeded"
    assert len(mw.jobs.find(ws)) == 2  # only the original extractions


def test_sweeps_run_at_most_once_a_minute_per_worker(mw: Memwise, clock: FixedClock) -> None:
    ws, agent = _setup(mw)
    _, conv = _conversation(mw, ws, agent, "I prefer email.")
    worker = mw.worker()
    worker.sweep_every = 3600
    assert worker.run_once() == {}
    clock.advance(minutes=31)  # idle now, but this worker swept a moment ago
    assert worker.run_once() == {}
    assert worker.run_once(force=True) == {"extract:applied": 1}  # a forced run sweeps
    assert mw.record.get(ws, conv).status == "expired"


def test_two_workers_cannot_overrun_the_allowance_together(mw: Memwise) -> None:
    mw.rt.metering = True  # a hosted operator's server
    ws, agent = _setup(mw, monthly_allowance=1)
    contacts = []
    for text in ("I prefer email.", "I prefer phone calls."):
        contact, conv = _conversation(mw, ws, agent, text)
        contacts.append(contact)
        mw.record.end(ws, conv)
    first, second = mw.jobs.claim("w1"), mw.jobs.claim("w2")  # both passed the check
    assert first is not None and second is not None
    assert mw.extraction.run(first).status == "applied"
    late = mw.extraction.run(second)
    assert late.status == "waiting" and "allowance" in (late.reason or "")
    assert mw.metering.remaining(ws)[0] == 1
    assert sum(len(mw.memory.items(ws, c)) for c in contacts) == 1  # the late one rolled back


def test_an_upcoming_move_settles_into_the_home_when_its_day_comes(
    mw: Memwise, clock: FixedClock
) -> None:
    ws, agent = _setup(mw)
    ann = mw.tenancy.create_contact(ws, "Ann").id
    mw.remember(ws, ann, [{"role": "customer", "text": "I live in Berlin."}], agent_id=agent)
    clock.advance(days=1)
    mw.remember(
        ws,
        ann,
        [{"role": "customer", "text": "We're moving to Munich on 10 December."}],
        agent_id=agent,
    )

    def homes() -> list[tuple[str, str]]:
        return [
            (s.item.text, s.item.lifecycle.value)
            for s in mw.memory.items(ws, ann, include=["superseded"])
            if s.item.key == "address.city"
        ]

    assert mw.memory.settle_moves() == 0  # not yet: it is an upcoming event
    assert homes() == [("Lives in Berlin", "active")]
    clock.advance(days=40)
    mw.worker().run_once()  # the worker's sweeps settle it
    assert sorted(homes()) == [("Lives in Berlin", "superseded"), ("Lives in Munich", "active")]
    move = next(s for s in mw.memory.items(ws, ann) if s.item.key == "address.move")
    home = next(s for s in mw.memory.items(ws, ann) if s.item.key == "address.city")
    assert home.item.evidence == move.item.evidence  # the customer's own words, not a guess
    assert mw.memory.settle_moves() == 0  # once


def test_a_home_stated_after_the_move_was_said_wins(mw: Memwise, clock: FixedClock) -> None:
    ws, agent = _setup(mw)
    ann = mw.tenancy.create_contact(ws, "Ann").id
    mw.remember(
        ws,
        ann,
        [{"role": "customer", "text": "I'm moving to Munich on 10 December."}],
        agent_id=agent,
    )
    clock.advance(days=2)
    mw.remember(
        ws, ann, [{"role": "customer", "text": "The move is off, I live in Bonn."}], agent_id=agent
    )
    clock.advance(days=40)
    assert mw.memory.settle_moves() == 0
    homes = [s.item.text for s in mw.memory.items(ws, ann) if s.item.key == "address.city"]
    assert homes == ["Lives in Bonn"]


def test_the_everyday_corpus_keeps_its_floors(mw: Memwise, clock: FixedClock) -> None:
    """Floors under the figures in bench/README.md, so a change that loses ground shows."""
    from tools.extraction_eval import evaluate_everyday

    said = clock.now()
    dev = evaluate_everyday(
        mw, json.loads((DATA / "extraction_everyday_dev.json").read_text()), said
    )
    # precision counts every item the corpus does not list as wrong: the statement reader
    # (_extraction/reader.py) keeps more of what customers say than the list holds — of its
    # 29 extra items on 2026-12-07, 23 were true facts the list leaves out ("Is expecting
    # their first baby in February", "Has left Bosch"), 6 wrong or clumsy ("Wants Grey
    # November", "Is work night shifts")
    assert dev.recall >= 0.85 and dev.precision >= 0.76, "\n".join(dev.misses)
    assert dev.wrong_preferences == 0 and dev.quotes[0] == dev.quotes[1]


def test_a_correction_that_moves_only_the_day_keeps_the_time(
    mw: Memwise, clock: FixedClock
) -> None:
    """'My haircut is on Monday at 10' then 'the haircut is on Tuesday now': Tuesday at 10."""
    ws, agent = _setup(mw)
    contact, conv = _conversation(mw, ws, agent, "My haircut is on Monday at 10.")
    clock.advance(minutes=2)
    mw.record.append(ws, conv, "customer", "Sorry, my haircut is on Tuesday now.")
    mw.record.end(ws, conv)
    mw.worker().run_once()
    (current,) = [s.item for s in mw.memory.items(ws, contact) if s.item.kind.value == "event"]
    first = datetime.fromisoformat(
        next(
            s.item.occurs_on
            for s in mw.memory.items(ws, contact, include=["superseded"])
            if s.item.lifecycle.value == "superseded"
        )
        or ""
    )
    moved = datetime.fromisoformat(current.occurs_on or "")
    assert (moved - first).days == 1 and moved.time() == first.time()


def test_a_booking_moved_in_the_customer_s_words_supersedes_the_first(
    mw: Memwise, clock: FixedClock
) -> None:
    """The statement reader (_extraction/reader.py): a dated request is a booking, a later
    "can we do … instead, same time?" moves it under the same key."""
    ws, agent = _setup(mw)
    ann = mw.tenancy.create_contact(ws, "Ann").id
    mw.remember(
        ws,
        ann,
        [
            {"role": "customer", "text": "Can I book an eye test for Saturday at 3pm?"},
            {"role": "assistant", "text": "Done, you're booked in for Saturday at 3pm."},
        ],
        agent_id=agent,
    )
    clock.advance(hours=2)
    mw.remember(
        ws,
        ann,
        [{"role": "customer", "text": "Sorry, could we move the eye test to Sunday instead?"}],
        agent_id=agent,
    )
    tests = [
        s.item
        for s in mw.memory.items(ws, ann, include=("superseded",))
        if s.item.key == "appointment.eye_test"
    ]
    assert sorted(i.lifecycle.value for i in tests) == ["active", "superseded"]
    now = next(i for i in tests if i.lifecycle.value == "active")
    assert "Sunday" in now.text and now.occurs_on and "T15:00:00" in now.occurs_on  # the time kept


def test_a_time_said_alone_sets_the_booking_s_time_and_keeps_its_day(
    mw: Memwise, clock: FixedClock
) -> None:
    ws, agent = _setup(mw)
    ann = mw.tenancy.create_contact(ws, "Ann").id
    conv, _ = mw.record.start(ws, agent, "web", contact_id=ann)
    for role, text in [
        ("customer", "Can I book an eye test for Saturday?"),
        ("assistant", "Yes, we have 10:00 or 15:30 on Saturday."),
        ("customer", "3.30pm ok."),
    ]:
        clock.advance(minutes=1)
        mw.record.append(ws, conv.id, role, text)
    mw.record.end(ws, conv.id)
    mw.worker().run_once()
    now = [
        s.item
        for s in mw.memory.items(ws, ann)
        if s.item.key == "appointment.eye_test" and s.item.lifecycle.value == "active"
    ]
    assert len(now) == 1 and now[0].occurs_on and "T15:30:00" in now[0].occurs_on
    day = date.fromisoformat(now[0].occurs_on[:10])
    assert day.weekday() == 5  # the Saturday asked for


def test_a_pasted_list_of_statements_gives_a_few_items_not_hundreds(
    mw: Memwise, clock: FixedClock
) -> None:
    """A 32 kB paste of distinct statements once gave an item each (and minutes of CPU in
    the worker): a turn past 2,500 characters gives at most three proposals."""
    ws, agent = _setup(mw)
    ann = mw.tenancy.create_contact(ws, "Ann").id
    paste = " ".join(f"I live in Town{i}." for i in range(3000))[:32_000]
    mw.remember(ws, ann, [{"role": "customer", "text": paste}], agent_id=agent)
    assert len(mw.memory.items(ws, ann, include=("superseded",))) <= 4  # 3 + a summary
