"""On PostgreSQL, lookups may settle on generic plans, but a search plans for its own words,
for the rest of its transaction only."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from memwise import Memwise


def _mode(conn: sa.Connection) -> str:
    return str(conn.exec_driver_sql("SHOW plan_cache_mode").scalar())


@pytest.mark.postgres
def test_a_search_asks_for_custom_plans_in_its_own_transaction(pg_mw: Memwise) -> None:
    mw = pg_mw
    ws, _ = mw.tenancy.create_workspace("Plans")
    mw.knowledge.add_document(
        ws.id, kind="policy", title="Ferry", body="The ferry leaves.", version="1"
    )
    mw.rt.db.engine.dispose()
    for _ in range(3):  # the same pooled connection, transaction after transaction
        with mw.rt.db.read() as conn:
            assert _mode(conn) == "auto"
            mw.rt.db.backend.knowledge_candidates(conn, ws.id, "ferry leaves", 10)
            assert _mode(conn) == "force_custom_plan"
        with mw.rt.db.write() as conn:
            with pytest.raises(RuntimeError), conn.begin_nested():
                mw.rt.db.backend.knowledge_candidates(conn, ws.id, "ferry", 10)
                raise RuntimeError  # the savepoint rolls back, and its SET LOCAL with it
            assert _mode(conn) == "auto"
            mw.rt.db.backend.knowledge_candidates(conn, ws.id, "ferry", 10)
            assert _mode(conn) == "force_custom_plan"
    assert mw.knowledge.search(ws.id, "ferry", recipe="lexical")


@pytest.mark.postgres
def test_record_search_windows_follow_the_lexeme_statistics(pg_mw: Memwise) -> None:
    """Common words start in a short recent window sized by the planner's statistics and
    walked newest first (bitmaps off for that statement only); a rare word (not among the
    most common lexemes) searches the whole record at once."""
    from memwise._services.conversation.record import NewTurn

    mw = pg_mw
    ws, _ = mw.tenancy.create_workspace("Stats")
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    contact = mw.tenancy.create_contact(ws.id, "Ann")
    conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact.id)
    turns = [NewTurn("customer", f"order parcel word{n} status") for n in range(3000)]
    mw.record.append_many(ws.id, conv.id, turns)
    with mw.rt.db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
        c.execute(sa.text("ANALYZE turns"))
    backend = mw.rt.db.backend
    backend.forget_statistics()
    with mw.rt.db.read() as conn:
        common = backend.first_window(conn, backend.prepare("order parcel"))
        rare = backend.first_window(conn, backend.prepare("word17"))
        newest = backend.newest_seq(conn)
        assert newest is not None and common is not None
        found = backend.candidates(
            conn,
            backend.prepare("order parcel"),
            ws.id,
            None,
            newest - common,
            newest,
            50,
            common,
        )
        assert len(found) == 50
        assert str(conn.exec_driver_sql("SHOW enable_bitmapscan").scalar()) == "on"
    assert 100 <= common < 1500 and rare is None
    assert len(mw.record.search(ws.id, "order parcel", limit=10)) == 10
    assert mw.record.search(ws.id, "word17")[0].highlight.count("<mark>") == 1


@pytest.mark.postgres
def test_a_common_word_sample_is_read_from_the_index_for_that_statement_only(
    pg_mw: Memwise, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A question whose every word is in some of the chunks ranks a sample read from the
    full-text index (walking the table is turned off for that one statement); a word in
    nearly every chunk leaves the planner its walk."""
    from memwise._storage import postgres

    mw = pg_mw
    ws, _ = mw.tenancy.create_workspace("Samples")
    for i in range(60):
        body = f"Harbour ferry {i} leaves daily." if i % 4 == 0 else f"Harbour note {i}."
        mw.knowledge.add_document(ws.id, kind="policy", title=f"Note {i}", body=body, version="1")
    with mw.rt.db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
        c.execute(sa.text("ANALYZE knowledge_chunks"))
    backend = mw.rt.db.backend
    backend.forget_statistics()
    monkeypatch.setattr(postgres, "SAMPLE", 5)
    monkeypatch.setattr(postgres, "COMMON_ROWS", 1)
    seen: list[tuple[str, bool, str, str]] = []
    real = postgres._ranked

    def spy(conn: sa.Connection, *args: object) -> list[tuple[int, float]]:
        found = real(conn, *args)  # type: ignore[arg-type]
        seen.append(
            (
                str(args[1]),
                bool(args[4:] and args[4]),
                str(conn.exec_driver_sql("SHOW enable_seqscan").scalar()),
                str(conn.exec_driver_sql("SHOW enable_indexscan").scalar()),
            )
        )
        return found

    monkeypatch.setattr(postgres, "_ranked", spy)
    with mw.rt.db.read() as conn:
        found = backend.knowledge_candidates(conn, ws.id, "harbour ferry", 10)
    assert len(found) >= 5
    assert seen[0][:2] == ("ferry & harbour", True)  # every word: the sample from the index
    assert all(s[2:] == ("on", "on") for s in seen)  # restored after the statement
    assert postgres._bitmap(matches=15, rows=60)  # a quarter of the chunks: the index
    assert not postgres._bitmap(matches=60, rows=60)  # every chunk: the walk is cheaper
    assert postgres._bitmap(matches=0, rows=0)
