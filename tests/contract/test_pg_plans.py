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
