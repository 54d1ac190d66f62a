"""Nightly pattern promotion over 100k contacts with 1M events, on both backends (seconds).

    python bench/patterns_bench.py [--contacts 100000] [--events 1000000]

Events are bulk-inserted straight into the tables; promotion then runs through the library
exactly as the nightly job does (one aggregate query, then the writes it decides).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import analyze, database, table
from memwise import Memwise
from memwise._ids import new_id
from memwise._storage.schema import contacts, event_labels, events

HOTELS = [
    "Marina Bay Sands",
    "Raffles",
    "Hotel Adlon",
    "The Ritz",
    "Grand Hyatt",
    "Shangri-La",
    "Four Seasons",
    "Mandarin Oriental",
]


def run(backend: str, n_contacts: int, n_events: int, tmp: Path) -> list[str]:
    rng = random.Random(5)
    with database(backend, tmp) as url:
        mw = Memwise.open(url)
        ws, _ = mw.tenancy.create_workspace("Bench", "UTC", "enterprise")
        mw.tenancy.create_agent(
            ws.id, "Eve", memory_enabled=True, domain="hospitality", business_intelligence=True
        )
        ids = [new_id("con") for _ in range(n_contacts)]
        now = mw.clock.now()
        t0 = time.perf_counter()
        with mw.rt.db.write() as conn:
            conn.execute(
                contacts.insert(),
                [{"id": c, "workspace_id": ws.id, "name": "C", "created_at": now} for c in ids],
            )
        for start in range(0, n_events, 20_000):
            evs, labels = [], []
            for _ in range(min(20_000, n_events - start)):
                contact = rng.choice(ids)
                favourite = HOTELS[hash(contact) % len(HOTELS)]
                hotel = favourite if rng.random() < 0.6 else rng.choice(HOTELS)
                eid, conv = new_id("evt"), f"cnv_{rng.randrange(n_events // 3)}"
                evs.append(
                    {
                        "id": eid,
                        "workspace_id": ws.id,
                        "contact_id": contact,
                        "conversation_id": conv,
                        "type": "booking",
                        "labels": {"hotel": hotel},
                        "at": now,
                        "source": "bench",
                        "created_at": now,
                    }
                )
                labels.append(
                    {
                        "workspace_id": ws.id,
                        "event_id": eid,
                        "contact_id": contact,
                        "conversation_id": conv,
                        "event_type": "booking",
                        "label": "hotel",
                        "value": hotel,
                    }
                )
            with mw.rt.db.write() as conn:
                conn.execute(events.insert(), evs)
                conn.execute(event_labels.insert(), labels)
        load = time.perf_counter() - t0
        if backend == "postgresql":
            analyze(mw.rt.db.engine, "event_labels")
        t0 = time.perf_counter()
        first = mw.patterns.promote(ws.id)
        first_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        again = mw.patterns.promote(ws.id)
        again_s = time.perf_counter() - t0
        mw.close()
    return [
        backend,
        f"{n_contacts:,}",
        f"{n_events:,}",
        f"{load:.1f}",
        f"{first_s:.1f}",
        f"{first['promoted']:,}",
        f"{again_s:.1f}",
        f"{again['updated']:,}",
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--contacts", type=int, default=100_000)
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--backends", default="sqlite,postgresql")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = [run(b, args.contacts, args.events, Path(tmp)) for b in args.backends.split(",")]
    table(
        "Nightly pattern promotion",
        [
            "backend",
            "contacts",
            "events",
            "load s",
            "first run s",
            "promoted",
            "next night s",
            "updated",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
