"""Account lookup overhead: the adapter layer (binding, wording, audit) vs a raw httpx call
to the same local server, side by side.

    python bench/accounts_bench.py [--n 500]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import httpx

from _common import database, percentiles, table, timed
from memwise import Memwise
from memwise._accounts.source import HTTPAccountSource


class CRM(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # otherwise delayed ACKs add ~40 ms to every answer

    def log_message(self, *a: Any) -> None:
        pass

    def do_GET(self) -> None:
        body = json.dumps({"status": "shipped", "total": "349.00 EUR"}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=500)
    args = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), CRM)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    rows = []
    with tempfile.TemporaryDirectory() as tmp, httpx.Client(base_url=url) as raw:
        for backend in ("sqlite", "postgresql"):
            with database(backend, Path(tmp)) as db:
                mw = Memwise.open(db)
                ws, _ = mw.tenancy.create_workspace("Shop")
                agent = mw.tenancy.create_agent(ws.id, "Eve")
                c = mw.tenancy.create_contact(ws.id, "J", account_refs=["ACC-1"])
                conv, _ = mw.record.start(
                    ws.id, agent.id, "web", contact_id=c.id, account_ref="ACC-1"
                )
                mw.accounts.use(ws.id, HTTPAccountSource(mw.clock, url))
                for _ in range(20):
                    raw.get("/accounts/ACC-1/orders/4411")
                    mw.accounts.lookup(ws.id, conv.id, "order", "4411")
                base = percentiles(timed(lambda: raw.get("/accounts/ACC-1/orders/4411"), args.n))
                ours = percentiles(
                    timed(
                        lambda mw=mw, w=ws.id, c=conv.id: mw.accounts.lookup(w, c, "order", "4411"),
                        args.n,
                    )
                )
                rows.append(
                    [
                        backend,
                        f"{base[0]:.2f} / {base[1]:.2f}",
                        f"{ours[0]:.2f} / {ours[1]:.2f}",
                        f"{ours[0] / base[0]:.1f}x / {ours[1] / base[1]:.1f}x",
                    ]
                )
                mw.close()
    server.shutdown()
    table(
        "Account lookup: adapter layer vs raw httpx (same local server)",
        [
            "backend (audit log)",
            "raw httpx p50 / p95 ms",
            "memwise p50 / p95 ms",
            "ratio p50 / p95",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
