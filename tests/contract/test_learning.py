"""The learning loop on every backend: question book, frozen sets, measure → teach → measure."""

from __future__ import annotations

import sqlalchemy as sa

from memwise import FixedClock, Memwise


def _shop(mw: Memwise) -> str:
    ws, _ = mw.tenancy.create_workspace("Shop", "Europe/Berlin")
    mw.tenancy.create_contact(ws.id, "Ann Lee", emails=["ann@example.com"])
    return ws.id


def test_question_book_folds_redacts_dedupes_and_is_idempotent(mw: Memwise) -> None:
    ws = _shop(mw)
    mw.teaching.record_unanswered(ws, "Do you ship to Austria?")
    mw.tickets.open(
        ws,
        subject="Shipping",
        body="Ann Lee asks: do you ship to Austria? Reply to ann@example.com",
    )
    mw.tickets.open(ws, subject="Returns", body="How long do I have to return a tent?")
    assert mw.learning.fold(ws, "unanswered") == {"folded": 1, "new": 1, "merged": 0, "skipped": 0}
    assert mw.learning.fold(ws, "tickets") == {"folded": 2, "new": 1, "merged": 1, "skipped": 0}
    assert mw.learning.fold(ws, "tickets")["skipped"] == 2  # a run is idempotent
    book = mw.learning.book(ws)
    assert [(b["count"], b["sources"]) for b in book] == [
        (2, {"unanswered": 1, "tickets": 1}),
        (1, {"tickets": 1}),
    ]
    assert all(
        "ann@example.com" not in b["question"] and "Ann Lee" not in b["question"] for b in book
    )


def test_calls_fold_customer_questions(mw: Memwise) -> None:
    ws = _shop(mw)
    agent = mw.tenancy.create_agent(ws, "Eve").id
    contact = mw.tenancy.create_contact(ws, "Caller").id
    call, _ = mw.record.start(ws, agent, "phone", contact_id=contact)
    mw.record.append(ws, call.id, "customer", "Is the trail stove allowed on planes?")
    mw.record.append(ws, call.id, "customer", "Thanks, bye.")
    assert mw.learning.fold(ws, "calls")["new"] == 1


def test_test_sets_are_frozen_versions(mw: Memwise) -> None:
    ws = _shop(mw)
    first = mw.learning.freeze(ws, "weekly", [{"question": "Do you ship to Austria?"}])
    second = mw.learning.freeze(
        ws, "weekly", [{"question": "Do you ship to Austria?"}, {"question": "Warranty on tents?"}]
    )
    assert (first.version, second.version) == (1, 2)
    assert len(mw.learning.test_set(ws, first.id).items) == 1  # never edited in place


def test_measure_teach_measure_again(mw: Memwise, clock: FixedClock) -> None:
    ws = _shop(mw)
    mw.knowledge.add_document(
        ws,
        kind="policy",
        title="Warranty",
        version="1",
        body="Tents carry a two year warranty from the invoice date.",
    )
    ts = mw.learning.freeze(
        ws,
        "faq",
        [
            {"question": "Do you ship to Austria?", "expected_text": "we ship to Austria"},
            {
                "question": "How long is the warranty on tents?",
                "expected_text": "two year warranty",
            },
        ],
    )
    counts = {t: _count(mw, t) for t in ("lessons", "knowledge_chunks", "receipts")}
    before = mw.learning.evaluate(ws, ts.id)
    assert before.summary["answered"] == 1 and before.results[1]["correct"] is True
    assert {t: _count(mw, t) for t in counts} == counts  # evaluation writes only its report
    draft = mw.teaching.draft(ws, "Do you ship to Austria?", "Yes, we ship to Austria.")
    unapproved = mw.learning.evaluate(ws, ts.id)
    assert unapproved.summary == before.summary  # a draft cannot change a result
    mw.teaching.approve(ws, draft.id, approved_by="key:admin")
    clock.advance(minutes=1)
    after = mw.learning.evaluate(ws, ts.id)
    diff = mw.learning.compare(ws, before.id, after.id)
    assert diff["answered_delta"] == 0.5 and diff["after"]["answered_rate"] == 1.0
    assert diff["changes"] == [
        {
            "question": "Do you ship to Austria?",
            "before": False,
            "after": True,
            "before_correct": None,
            "after_correct": True,
        }
    ]


def _count(mw: Memwise, table: str) -> int:
    with mw.rt.db.read() as conn:
        return int(conn.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar_one())


def test_folding_is_scheduled_by_the_worker(mw: Memwise) -> None:
    ws = _shop(mw)
    mw.teaching.record_unanswered(ws, "Do you ship to Austria?")
    ran = mw.worker().run_once()
    assert ran == {"fold_questions:done": 1}
    assert mw.worker().run_once() == {}  # once per cadence period
    assert len(mw.learning.book(ws)) == 1
