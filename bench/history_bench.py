"""Record recall cost against workspace size: one contact's warm recall as the workspace grows.

python bench/history_bench.py [--sizes 25000,200000] [--backends sqlite,postgresql]

The workspace's other contacts add turns; the measured contact keeps 500 turns. Warm recall
(the contact's index built, the record unchanged) should cost the same at every size. The
"workspace-scoped check" column times the cache-validity query as it was written before
(filtered on turns.workspace_id, which SQLite plans as a scan of the workspace), side by
side in the same run.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import sqlalchemy as sa

from _common import analyze, console, database, percentiles, sentence, table, timed
from memwise import Memwise
from memwise._services.conversation.record import NewTurn
from memwise._storage.schema import conversations, turns

TURNS_PER_CONTACT = 500
CONVERSATIONS_PER_CONTACT = 10


def fill(mw: Memwise, ws: str, agent: str, contacts: int, rng: random.Random) -> str:
    """``contacts`` contacts of TURNS_PER_CONTACT turns each; returns the last contact's id."""
    last = ""
    per_conv = TURNS_PER_CONTACT // CONVERSATIONS_PER_CONTACT
    for _ in range(contacts):
        contact = mw.tenancy.create_contact(ws, "Ann")
        for _ in range(CONVERSATIONS_PER_CONTACT):
            conv, _ = mw.record.start(ws, agent, "web", contact_id=contact.id)
            batch = [
                NewTurn("customer" if i % 2 == 0 else "assistant", sentence(rng))
                for i in range(per_conv)
            ]
            mw.record.append_many(ws, conv.id, batch)
        last = contact.id
    return last


def legacy_check(mw: Memwise, ws: str, contact: str) -> None:
    joined = turns.join(conversations, conversations.c.id == turns.c.conversation_id)
    with mw.rt.db.read() as conn:
        conn.execute(
            sa.select(sa.func.count(), sa.func.max(turns.c.seq))
            .select_from(joined)
            .where(
                turns.c.workspace_id == ws,
                conversations.c.contact_id == contact,
                turns.c.text.is_not(None),
            )
        ).one()


def run(backend: str, sizes: list[int], tmp: Path) -> list[list[str]]:
    rows: list[list[str]] = []
    rng = random.Random(11)
    with database(backend, tmp) as url:
        mw = Memwise.open(url)
        ws, _ = mw.tenancy.create_workspace("Bench")
        agent = mw.tenancy.create_agent(ws.id, "Eve").id
        target = fill(mw, ws.id, agent, 1, rng)
        total = TURNS_PER_CONTACT
        questions = [sentence(rng, 6) for _ in range(50)]
        for size in sorted(sizes):
            if size > total:
                fill(mw, ws.id, agent, (size - total) // TURNS_PER_CONTACT, rng)
                total = size
            if backend == "postgresql":
                analyze(mw.rt.db.engine)
            mw.history.recall(ws.id, target, questions[0])  # build the index once
            it = iter(questions * 4)
            warm = timed(lambda it=it: mw.history.recall(ws.id, target, next(it)), 200)  # type: ignore[misc]
            check = timed(lambda: mw.history.prepare(ws.id, target), 200)
            legacy = timed(lambda: legacy_check(mw, ws.id, target), 50)
            p50, p95 = percentiles(warm)
            c50, c95 = percentiles(check)
            l50, l95 = percentiles(legacy)
            rows.append(
                [
                    backend,
                    f"{total:,}",
                    f"{p50:.2f}",
                    f"{p95:.2f}",
                    f"{c50:.2f} / {c95:.2f}",
                    f"{l50:.2f} / {l95:.2f}",
                    f"{l50 / max(c50, 1e-6):.0f}x",
                ]
            )
        mw.close()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="25000,200000")
    ap.add_argument("--backends", default="sqlite,postgresql")
    a = ap.parse_args()
    sizes = [int(x) for x in a.sizes.split(",")]
    rows: list[list[str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for backend in a.backends.split(","):
            console.print(f"[dim]{backend}: filling up to {max(sizes):,} turns…[/]")
            rows += run(backend, sizes, Path(tmp))
    table(
        "One contact's warm record recall (500 turns) as the workspace grows",
        [
            "backend",
            "workspace turns",
            "recall p50 ms",
            "recall p95 ms",
            "validity check p50/p95 ms",
            "workspace-scoped check p50/p95 ms",
            "ratio",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
