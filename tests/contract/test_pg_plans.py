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
    from memwise.services.conversation.record import NewTurn

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
