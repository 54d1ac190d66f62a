"""A contact's first record recall (cold: their index not yet built in this process) and the
recalls after it (warm), with the default embedder, on both backends.

    python bench/recall_cold.py [--contacts 8] [--turns 500] [--backends sqlite,postgresql]

Each contact has ``turns`` turns in conversations of 10; the worker then embeds and keeps
every ended conversation (as it does in production), so a cold recall joins the kept
conversations (terms, vectors, piece ids), builds the index (BM25 postings, smoothed
vectors) and loads the word pieces of the candidates late interaction reorders. Cold is
timed once per contact after the process is open and settled (``memwise._bootstrap.settle``,
as the server and the worker do) and another contact was recalled; warm over 40 questions
on one contact right after its cold recall. Times include embedding the question, timed on
its own in the last column.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import sqlalchemy as sa

from _common import database, percentiles, sentence, table
from memwise import Memwise
from memwise._bootstrap import settle
from memwise._retrieval.embedders import MiniLMEmbedder


def run(backend: str, contacts: int, turns: int, tmp: Path, embedder: MiniLMEmbedder) -> list[str]:
    rng = random.Random(3)
    with database(backend, tmp) as url:
        mw = Memwise.open(url, embedder=embedder)
        ws, _ = mw.tenancy.create_workspace("Cold")
        agent = mw.tenancy.create_agent(ws.id, "Eve")
        ids = []
        for c in range(contacts):
            contact = mw.tenancy.create_contact(ws.id, f"Ann Customer{c}")
            ids.append(contact.id)
            for _ in range(turns // 10):
                conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact.id)
                for t in range(10):
                    role = "customer" if t % 2 == 0 else "assistant"
                    mw.record.append(ws.id, conv.id, role, sentence(rng, rng.randint(8, 30)))
                mw.record.end(ws.id, conv.id)
        worker = mw.worker()
        while worker.run_once():
            pass
        if backend == "postgresql":  # the statistics autovacuum keeps on a live database
            with mw.rt.db.write() as conn:
                conn.execute(sa.text("ANALYZE"))
        mw.close()
        mw = Memwise.open(url, embedder=embedder, migrate=False)
        settle()  # as the server and the worker do once they are open
        mw.history.recall(ws.id, ids[0], "warm the process")
        cold = []
        for contact_id in ids[1:]:
            t0 = time.perf_counter()
            mw.history.recall(ws.id, contact_id, sentence(rng, 8))
            cold.append(time.perf_counter() - t0)
        warm = []
        for _ in range(40):
            question = sentence(rng, 8)
            t0 = time.perf_counter()
            mw.history.recall(ws.id, ids[1], question)
            warm.append(time.perf_counter() - t0)
        asked = []  # the question's own embedding, which every recall includes
        for _ in range(40):
            question = sentence(rng, 8)
            t0 = time.perf_counter()
            embedder.embed_tokens([question])
            asked.append(time.perf_counter() - t0)
        mw.close()
    c50, c95 = percentiles(cold)
    w50, w95 = percentiles(warm)
    q50, _ = percentiles(asked)
    return [
        backend,
        str(turns),
        f"{c50:.0f}",
        f"{c95:.0f}",
        f"{w50:.1f}",
        f"{w95:.1f}",
        f"{q50:.1f}",
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--contacts", type=int, default=8)
    ap.add_argument("--turns", type=int, default=500)
    ap.add_argument("--backends", default="sqlite,postgresql")
    args = ap.parse_args()
    embedder = MiniLMEmbedder()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for backend in args.backends.split(","):
            rows.append(run(backend, args.contacts, args.turns, Path(tmp), embedder))
    table(
        "A contact's record recall, cold and warm (default embedder)",
        [
            "backend",
            "turns",
            "cold p50 ms",
            "cold p95 ms",
            "warm p50 ms",
            "warm p95 ms",
            "of which the question's embedding (p50 ms)",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
