"""Record search on PostgreSQL: memwise's recency-bounded candidates beside monthly
partitions of the record, in the same run, on the same turns and questions.

The record is append-only and its sequence numbers follow time, so a month of turns is a
range of sequence numbers: the partitioned copy splits the turns into ``--months`` equal
ranges (``PARTITION BY RANGE (seq)``), each with its own full-text (GIN) index. Its search
reads the newest month first and the next older while fewer than ``search.ENOUGH`` matches
are found (each month's own index, pruned to that month), ranks the matches as memwise
does, and highlights the best from the record itself — the same last step as memwise's.

python bench/record_partitions.py [--turns 1000000] [--months 12]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).parent))

from _common import analyze, console, database, percentiles, queries, sentence, table, timed
from memwise import Memwise
from memwise._services.conversation.record import NewTurn
from memwise._storage import search

BATCH = 1000
LIMIT = 10

_PARTITIONED = """
CREATE TABLE turns_monthly (
    seq bigint NOT NULL,
    workspace_id text NOT NULL,
    text_tsv tsvector
) PARTITION BY RANGE (seq)
"""

_MONTH = sa.text(
    "SELECT t.seq, ts_rank_cd(t.text_tsv, q.query) AS score "
    "FROM turns_monthly t, (SELECT plainto_tsquery('english', :q) AS query) q "
    "WHERE t.text_tsv @@ q.query AND t.seq > :above AND t.seq <= :below "
    "AND t.workspace_id = :ws ORDER BY t.seq DESC LIMIT :cap"
)


def load(mw: Memwise, turns: int, rng: random.Random) -> str:
    ws, _ = mw.tenancy.create_workspace("Bench")
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    contact = mw.tenancy.create_contact(ws.id, "Ann")
    total = 0
    while total < turns:  # a conversation of BATCH turns at a time
        conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact.id)
        n = min(BATCH, turns - total)
        mw.record.append_many(
            ws.id, conv.id, [NewTurn("customer", sentence(rng)) for _ in range(n)]
        )
        total += n
        if console.is_terminal:
            console.print(f"  {total:,} turns", end="\r")
    return ws.id


def partition(engine: sa.engine.Engine, months: int) -> list[tuple[int, int]]:
    """The partitioned copy: ``months`` equal ranges of seq, each with its GIN index."""
    with engine.begin() as c:
        lo, hi = c.execute(sa.text("SELECT min(seq), max(seq) FROM turns")).one()
        c.exec_driver_sql("DROP TABLE IF EXISTS turns_monthly")
        c.exec_driver_sql(_PARTITIONED)
        size = (hi - lo + months) // months
        bounds = [(lo - 1 + i * size, min(hi, lo - 1 + (i + 1) * size)) for i in range(months)]
        for i, (a, b) in enumerate(bounds):
            c.exec_driver_sql(
                f"CREATE TABLE turns_m{i} PARTITION OF turns_monthly "
                f"FOR VALUES FROM ({a + 1}) TO ({b + 1})"
            )
        c.exec_driver_sql(
            "INSERT INTO turns_monthly SELECT seq, workspace_id, text_tsv FROM turns "
            "WHERE text_tsv IS NOT NULL"
        )
        c.exec_driver_sql("CREATE INDEX ix_turns_monthly_tsv ON turns_monthly USING gin (text_tsv)")
        c.exec_driver_sql("CREATE INDEX ix_turns_monthly_seq ON turns_monthly (seq)")
    analyze(engine, "turns_monthly")
    return bounds


def monthly_search(mw: Memwise, bounds: list[tuple[int, int]], ws: str) -> Callable[[str], int]:
    backend = mw.rt.db.backend

    def run(query: str) -> int:
        q = backend.prepare(query)
        found: list[tuple[int, float]] = []
        with mw.rt.db.read() as conn:
            backend.custom_plans(conn)  # as memwise's own search plans for its words
            for above, below in reversed(bounds):  # the newest month first
                params = {
                    "q": q,
                    "ws": ws,
                    "above": above,
                    "below": below,
                    "cap": search.RANKED_CANDIDATES - len(found),
                }
                found += [(r.seq, r.score) for r in conn.execute(_MONTH, params)]
                if len(found) >= search.ENOUGH:
                    break
            best = sorted(found, key=lambda p: (-p[1], -p[0]))[:LIMIT]
            if best:
                backend.show(conn, q, [s for s, _ in best])
        return len(best)

    return run


def index_mb(engine: sa.engine.Engine, like: str) -> float:
    with engine.connect() as c:
        size = c.execute(
            sa.text(
                "SELECT coalesce(sum(pg_relation_size(indexrelid)), 0) FROM pg_index i "
                "JOIN pg_class r ON r.oid = i.indrelid WHERE r.relname LIKE :like "
                "AND i.indexrelid::regclass::text LIKE '%tsv%'"
            ),
            {"like": like},
        ).scalar_one()
    return float(size) / 2**20


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--turns", type=int, default=1_000_000)
    ap.add_argument("--months", type=int, default=12)
    args = ap.parse_args()
    rows: list[list[str]] = []
    with tempfile.TemporaryDirectory() as tmp, database("postgresql", Path(tmp)) as url:
        mw = Memwise.open(url)
        ws = load(mw, args.turns, random.Random(7))
        analyze(mw.rt.db.engine, "turns")
        mw.rt.db.backend.forget_statistics()
        t0 = time.perf_counter()
        bounds = partition(mw.rt.db.engine, args.months)
        built = time.perf_counter() - t0
        monthly = monthly_search(mw, bounds, ws)

        def bounded(query: str) -> int:
            return len(mw.record.search(ws, query, limit=LIMIT))

        variants: list[tuple[str, Callable[[str], int], str, str]] = [
            (
                "memwise: recency-bounded windows",
                bounded,
                f"{index_mb(mw.rt.db.engine, 'turns'):.0f}",
                "—",
            ),
            (
                f"monthly partitions ({args.months}, each its own GIN)",
                monthly,
                f"{index_mb(mw.rt.db.engine, 'turns_m%'):.0f}",
                f"{built:.0f}",
            ),
        ]
        for name, fn, mb, build_s in variants:
            figures: list[float] = []
            for kind in ("specific", "common"):
                qs = queries(random.Random(args.turns), kind, 220)  # the same for each variant
                for q in qs[:20]:
                    fn(q)  # warm up
                it = iter(qs[20:])
                figures += percentiles(timed(lambda it=it, fn=fn: fn(next(it)), 200))  # type: ignore[misc]
            rows.append([name, f"{args.turns:,}", *[f"{f:.2f}" for f in figures], mb, build_s])
        mw.close()
    table(
        "Record search on PostgreSQL: recency-bounded windows beside monthly partitions",
        [
            "candidates",
            "turns",
            "specific p50 ms",
            "specific p95 ms",
            "common p50 ms",
            "common p95 ms",
            "full-text index MB",
            "build s",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
