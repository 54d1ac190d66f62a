"""The worker's vector sweep reads an index, not the table (both backends): every query it
runs for memory items and knowledge chunks is planned on the (…, embedder, seq) index, with
sequential and bitmap scans discouraged on PostgreSQL (its planner scans a small table
anyway)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from memwise import Memwise
from memwise._storage.stores import knowledge as knowledge_store
from memwise._storage.stores import memory_items as item_store


def _plans(mw: Memwise, find: Any) -> list[str]:
    statements: list[tuple[str, Any]] = []

    def seen(conn: Any, cursor: Any, statement: str, params: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            statements.append((statement, params))

    engine = mw.rt.db.engine
    sa.event.listen(engine, "before_cursor_execute", seen)
    try:
        with mw.rt.db.read() as conn:
            find(conn)
    finally:
        sa.event.remove(engine, "before_cursor_execute", seen)
    assert len(statements) == 3  # no vector; an embedder named before; one named after
    plans = []
    with engine.connect() as raw:
        sqlite = engine.dialect.name == "sqlite"
        if not sqlite:  # its planner weighs a small table's statistics: scans discouraged
            raw.exec_driver_sql("SET enable_seqscan = off")
            raw.exec_driver_sql("SET enable_bitmapscan = off")
        for statement, params in statements:
            explain = "EXPLAIN QUERY PLAN " if sqlite else "EXPLAIN "
            rows = raw.exec_driver_sql(explain + statement, params).all()
            plans.append(" ".join(str(r[-1]) for r in rows))
    return plans


def test_the_sweep_reads_the_embedder_index(mw: Memwise) -> None:
    """The worker's sweep over every workspace (one workspace's, ``memwise worker
    --workspace``, reads that workspace's rows by its own index), on tables that hold rows
    without vectors and rows with them, their statistics taken."""
    ws, _ = mw.tenancy.create_workspace("Sweep", "UTC")
    for n in range(30):
        mw.knowledge.add_document(ws.id, kind="faq", title=f"Q{n}", body=f"A{n}.", version="1")
    with mw.rt.db.write() as conn:
        conn.exec_driver_sql("ANALYZE")
    for find, index in (
        (lambda c: item_store.unembedded(c, "minilm", 256), "ix_memory_items_embedder"),
        (lambda c: knowledge_store.unembedded_chunks(c, "m", 256), "ix_knowledge_chunks_embedder"),
    ):
        for plan in _plans(mw, find):
            assert index in plan, plan
