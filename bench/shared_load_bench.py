"""The third security pass's attacks, replayed: what one message, request or tenant costs
the server now. Prints a table; the "before" column is what the outside review reproduced
on the code before the fixes (issue "no message, request or tenant can hold what everyone
shares"), measured on the same 2-core machine.

    python bench/shared_load_bench.py [--database-url postgresql+psycopg://…]
"""

from __future__ import annotations

import argparse
import contextlib
import resource
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from memwise import FixedClock, Memwise
from memwise._providers import http
from memwise.testing import HostileServer

BEFORE = {
    "visitor chat, 2.4 kB of '1-1-…'": "29.6 s CPU",
    "extraction of a 3 kB turn of digit groups": "163 s (worker held)",
    "visitor chat, 32 kB of digit groups": "hours (extrapolated)",
    "email of 20,000 blank lines": "20.7 s for two (another workspace waited)",
    "email body of 1 MB blank lines": "hours (extrapolated)",
    "delivery to a slow-drip endpoint": "45 s (worker held)",
    "delivery answered with 400 MB": "+698 MB resident",
}


def cpu(run: Callable[[], Any]) -> float:
    start = time.process_time()
    with contextlib.suppress(Exception):
        run()
    return time.process_time() - start


def outside(mode: str) -> tuple[float, int]:
    server = HostileServer(mode=mode, pause=1.0)
    url = f"{server.url}/hook"
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.monotonic()
    with contextlib.suppress(Exception):
        http.request("POST", url, content=b"{}", deadline_s=10.0, max_bytes=64_000)
    took = time.monotonic() - start
    server.close()
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss
    return took, grown // 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    url = args.database_url or f"sqlite:///{tempfile.mkdtemp()}/bench.db"
    mw = Memwise.open(url, clock=FixedClock(datetime(2026, 12, 6, 9, tzinfo=UTC)))
    ws, _ = mw.tenancy.create_workspace("Bench", "Europe/Berlin", "startup")
    agent = mw.tenancy.create_agent(ws.id, "Eve", memory_enabled=True, domain="retail")
    ann = mw.tenancy.create_contact(ws.id, "Ann Lee", emails=["ann@example.com"])

    def conv() -> str:
        return str(mw.record.start(ws.id, agent.id, "web", contact_id=ann.id)[0].id)

    def extract(text: str) -> None:
        c = conv()
        mw.record.append(ws.id, c, "customer", text)
        mw.record.end(ws.id, c)
        mw.worker().run_once()

    def email(text: str) -> None:
        mw.inbound.receive(ws.id, "email", {"from": "ann@example.com", "text": text})

    mw.chat(ws.id, conv(), "hello")  # first use: imports and loading
    rows = [
        (
            "visitor chat, 2.4 kB of '1-1-…'",
            cpu(lambda: mw.chat(ws.id, conv(), "Where is my order " + "1-" * 1200)),
        ),
        ("extraction of a 3 kB turn of digit groups", cpu(lambda: extract("1-" * 1500))),
        (
            "visitor chat, 32 kB of digit groups",
            cpu(lambda: mw.chat(ws.id, conv(), ("1-" * 16000)[:32000])),
        ),
        ("email of 20,000 blank lines", cpu(lambda: email("hi" + "\n" * 20000 + "> x"))),
        ("email body of 1 MB blank lines", cpu(lambda: email("hi" + "\n" * 1_000_000 + "> x"))),
    ]
    print(f"{'attack':46s} | {'before':40s} | after")
    print("-" * 46 + "-|-" + "-" * 40 + "-|------")
    for name, spent in rows:
        print(f"{name:46s} | {BEFORE[name]:40s} | {spent * 1000:.0f} ms CPU")
    drip, _ = outside("drip")
    name = "delivery to a slow-drip endpoint"
    print(f"{name:46s} | {BEFORE[name]:40s} | {drip:.1f} s (deadline 10 s)")
    flood, grown = outside("flood")
    name = "delivery answered with 400 MB"
    print(f"{name:46s} | {BEFORE[name]:40s} | +{grown} MB, {flood:.1f} s (cap 64 kB)")
    mw.close()


if __name__ == "__main__":
    main()
