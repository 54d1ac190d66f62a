"""A contact's first record recall joins what the worker kept of each ended conversation
instead of reading every turn again, and ranks exactly as a build from the record would;
what is not kept whole (an open conversation, a turn added after an end) is read (both
backends)."""

from __future__ import annotations

import sqlalchemy as sa

from memwise import FixedClock, Memwise
from memwise._storage.schema import conversations, kept_turns
from tests.contract.test_history_vectors import PieceEmbedder

QUESTIONS = ("which bike cracked?", "when is the fitting?", "what did you say about the warranty?")


def _record(mw: Memwise) -> tuple[str, str, str]:
    ws, _ = mw.tenancy.create_workspace("Shop", "UTC", "business")
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    ann = mw.tenancy.create_contact(ws.id, "Ann Lee")
    said = [
        ("The frame of my Trek bike cracked.", "Sorry, we will check the warranty."),
        ("Can I book a fitting for Saturday?", "Booked: Saturday 10am with Sam."),
        ("Is the warranty two years?", "Yes, two years on frames."),
    ]
    last = ""
    for customer, reply in said:
        conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=ann.id)
        mw.record.append(ws.id, conv.id, "customer", customer)
        mw.record.append(ws.id, conv.id, "assistant", reply)
        mw.record.end(ws.id, conv.id)
        last = conv.id
    return ws.id, ann.id, last


def _ranked(mw: Memwise, ws: str, ann: str) -> list[list[tuple[str, float]]]:
    return [[(h.turn_id, h.score) for h in mw.history.recall(ws, ann, q)] for q in QUESTIONS]


def test_the_worker_keeps_each_ended_conversation_and_a_cold_recall_joins_them(
    database_url: str, clock: FixedClock, monkeypatch
) -> None:
    from memwise._storage.stores import record as record_store

    pieces = PieceEmbedder()
    mw = Memwise.open(database_url, clock=clock, migrate=False, embedder=pieces)
    try:
        ws, ann, _ = _record(mw)
        while mw.worker().run_once():
            pass
        with mw.rt.db.read() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(kept_turns)).scalar() == 3
    finally:
        mw.close()
    read: list[int] = []
    real = record_store.turns_of
    monkeypatch.setattr(record_store, "turns_of", lambda *a: read.append(len(a[2])) or real(*a))
    cold = Memwise.open(database_url, clock=clock, migrate=False, embedder=pieces)
    try:
        kept = _ranked(cold, ws, ann)
        assert read == [0]  # no conversation read from the record: all three were kept
        assert kept[0] and "Trek" in cold.history.recall(ws, ann, QUESTIONS[0])[0].text
    finally:
        cold.close()
    with Memwise.open(database_url, clock=clock, migrate=False, embedder=pieces) as fresh:
        with fresh.rt.db.write() as conn:
            conn.execute(kept_turns.delete())
        assert _ranked(fresh, ws, ann) == kept  # the same order and scores from the record


def test_turns_not_kept_whole_are_read_and_found(database_url: str, clock: FixedClock) -> None:
    pieces = PieceEmbedder()
    with Memwise.open(database_url, clock=clock, migrate=False, embedder=pieces) as mw:
        ws, ann, last = _record(mw)
        while mw.worker().run_once():
            pass
        with mw.rt.db.write() as conn:  # kept before its last turn (as a copy could be)
            conn.execute(
                kept_turns.update()
                .where(kept_turns.c.conversation_id == last)
                .values(upto_seq=kept_turns.c.upto_seq - 1)
            )
        agent = mw.tenancy.create_agent(ws, "Max")  # and an open conversation, never kept
        conv, _ = mw.record.start(ws, agent.id, "web", contact_id=ann)
        mw.record.append(ws, conv.id, "customer", "My new address is 4 Elm Road, Leeds.")
    with Memwise.open(database_url, clock=clock, migrate=False, embedder=pieces) as cold:
        found = [h.text for h in cold.history.recall(ws, ann, "is the warranty two years?")]
        assert "Yes, two years on frames." in found[:2]
        assert "Elm Road" in cold.history.recall(ws, ann, "what is my new address?")[0].text
        with cold.rt.db.read() as conn:
            said, newest = conn.execute(
                sa.select(conversations.c.said, conversations.c.said_seq).where(
                    conversations.c.id == last
                )
            ).one()
            kept = conn.execute(
                sa.select(kept_turns.c.turns, kept_turns.c.upto_seq).where(
                    kept_turns.c.conversation_id == last
                )
            ).one()
            opened = conn.execute(
                sa.select(sa.func.count())
                .select_from(kept_turns)
                .where(kept_turns.c.conversation_id == conv.id)
            ).scalar()
        assert (said, newest) == tuple(kept)  # read again whole, and kept again by that recall
        assert opened == 0  # an open conversation is read each time, never kept


def test_without_an_embedder_a_recall_keeps_what_it_read(
    database_url: str, clock: FixedClock
) -> None:
    with Memwise.open(database_url, clock=clock, migrate=False) as mw:
        ws, ann, _ = _record(mw)
        assert "Trek" in mw.history.recall(ws, ann, QUESTIONS[0])[0].text
        with mw.rt.db.read() as conn:
            rows = conn.execute(sa.select(kept_turns.c.embedder, kept_turns.c.turns)).all()
        assert sorted(rows) == [(None, 2)] * 3  # terms only
    with Memwise.open(database_url, clock=clock, migrate=False) as cold:
        assert "Trek" in cold.history.recall(ws, ann, QUESTIONS[0])[0].text


def test_a_damaged_kept_value_is_read_again_from_the_record(
    database_url: str, clock: FixedClock
) -> None:
    with Memwise.open(database_url, clock=clock, migrate=False) as mw:
        ws, ann, _ = _record(mw)
        mw.history.recall(ws, ann, QUESTIONS[0])
        with mw.rt.db.write() as conn:
            conn.execute(kept_turns.update().values(data=b"MWKT\x01\x05\x00\x00\x00junk"))
    with Memwise.open(database_url, clock=clock, migrate=False) as cold:
        assert "Trek" in cold.history.recall(ws, ann, QUESTIONS[0])[0].text


def test_a_data_request_deletes_what_was_kept(database_url: str, clock: FixedClock) -> None:
    with Memwise.open(database_url, clock=clock, migrate=False) as mw:
        ws, ann, _ = _record(mw)
        mw.history.recall(ws, ann, QUESTIONS[0])
        mw.data_requests.delete(ws, ann, actor="test")
        with mw.rt.db.read() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(kept_turns)).scalar() == 0


def test_a_recall_that_cannot_keep_what_it_read_still_answers(
    database_url: str, clock: FixedClock, monkeypatch
) -> None:
    from memwise._storage.stores import record as record_store

    def taken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise sa.exc.IntegrityError("INSERT INTO kept_turns", {}, Exception("duplicate key"))

    monkeypatch.setattr(record_store, "keep_turns", taken)  # another process kept it first
    with Memwise.open(database_url, clock=clock, migrate=False) as mw:
        ws, ann, _ = _record(mw)
        assert "Trek" in mw.history.recall(ws, ann, QUESTIONS[0])[0].text
