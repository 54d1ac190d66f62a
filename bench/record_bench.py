"""Record benchmark: turns appended per second (single, batched) and search p50/p95, with
the search's recency-bounded candidates beside the previous rule (the newest 1,000 matches
ranked, from the whole record at once on PostgreSQL) in the same run.

python bench/record_bench.py [--sizes 100000,1000000] [--backends sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import analyze, console, database, percentiles, queries, sentence, table, timed
from memwise import Memwise
from memwise._services.conversation.record import NewTurn
from memwise._storage import search

RULES = ("bounded", "before")

BATCH = 1000
TURNS_PER_CONVERSATION = 100


def run(backend: str, sizes: list[int], tmp: Path) -> list[list[str]]:
    rows: list[list[str]] = []
    rng = random.Random(7)
    with database(backend, tmp) as url:
        mw = Memwise.open(url)
        ws, _ = mw.tenancy.create_workspace("Bench")
        agent = mw.tenancy.create_agent(ws.id, "Eve")
        contact = mw.tenancy.create_contact(ws.id, "Ann")
        conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact.id)

        single = timed(lambda: mw.record.append(ws.id, conv.id, "customer", sentence(rng)), 500)
        single_rate = len(single) / sum(single)

        total = 0
        batched_time = 0.0
        for size in sorted(sizes):
            while total < size:
                c, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact.id)
                done = 0
                while done < TURNS_PER_CONVERSATION * 10 and total < size:
                    n = min(BATCH, size - total)
                    batch = [NewTurn("customer", sentence(rng)) for _ in range(n)]
                    t0 = time.perf_counter()
                    mw.record.append_many(ws.id, c.id, batch)
                    batched_time += time.perf_counter() - t0
                    total += n
                    done += n
                if console.is_terminal:
                    console.print(f"  {backend}: {total:,} turns", end="\r")
            batched_rate = total / batched_time
            if backend == "postgresql":  # what autovacuum would do after a bulk load
                analyze(mw.rt.db.engine, "turns")
            mw.rt.db.backend.forget_statistics()
            for rule in RULES:
                figures = []
                with previous_rule(mw) if rule == "before" else nullcontext():
                    for kind in ("specific", "common"):
                        qs = queries(random.Random(size), kind, 220)  # the same for each rule
                        for q in qs[:20]:
                            mw.record.search(ws.id, q)  # warm up
                        it = iter(qs[20:])
                        figures += percentiles(
                            timed(lambda it=it: mw.record.search(ws.id, next(it)), 200)  # type: ignore[misc]
                        )
                rows.append(
                    [backend, f"{size:,}", rule, f"{single_rate:,.0f}", f"{batched_rate:,.0f}"]
                    + [f"{f:.2f}" for f in figures]
                )
        mw.close()
    return rows


@contextmanager
def previous_rule(mw: Memwise) -> Iterator[None]:
    """The search as it was: the newest 1,000 matches ranked; windows widened tenfold
    (SQLite, from 50,000) or the whole record at once (PostgreSQL)."""
    backend = mw.rt.db.backend
    saved = (search.ENOUGH, search.GROW)
    search.ENOUGH, search.GROW = search.RANKED_CANDIDATES, 10
    if backend.name == "postgresql":
        backend.first_window = lambda conn, q: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        search.ENOUGH, search.GROW = saved
        backend.__dict__.pop("first_window", None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--backends", default="sqlite,postgresql")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows: list[list[str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for backend in args.backends.split(","):
            rows += run(backend, sizes, Path(tmp))
    table(
        "Record: append throughput and search latency",
        [
            "backend",
            "turns",
            "search",
            "single turns/s",
            "batched turns/s",
            "specific p50 ms",
            "specific p95 ms",
            "common p50 ms",
            "common p95 ms",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
