"""Context assembly p50/p95 (a full notebook, 1k items for the contact, 100k knowledge
chunks by default) on both backends; and prompt size vs pasting the full history, on LoCoMo
conversations.

    python bench/context_bench.py [--chunks 100000] [--locomo PATH/locomo10.json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import analyze, database, percentiles, queries, sentence, table, timed
from memwise import Memwise
from memwise._context.assemble import tokens
from memwise._ids import new_id
from memwise._policies.limits import Limits, MemoryLimits
from memwise._policies.notebook import normalize
from memwise._services.conversation.record import NewTurn
from memwise._storage.schema import knowledge_chunks, memory_items


def assembly(backend: str, tmp: Path, chunks: int = 100_000) -> list[str]:
    rng = random.Random(4)
    with database(backend, tmp) as url:
        mw = Memwise.open(url)
        ws, _ = mw.tenancy.create_workspace("Bench", "Europe/Berlin")
        agent = mw.tenancy.create_agent(ws.id, "Eve")
        user = mw.tenancy.create_user(ws.id, "Mira", "operator")
        for i in range(80):
            mw.notebook.add(ws.id, user.id, f"Rule {i}: " + sentence(rng, 30)[:380])
        contact = mw.tenancy.create_contact(ws.id, "Ann")
        now = mw.clock.now()
        with mw.rt.db.write() as conn:
            conn.execute(
                memory_items.insert(),
                [
                    {
                        "id": new_id("mem"),
                        "workspace_id": ws.id,
                        "contact_id": contact.id,
                        "kind": rng.choice(["preference", "fact", "event", "note"]),
                        "scope": "contact",
                        "text": (t := sentence(rng, 10)),
                        "normalized": normalize(t),
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
                    for _ in range(1000)
                ],
            )
        for start in range(0, chunks, 5_000):
            with mw.rt.db.write() as conn:
                conn.execute(
                    knowledge_chunks.insert(),
                    [
                        {
                            "id": new_id("chk"),
                            "workspace_id": ws.id,
                            "part": "reference",
                            "owner_id": new_id("doc"),
                            "position": 0,
                            "title": sentence(rng, 5),
                            "text": " ".join(sentence(rng) for _ in range(4)),
                            "source_url": None,
                            "version": "1",
                            "current": True,
                        }
                        for _ in range(min(5_000, chunks - start))
                    ],
                )
        if backend == "postgresql":
            analyze(mw.rt.db.engine)
            mw.rt.db.backend.forget_statistics()
        staff, _ = mw.record.start(ws.id, agent.id, "web", user_id=user.id)
        cust, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact.id)
        # The same database read by a second instance whose item cache is too small to hold
        # the contact (1 MB against ~1.5 MB of decoded items): every turn decodes all 1,000.
        cold = Memwise.open(url, limits=Limits(memory=MemoryLimits(cache_mb=1)), migrate=False)
        qs = iter(queries(rng, "specific", 1000))
        out = [backend]
        for m in (mw, cold):
            for _ in range(10):
                m.assistant.context(ws.id, cust.id, next(qs))
            s = percentiles(timed(lambda m=m: m.assistant.context(ws.id, staff.id, next(qs)), 150))
            c = percentiles(timed(lambda m=m: m.assistant.context(ws.id, cust.id, next(qs)), 150))
            out += [f"{s[0]:.1f} / {s[1]:.1f}", f"{c[0]:.1f} / {c[1]:.1f}"]
        cold.close()
        mw.close()
    return out


def locomo(path: Path, tmp: Path) -> list[list[str]]:
    data = json.loads(path.read_text())
    rows = []
    full_total = ctx_total = n = 0
    with database("sqlite", tmp) as url:
        mw = Memwise.open(url)
        ws, _ = mw.tenancy.create_workspace("LoCoMo", "UTC", "enterprise")
        agent = mw.tenancy.create_agent(ws.id, "Eve", memory_enabled=True, domain="general")
        for sample in data:
            conv = sample["conversation"]
            contact = mw.tenancy.create_contact(ws.id, conv["speaker_a"])
            history = []
            k = 1
            while f"session_{k}" in conv:
                when = _date(conv.get(f"session_{k}_date_time", ""))
                c, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact.id, at=when)
                turns = [
                    NewTurn(
                        "customer" if t["speaker"] == conv["speaker_a"] else "assistant",
                        t["text"],
                        when + timedelta(seconds=i),
                    )
                    for i, t in enumerate(conv[f"session_{k}"])
                    if t.get("text")
                ]
                mw.record.append_many(ws.id, c.id, turns)
                history += [f"[{t.role}] {t.text}" for t in turns]
                mw.record.end(ws.id, c.id)
                k += 1
            mw.worker().run_once()
            last, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact.id)
            full = tokens("\n".join(history))
            for qa in sample["qa"][:40]:
                ctx = mw.assistant.context(ws.id, last.id, str(qa["question"]))
                full_total += full
                ctx_total += tokens(ctx.messages[0]["content"] + qa["question"])
                n += 1
        mw.close()
    rows.append(
        [
            str(len(data)),
            str(n),
            f"{full_total / n:,.0f}",
            f"{ctx_total / n:,.0f}",
            f"{full_total / ctx_total:.0f}x",
        ]
    )
    return rows


def _date(text: str) -> datetime:
    from memwise._clock import aware

    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y"):
        try:
            return aware(datetime.strptime(text.strip(), fmt))
        except ValueError:
            continue
    return aware(datetime(2023, 1, 1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--locomo", type=Path, default=None)
    ap.add_argument("--backends", default="sqlite,postgresql")
    ap.add_argument("--chunks", type=int, default=100_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = [assembly(b, Path(tmp), args.chunks) for b in args.backends.split(",")]
        table(
            f"Context assembly (80-rule notebook; 1k contact items; {args.chunks:,} knowledge "
            "chunks)",
            [
                "backend",
                "staff turn p50 / p95 ms",
                "customer turn p50 / p95 ms",
                "staff, items not held",
                "customer, items not held",
            ],
            rows,
        )
        if args.locomo:
            table(
                "Prompt size: assembled context vs the full history (LoCoMo)",
                ["conversations", "questions", "full history tokens", "context tokens", "ratio"],
                locomo(args.locomo, Path(tmp)),
            )


if __name__ == "__main__":
    main()
