"""Resident memory of one process as it recalls ever more contacts: the in-process caches
(each contact's decoded items, each contact's history index) are bounded by bytes
(MEMWISE_LIMITS__MEMORY__CACHE_MB), so RSS levels off instead of growing with the number
of contacts recalled.

python bench/cache_bench.py [--contacts 10000] [--cache-mb 64,256] [--backend sqlite]

Each contact holds 8 memory items and 3 conversations of 12 turns; the process recalls
each contact's memory and history once, in order, and prints RSS (from /proc) and the bytes
each cache says it holds after every tenth of the contacts. One child process per budget,
on the same database, so the rows are comparable.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import console, database, sentence, table
from memwise import Memwise
from memwise._domain.memory import Evidence
from memwise._policies.limits import Limits, MemoryLimits
from memwise._services.conversation.record import NewTurn
from memwise._services.memory.memory import NewItem

ITEMS, CONVERSATIONS, TURNS = 8, 3, 12
FAVOURITES = ("Hiking", "Kayaking", "Gardening", "Jazz", "Tea", "Cycling", "Chess", "Baking")


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def fill(url: str, contacts: int) -> tuple[str, list[str]]:
    rng = random.Random(7)
    mw = Memwise.open(url)
    ws, _ = mw.tenancy.create_workspace("Cache", "UTC")
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    ids = []
    with console.status("filling") as status:
        for n in range(contacts):
            c = mw.tenancy.create_contact(ws.id, f"Customer {n}")
            with mw.rt.db.write():
                for _ in range(CONVERSATIONS):
                    conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=c.id)
                    said = mw.record.append_many(
                        ws.id,
                        conv.id,
                        [
                            NewTurn("customer" if i % 2 == 0 else "assistant", sentence(rng))
                            for i in range(TURNS)
                        ],
                    )
                for i in range(ITEMS):
                    turn = said[2 * (i % (TURNS // 2))]
                    quote = " ".join((turn.text or "").split()[:6])
                    note = NewItem(
                        kind="note",
                        text=f"{FAVOURITES[i]} came up in conversation {n}",
                        evidence=[Evidence(turn.id, quote)],
                        source="operator",
                    )
                    mw.memory.write(ws.id, c.id, note)
            ids.append(c.id)
            if n % 500 == 0:
                status.update(f"filling: {n} of {contacts} contacts")
    mw.close()
    return ws.id, ids


def probe(url: str, ws: str, ids: list[str], cache_mb: int) -> list[list[str]]:
    """Run in a child process: recall every contact, report RSS as it goes."""
    mw = Memwise.open(url, limits=Limits(memory=MemoryLimits(cache_mb=cache_mb)), migrate=False)
    rows = [[str(cache_mb), "0", f"{rss_mb():.0f}", "0.0", "0.0", "0", "0"]]
    step = max(1, len(ids) // 10)
    for n, contact in enumerate(ids, 1):
        mw.recaller.recall(ws, contact, "what did they say about the delivery")
        mw.history.recall(ws, contact, "what did they say about the delivery")
        if n % step == 0:
            rows.append(
                [
                    str(cache_mb),
                    str(n),
                    f"{rss_mb():.0f}",
                    f"{mw.recaller._cache.bytes / 2**20:.1f}",
                    f"{mw.history._cache.bytes / 2**20:.1f}",
                    str(len(mw.recaller._cache)),
                    str(len(mw.history._cache)),
                ]
            )
    mw.close()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--contacts", type=int, default=10_000)
    ap.add_argument("--cache-mb", default="64,256")
    ap.add_argument("--backend", default="sqlite")
    ap.add_argument("--probe", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.probe:
        url, ws, ids_file, mb = json.loads(a.probe)
        print(json.dumps(probe(url, ws, json.loads(Path(ids_file).read_text()), mb)))
        return
    with tempfile.TemporaryDirectory() as tmp, database(a.backend, Path(tmp)) as url:
        ws, ids = fill(url, a.contacts)
        ids_file = Path(tmp) / "ids.json"
        ids_file.write_text(json.dumps(ids))
        rows: list[list[str]] = []
        for mb in (int(x) for x in a.cache_mb.split(",")):
            arg = json.dumps([url, ws, str(ids_file), mb])
            out = subprocess.run(
                [sys.executable, __file__, "--probe", arg],
                capture_output=True,
                text=True,
                check=True,
            )
            rows += json.loads(out.stdout.strip().splitlines()[-1])
        table(
            f"RSS while recalling {a.contacts} contacts ({a.backend}; {ITEMS} items and "
            f"{CONVERSATIONS * TURNS} turns each)",
            [
                "cache MB",
                "contacts recalled",
                "RSS MB",
                "items cache MB",
                "history cache MB",
                "contacts held (items)",
                "contacts held (history)",
            ],
            rows,
        )


if __name__ == "__main__":
    main()
