"""Offline extractor quality on the hand-labelled corpora, and worker throughput.

    python bench/extraction_bench.py [--throughput 300] [--backends sqlite,postgresql]

Quality: precision and recall of the rule extractor through the real pipeline (recorded,
ended, queued, extracted, quote-checked, applied). Throughput: conversations extracted per
second with 1 and 2 workers (threads, each with its own worker name and connections).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))  # tools/

from tools.extraction_eval import evaluate

from _common import database, table
from memwise import FixedClock, Memwise
from memwise._services.conversation.record import NewTurn

DATA = Path(__file__).parent.parent / "tests" / "data"
SAID = datetime(2026, 11, 29, 10, 0, tzinfo=ZoneInfo("Europe/Berlin"))


def quality(tmp: Path) -> None:
    rows = []
    for name in ("extraction_corpus.json", "extraction_corpus_holdout.json"):
        corpus = json.loads((DATA / name).read_text())
        with database("sqlite", tmp) as url:
            mw = Memwise.open(url, clock=FixedClock(SAID))
            r = evaluate(mw, corpus, SAID)
            mw.close()
        rows.append(
            [
                name,
                str(r.cases),
                f"{r.precision:.3f}",
                f"{r.recall:.3f}",
                str(r.forbidden),
                f"{r.superseded_ok}/{r.superseded_expected}",
            ]
        )
        for f in r.failures:
            print(f"  {name}: {f}")
    table(
        "Offline extractor on hand-labelled conversations",
        [
            "corpus",
            "conversations",
            "precision",
            "recall",
            "forbidden stored",
            "corrections superseded",
        ],
        rows,
    )


def throughput(backend: str, n: int, workers: int, tmp: Path, warm: int = 0) -> str:
    """Conversations extracted per second; ``warm``: that many are extracted first, untimed
    (the models a process loads once — language detector, date parser, parser, embedder —
    are then loaded: the steady state)."""
    corpus = json.loads((DATA / "extraction_corpus.json").read_text())
    rng = random.Random(3)
    with database(backend, tmp) as url:
        mw = Memwise.open(url, clock=FixedClock(SAID))
        ws, _ = mw.tenancy.create_workspace("T", "Europe/Berlin", "enterprise")
        agent = mw.tenancy.create_agent(
            ws.id, "Eve", memory_enabled=True, domain="retail", business_intelligence=True
        )
        for i in range(warm):
            contact = mw.tenancy.create_contact(ws.id, f"W{i}")
            conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact.id)
            case = corpus[i % len(corpus)]
            mw.record.append_many(ws.id, conv.id, [NewTurn(r, t) for r, t in case["turns"]])
            mw.record.end(ws.id, conv.id)
        if warm:
            mw.worker(name="warm").run_once()
        for i in range(n):
            case = rng.choice(corpus)
            contact = mw.tenancy.create_contact(ws.id, f"C{i}")
            conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact.id)
            mw.record.append_many(ws.id, conv.id, [NewTurn(r, t) for r, t in case["turns"]])
            mw.record.end(ws.id, conv.id)
        done: list[int] = []

        def run(k: int) -> None:
            counts = mw.worker(name=f"bench-{k}").run_once()
            done.append(sum(counts.values()))

        t0 = time.perf_counter()
        threads = [threading.Thread(target=run, args=(k,)) for k in range(workers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        took = time.perf_counter() - t0
        extracted = [
            j
            for j in mw.jobs.find(ws.id, kind="extract", limit=n + warm + 10)
            if j.status == "done"
        ]
        mw.close()
    assert len(extracted) == n + warm, len(extracted)
    return f"{n / took:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--throughput", type=int, default=300)
    ap.add_argument("--backends", default="sqlite,postgresql")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        quality(Path(tmp))
        rows = []
        for backend in args.backends.split(","):
            rows.append(
                [backend]
                + [throughput(backend, args.throughput, w, Path(tmp)) for w in (1, 2)]
                + [throughput(backend, args.throughput, 1, Path(tmp), warm=20)]
            )
        table(
            f"Worker throughput, offline extractor ({args.throughput} conversations)",
            ["backend", "1 worker conv/s", "2 workers conv/s", "1 worker, warm"],
            rows,
        )


if __name__ == "__main__":
    main()
