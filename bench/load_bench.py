"""HTTP load benchmark: requests/s and p50/p95 for POST /v1/context, POST
/v1/conversations/{id}/turns and its batch form (50 turns a request) against a real
`memwise serve`, on SQLite and PostgreSQL, with 1 and 2 uvicorn workers, and with the
server's working threads at memwise's default and at the thread pool's own default (40, the
previous rule). The load generator is this process (asyncio + httpx, a fixed number of
requests at a fixed concurrency) on loopback; the server is a child process, whose CPU
time per request and resident memory (every process of it) are read from the OS.

python bench/load_bench.py [--requests 2000] [--concurrency 16] [--backends sqlite,postgresql]
                           [--workers 1,2] [--threads 0,40]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil

sys.path.insert(0, str(Path(__file__).parent))

from _common import console, database, percentiles, sentence, table
from memwise._config import Settings
from memwise.client import Client

ADMIN = "bench-admin"
CONVERSATIONS = 50
BATCH = 50  # turns per POST …/turns/batch
RECYCLE = 20  # requests per connection


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(url: str, workers: int, threads: int = 0) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {
        **os.environ,
        "MEMWISE_ADMIN_TOKEN": ADMIN,
        "MEMWISE_RATE_LIMIT_PER_MINUTE": "1000000",
        "MEMWISE_SERVER_THREADS": str(threads),
    }
    exe = Path(sys.executable).parent / "memwise"
    proc = subprocess.Popen(
        [str(exe), "serve", "--port", str(port), "--database-url", url, "--workers", str(workers)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/v1/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.TransportError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("memwise serve did not start")


def processes(proc: subprocess.Popen[bytes]) -> list[psutil.Process]:
    root = psutil.Process(proc.pid)
    return [root, *root.children(recursive=True)]


def cpu_seconds(proc: subprocess.Popen[bytes]) -> float:
    return sum(p.cpu_times().user + p.cpu_times().system for p in processes(proc))


def rss_mb(proc: subprocess.Popen[bytes]) -> float:
    return sum(p.memory_info().rss for p in processes(proc)) / 2**20


def seed(base: str, rng: random.Random) -> tuple[str, list[str]]:
    """A workspace with knowledge, contacts with notes, and open web conversations."""
    with Client(base, ADMIN) as admin:
        key = admin.create_workspace("Load", plan="business").api_key
    assert key
    with Client(base, key) as mw:
        agent = mw.create_agent("Desk", memory_enabled=True, domain="retail")
        for n in range(40):
            mw.add_document(f"Guide {n}", " ".join(sentence(rng) for _ in range(12)))
        conversations = []
        for n in range(CONVERSATIONS):
            contact = mw.create_contact(f"Customer {n}")
            conv = mw.start_conversation(agent.id, "web", contact_id=contact.id)
            for _ in range(4):
                mw.add_turn(conv.id, "customer", sentence(rng))
            conversations.append(conv.id)
    return key, conversations


async def load(
    base: str, key: str, conversations: list[str], kind: str, total: int, concurrency: int
) -> tuple[float, list[float], int]:
    rng = random.Random(11)
    bodies = [
        (conversations[i % len(conversations)], sentence(rng, rng.randint(6, 14)))
        for i in range(total)
    ]
    latencies: list[float] = []
    errors = 0
    queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
    for b in bodies:
        queue.put_nowait(b)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(base_url=base, headers=headers, limits=limits, timeout=30) as http:

        async def one_user() -> None:
            nonlocal errors
            sent = 0
            while not queue.empty():
                conv, text = queue.get_nowait()
                sent += 1
                # a connection ends after RECYCLE requests: with 2 server processes, which
                # one accepts a connection is the kernel's choice, and 16 connections held
                # for a whole row can split 12 to 4 (the row then measures the split)
                last = {"Connection": "close"} if sent % RECYCLE == 0 else None
                turn = {"role": "customer", "text": text}
                path, body = {
                    "context": ("/v1/context", {"conversation_id": conv, "request": text}),
                    "batch": (f"/v1/conversations/{conv}/turns/batch", {"turns": [turn] * BATCH}),
                    "turns": (f"/v1/conversations/{conv}/turns", turn),
                }[kind]
                t0 = time.perf_counter()
                r = await http.post(path, json=body, headers=last)
                latencies.append(time.perf_counter() - t0)
                if r.status_code >= 400:
                    errors += 1

        t0 = time.perf_counter()
        await asyncio.gather(*(one_user() for _ in range(concurrency)))
        elapsed = time.perf_counter() - t0
    return total / elapsed, latencies, errors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--backends", default="sqlite,postgresql")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument(
        "--threads", default="0,40", help="working threads per process (0: memwise's default)"
    )
    args = ap.parse_args()
    rows: list[list[str]] = []
    runs = [
        (backend, int(w), int(t))
        for backend in args.backends.split(",")
        for w in args.workers.split(",")
        for t in args.threads.split(",")
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for backend, workers, threads in runs:
            with database(backend, Path(tmp)) as url:
                proc, base = serve(url, workers, threads)
                try:
                    key, convs = seed(base, random.Random(5))
                    # warm every worker's caches and connections first
                    asyncio.run(load(base, key, convs, "context", 100, args.concurrency))
                    shown = str(threads) if threads else f"{Settings().threads()} (default)"
                    for kind in ("context", "turns", "batch"):
                        total = args.requests // 4 if kind == "batch" else args.requests
                        cpu0 = cpu_seconds(proc)
                        rps, lat, errs = asyncio.run(
                            load(base, key, convs, kind, total, args.concurrency)
                        )
                        cpu_ms = (cpu_seconds(proc) - cpu0) * 1000 / total
                        rss = rss_mb(proc)
                        p50, p95 = percentiles(lat)
                        console.print(
                            f"{backend} ×{workers} threads {shown} {kind}: {rps:,.0f} req/s, "
                            f"p50 {p50:.1f} ms, p95 {p95:.1f} ms, {cpu_ms:.2f} ms CPU, "
                            f"{rss:.0f} MB, {errs} errors"
                        )
                        endpoint = {
                            "context": "POST /v1/context",
                            "turns": "POST …/turns",
                            "batch": f"POST …/turns/batch ({BATCH} turns)",
                        }[kind]
                        per = {"context": 0, "turns": 1, "batch": BATCH}[kind]
                        rows.append(
                            [
                                endpoint,
                                backend,
                                str(workers),
                                shown,
                                f"{rps:,.0f}",
                                f"{rps * per:,.0f}" if per else "—",
                                f"{p50:.1f}",
                                f"{p95:.1f}",
                                f"{cpu_ms:.2f}",
                                f"{rss:.0f}",
                                str(errs),
                            ]
                        )
                finally:
                    proc.terminate()
                    proc.wait(timeout=30)
    table(
        f"HTTP load: {args.requests} requests per row, {args.concurrency} concurrent, loopback",
        [
            "endpoint",
            "backend",
            "workers",
            "threads",
            "req/s",
            "turns/s",
            "p50 ms",
            "p95 ms",
            "CPU ms/req",
            "RSS MB",
            "errors",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
