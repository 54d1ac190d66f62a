"""The live account record: honest results, one bound account, audit of every lookup."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from memwise import FixedClock, Memwise, errors
from memwise._accounts.policy import AccountPolicy
from memwise._accounts.source import DemoCRM, HTTPAccountSource, SQLAccountSource


class CRM(BaseHTTPRequestHandler):
    mode = "ok"

    def log_message(self, *a: Any) -> None:
        pass

    def do_GET(self) -> None:
        mode = type(self).mode
        if mode == "slow":
            time.sleep(1.0)
        if mode == "500":
            self.send_response(500)
            self.end_headers()
            return
        if mode == "malformed":
            body = b"<html>oops"
        elif self.path.endswith("/orders/4411") and self.headers.get("authorization") == "Bearer k":
            body = json.dumps({"status": "shipped", "total": "349.00 EUR"}).encode()
        elif self.headers.get("authorization") != "Bearer k":
            self.send_response(401)
            self.end_headers()
            return
        else:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def crm() -> Iterator[tuple[str, type[CRM]]]:
    handler = type("Handler", (CRM,), {"mode": "ok"})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", handler
    server.shutdown()
    server.server_close()


def _conv(mw: Memwise, account: str | None = "ACC-1001") -> tuple[str, str]:
    ws, _ = mw.tenancy.create_workspace("Shop", "Europe/Berlin")
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    contact = mw.tenancy.create_contact(
        ws.id, "Jonas", emails=["jonas@example.com"], account_refs=["ACC-1001"]
    )
    conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact.id, account_ref=account)
    return ws.id, conv.id


def test_demo_crm_found_not_found_unavailable(mw_sqlite: Memwise) -> None:
    ws, conv = _conv(mw_sqlite)
    mw_sqlite.accounts.use(ws, DemoCRM(mw_sqlite.clock))
    found = mw_sqlite.accounts.lookup(ws, conv, "order", "4411")
    assert found.result.status == "found" and found.result.data["status"] == "shipped"
    assert found.sentence.startswith("As of 29 Nov 2026 10:00, order 4411 — status: shipped")
    missing = mw_sqlite.accounts.lookup(ws, conv, "order", "9999")
    assert missing.sentence == "There is no such order 9999 on your account."
    mw_sqlite.accounts.use(ws, DemoCRM(mw_sqlite.clock, failing=True))
    down = mw_sqlite.accounts.lookup(ws, conv, "order", "4411")
    assert down.result.status == "unavailable"
    assert down.sentence == "I couldn't check just now. Please try again in a little while."
    assert "no such" not in down.sentence
    assert [e.status for e in mw_sqlite.audit.entries(ws, tool="lookup_account")] == [
        "failed",
        "read",
        "read",
    ]
    assert mw_sqlite.memory.items(ws, mw_sqlite.record.get(ws, conv).contact_id or "") == []


@pytest.mark.parametrize("mode", ["500", "malformed", "slow", "refused", "bad_credentials"])
def test_every_failure_is_unavailable_never_not_found(
    mw_sqlite: Memwise, crm: tuple[str, type[CRM]], mode: str
) -> None:
    url, handler = crm
    ws, conv = _conv(mw_sqlite)
    headers = {"Authorization": "Bearer wrong" if mode == "bad_credentials" else "Bearer k"}
    if mode == "refused":
        url = "http://127.0.0.1:9"  # nothing listens there
    handler.mode = mode if mode in ("500", "malformed", "slow") else "ok"
    mw_sqlite.accounts.use(
        ws, HTTPAccountSource(mw_sqlite.clock, url, headers=headers, timeout_s=0.3, retries=1)
    )
    answer = mw_sqlite.accounts.lookup(ws, conv, "order", "4411")
    assert answer.result.status == "unavailable", answer.result
    assert answer.sentence.startswith("I couldn't check just now")
    assert mw_sqlite.audit.entries(ws, tool="lookup_account")[0].status == "failed"


def test_http_source_found_and_not_found(mw_sqlite: Memwise, crm: tuple[str, type[CRM]]) -> None:
    url, _ = crm
    ws, conv = _conv(mw_sqlite)
    mw_sqlite.accounts.use(
        ws, HTTPAccountSource(mw_sqlite.clock, url, headers={"Authorization": "Bearer k"})
    )
    assert mw_sqlite.accounts.lookup(ws, conv, "order", "4411").result.status == "found"
    assert mw_sqlite.accounts.lookup(ws, conv, "order", "../../admin").result.status == "not_found"


def test_sql_source_is_read_only(mw_sqlite: Memwise, tmp_path: Path) -> None:
    path = tmp_path / "erp.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE orders (account TEXT, id TEXT, status TEXT)")
        db.execute("INSERT INTO orders VALUES ('ACC-1001', '4411', 'packed')")
    ws, conv = _conv(mw_sqlite)
    source = SQLAccountSource(
        mw_sqlite.clock,
        f"sqlite:///{path}",
        {
            "order": "SELECT id, status FROM orders WHERE account = :account AND id = :id",
            "invoice": "UPDATE orders SET status = 'hacked' WHERE account = :account",
        },
    )
    mw_sqlite.accounts.use(ws, source)
    assert mw_sqlite.accounts.lookup(ws, conv, "order", "4411").result.data == {
        "id": "4411",
        "status": "packed",
    }
    assert mw_sqlite.accounts.lookup(ws, conv, "order", "1").result.status == "not_found"
    assert mw_sqlite.accounts.lookup(ws, conv, "invoice", "x").result.status == "unavailable"
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT status FROM orders").fetchone() == ("packed",)


def test_another_account_is_refused_and_audited(mw_sqlite: Memwise) -> None:
    ws, conv = _conv(mw_sqlite)
    mw_sqlite.accounts.use(ws, DemoCRM(mw_sqlite.clock))
    answer = mw_sqlite.accounts.lookup(ws, conv, "balance", account="ACC-2002")
    assert (
        answer.result.status == "refused"
        and mw_sqlite.audit.entries(ws, tool="lookup_account")[0].status == "refused"
    )
    ws2, unbound = _conv(mw_sqlite, account=None)
    mw_sqlite.accounts.use(ws2, DemoCRM(mw_sqlite.clock))
    assert mw_sqlite.accounts.lookup(ws2, unbound, "balance").result.status == "unbound"
    with pytest.raises(errors.Invalid):
        mw_sqlite.accounts.lookup(ws, conv, "order")  # an order lookup needs its number
    with pytest.raises(errors.Invalid):
        mw_sqlite.accounts.lookup(ws, conv, "passwords")


def test_identification(mw_sqlite: Memwise) -> None:
    ws, _ = mw_sqlite.tenancy.create_workspace("Shop")
    one = mw_sqlite.tenancy.create_contact(
        ws.id, "Jonas", emails=["jonas@example.com"], account_refs=["ACC-1001"]
    )
    found = mw_sqlite.accounts.identify(ws.id, "email", "JONAS@example.com")
    assert (found.status, found.contact_id, found.account_ref) == ("bound", one.id, "ACC-1001")
    mw_sqlite.tenancy.create_contact(
        ws.id, "Ana", phones=["+49 30 555 0101"], account_refs=["ACC-3"]
    )
    mw_sqlite.tenancy.create_contact(
        ws.id, "Ana B", phones=["+49 30 555 0101"], account_refs=["ACC-4"]
    )
    ambiguous = mw_sqlite.accounts.identify(ws.id, "phone", "+49 30 5550101")
    assert ambiguous.status == "ambiguous" and ambiguous.contact_id is None
    assert (
        ambiguous.question and "Ana" not in ambiguous.question and "ACC" not in ambiguous.question
    )
    assert mw_sqlite.accounts.identify(ws.id, "email", "nobody@example.com").status == "unbound"


def test_configuration_masks_secrets(mw_sqlite: Memwise, clock: FixedClock) -> None:
    ws, _ = mw_sqlite.tenancy.create_workspace("Shop")
    mw_sqlite.accounts.allow(AccountPolicy(http_bases=("https://crm.example.com", "https://x")))
    shown = mw_sqlite.accounts.configure(
        ws.id,
        "http",
        {
            "base_url": "https://crm.example.com",
            "headers": {"Authorization": "Bearer secret"},
            "lookups": {"order": "/o/{account}/{id}"},
        },
    )
    assert shown["headers"] == {"Authorization": "•••"}
    assert mw_sqlite.accounts.shown(ws.id) == shown
    with pytest.raises(errors.Invalid):
        mw_sqlite.accounts.configure(ws.id, "http", {"base_url": "ftp://x"})
    with pytest.raises(errors.Invalid):
        mw_sqlite.accounts.configure(
            ws.id, "http", {"base_url": "https://x", "lookups": {"passwords": "/p"}}
        )
