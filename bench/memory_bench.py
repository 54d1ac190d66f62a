"""Recall and context assembly for one turn at 10k, 100k and 1M memory items over 100k
contacts, on both backends, with a plot of cost against size.

    python bench/memory_bench.py [--sizes 10000,100000,1000000] [--backends sqlite,postgresql]
                                 [--plot bench/out/scale.png]

Items are bulk-inserted straight into the table (the write path's validation is not what is
measured here); recall then runs through the library exactly as a turn would.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import analyze, database, percentiles, sentence, table, timed
from memwise import Memwise
from memwise._ids import new_id
from memwise._policies.notebook import normalize
from memwise._storage.schema import contacts, memory_items

CONTACTS = 100_000
KINDS = ["preference", "fact", "event", "task", "note"]


def load(
    mw: Memwise, ws: str, start: int, stop: int, contact_ids: list[str], rng: random.Random
) -> None:
    now = mw.clock.now()
    batch = []
    for _ in range(start, stop):
        text = sentence(rng, rng.randint(4, 12))
        batch.append(
            {
                "id": new_id("mem"),
                "workspace_id": ws,
                "contact_id": rng.choice(contact_ids),
                "kind": rng.choice(KINDS),
                "scope": "contact",
                "text": text,
                "normalized": normalize(text),
                "key": None,
                "source": "operator",
                "evidence": [],
                "entities": [],
                "labels": {},
                "recorded_at": now,
                "last_mentioned_at": now,
                "lifecycle": "active",
                "conflicted": False,
                "edited": False,
            }
        )
        if len(batch) == 5000:
            with mw.rt.db.write() as conn:
                conn.execute(memory_items.insert(), batch)
            batch = []
    if batch:
        with mw.rt.db.write() as conn:
            conn.execute(memory_items.insert(), batch)


def run(backend: str, sizes: list[int], tmp: Path) -> list[list[str]]:
    rows = []
    rng = random.Random(11)
    with database(backend, tmp) as url:
        mw = Memwise.open(url)
        ws, _ = mw.tenancy.create_workspace("Bench")
        ids = [new_id("con") for _ in range(CONTACTS)]
        now = mw.clock.now()
        with mw.rt.db.write() as conn:
            conn.execute(
                contacts.insert(),
                [
                    {"id": i, "workspace_id": ws.id, "name": f"C{n}", "created_at": now}
                    for n, i in enumerate(ids)
                ],
            )
        agent = mw.tenancy.create_agent(ws.id, "Eve")
        talking = rng.sample(ids, 300)
        conversation_of = {
            c: mw.record.start(ws.id, agent.id, "web", contact_id=c)[0].id for c in talking
        }
        loaded = 0
        for size in sorted(sizes):
            load(mw, ws.id, loaded, size, ids, rng)
            loaded = size
            if backend == "postgresql":
                analyze(mw.rt.db.engine, "memory_items")
            requests = [sentence(rng, 6) for _ in range(320)]
            it = iter(zip(requests, (rng.choice(ids) for _ in requests), strict=False))

            def one(it=it):  # type: ignore[no-untyped-def]
                request, contact = next(it)
                return mw.recaller.recall(ws.id, contact, request)

            for _ in range(20):
                one()
            p50, p95 = percentiles(timed(one, 300))
            turns = iter([(sentence(rng, 8), rng.choice(talking)) for _ in range(220)])

            def assemble(turns=turns):  # type: ignore[no-untyped-def]
                request, contact = next(turns)
                return mw.assistant.context(ws.id, conversation_of[contact], request)

            for _ in range(20):
                assemble()
            c50, c95 = percentiles(timed(assemble, 200))
            per_contact = size / CONTACTS
            rows.append(
                [
                    backend,
                    f"{size:,}",
                    f"{per_contact:.1f}",
                    f"{p50:.2f}",
                    f"{p95:.2f}",
                    f"{c50:.2f}",
                    f"{c95:.2f}",
                ]
            )
        mw.close()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--backends", default="sqlite,postgresql")
    ap.add_argument("--plot", type=Path, default=None, help="write a PNG (needs matplotlib)")
    args = ap.parse_args()
    rows: list[list[str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for backend in args.backends.split(","):
            rows += run(backend, [int(s) for s in args.sizes.split(",")], Path(tmp))
    table(
        "Recall and context assembly for one turn (100k contacts)",
        [
            "backend",
            "items",
            "items per contact",
            "recall p50 ms",
            "recall p95 ms",
            "context p50 ms",
            "context p95 ms",
        ],
        rows,
    )
    if args.plot:
        plot(rows, args.plot)


def plot(rows: list[list[str]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for backend in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == backend]
        sizes = [int(r[1].replace(",", "")) for r in mine]
        for col, label, style in ((4, "recall p95", "o-"), (6, "context p95", "s--")):
            ax.plot(sizes, [float(r[col]) for r in mine], style, label=f"{backend} {label}")
    ax.set_xscale("log")
    ax.set_xlabel("memory items in the workspace")
    ax.set_ylabel("ms per turn")
    ax.set_title("Cost per turn against size (100k contacts)")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


if __name__ == "__main__":
    main()
