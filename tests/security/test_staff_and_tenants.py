"""Attacks 4, 9, 12, 13, 14, 15 and 16: a hostile workspace admin or operator against the
worker, the other tenants, the knowledge drawers, the keys and the helpdesk."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient
from mcp import Client

from memwise import FixedClock
from memwise._doors.mcp_server import build_server
from memwise._storage.schema import agents, audit_log, jobs
from memwise._web.errors import ErrorIds
from tests.integration.conftest import ADMIN, Api
from tests.security.conftest import conversation, staff


@pytest.mark.parametrize(
    "overrides",
    [
        {"generic": {"idle_minutes": 1e308}},
        {"web": {"idle_minutes": 0}},
        {"web": {"max_messages": 10, "colour": 3}},
        {"telegram": {"late_message_minutes": 1e12}},
        {"nosuch": {"idle_minutes": 5}},
    ],
)
def test_every_window_limit_is_bounded(sec: Api, overrides: dict[str, Any]) -> None:
    s = staff(sec)
    r = sec.call(
        "PATCH", f"/v1/agents/{s['agent']}", s["admin"], json={"window_overrides": overrides}
    )
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] in ("invalid_window", "validation_error")


def test_one_tenants_bad_data_never_stops_the_worker(sec: Api, clock: FixedClock) -> None:
    bad, good = staff(sec, "Bad"), staff(sec, "Good")
    stuck = conversation(sec, bad)
    waiting = conversation(sec, good)
    for c, s in ((stuck, bad), (waiting, good)):
        sec.call(
            "POST",
            f"/v1/conversations/{c['id']}/turns",
            s["op"],
            json={"role": "customer", "text": "I prefer email."},
        )
    with sec.mw.rt.db.write() as conn:  # data written before the bounds existed
        conn.execute(
            agents.update()
            .where(agents.c.id == bad["agent"])
            .values(window_overrides={"web": {"idle_minutes": 1e308}})
        )
    clock.advance(hours=2)
    ran = sec.mw.worker().run_once(force=True)
    assert ran.get("extract:applied", 0) >= 1  # the good workspace's conversation expired
    assert sec.mw.record.get(good["ws"], waiting["id"]).status.value == "expired"


def test_an_admin_runs_only_their_own_queue(sec: Api, clock: FixedClock) -> None:
    a, b = staff(sec, "A"), staff(sec, "B")
    for s in (a, b):
        c = conversation(sec, s)
        sec.call(
            "POST",
            f"/v1/conversations/{c['id']}/turns",
            s["op"],
            json={"role": "customer", "text": "Please email me, never call."},
        )
        sec.call("POST", f"/v1/conversations/{c['id']}/end", s["op"])
    r = sec.call("POST", "/v1/jobs/run", a["admin"])
    assert r.status_code == 200 and r.json()["total"] >= 1
    with sec.mw.rt.db.read() as conn:
        left = (
            conn.execute(
                sa.select(jobs.c.status).where(
                    jobs.c.workspace_id == b["ws"], jobs.c.kind == "extract"
                )
            )
            .scalars()
            .all()
        )
    assert left == ["queued"]
    assert sec.call("POST", "/v1/jobs/run", a["op"]).status_code == 403
    everything = sec.call("POST", "/v1/jobs/run", ADMIN)
    assert everything.status_code == 200 and everything.json()["total"] >= 1


def test_a_planted_document_is_never_served_before_review(sec: Api) -> None:
    s = staff(sec)
    sec.call(
        "POST",
        "/v1/knowledge/documents",
        s["owner"],
        json={
            "kind": "policy",
            "title": "Returns",
            "version": "1",
            "body": "Returns are accepted within 30 days with the receipt.",
        },
    )
    planted = sec.call(
        "POST",
        "/v1/knowledge/documents",
        s["op"],
        json={
            "kind": "policy",
            "title": "Returns",
            "version": "2",
            "body": "Returns: every customer gets a 50% discount and a full refund, no receipt.",
        },
    )
    assert planted.status_code == 201 and planted.json()["status"] == "draft"
    conv = conversation(sec, s)
    ask = {"conversation_id": conv["id"], "text": "Are returns accepted with the receipt?"}
    reply = sec.call("POST", "/v1/chat", conv["visitor"], json=ask).json()
    assert "30 days" in reply["reply"] and "50%" not in reply["reply"]
    hits = sec.call("GET", "/v1/knowledge/search", s["op"], params={"q": "returns discount"})
    assert "50%" not in hits.text
    with pytest.raises(Exception):  # noqa: B017  an operator may not publish by flag either
        sec.mw.knowledge.add_document(
            s["ws"],
            kind="faq",
            title="t",
            body="b",
            version="1",
            by=_principal(sec, s["op"]),
            publish=True,
        )
    doc = planted.json()["id"]
    assert sec.call("POST", f"/v1/knowledge/documents/{doc}/reject", s["op"]).status_code == 403
    assert sec.call("POST", f"/v1/knowledge/documents/{doc}/reject", s["admin"]).status_code == 200
    receipts = sec.call("GET", f"/v1/knowledge/documents/{doc}/receipts", s["op"]).json()
    assert [r["action"] for r in receipts["items"]] == ["rejected"]
    reply = sec.call("POST", "/v1/chat", conv["visitor"], json=ask).json()
    assert "30 days" in reply["reply"]


def _principal(api: Api, key: str) -> Any:
    from memwise._domain.access import Kind, Principal

    found = api.mw.tenancy.authenticate_key(key)
    assert found
    return Principal(Kind.key, found[0], found[1])


@pytest.mark.parametrize("url", ["javascript:alert(1)", "data:text/html,x", "JaVaScRiPt:x", "//x"])
def test_only_web_links_are_accepted(sec: Api, url: str) -> None:
    s = staff(sec)
    r = sec.call(
        "POST",
        "/v1/knowledge/documents",
        s["admin"],
        json={"kind": "faq", "title": "T", "body": "b", "version": "1", "source_url": url},
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_url"


def _login(api: Api, key: str) -> TestClient:
    client = api.client
    client.cookies.clear()
    r = client.post("/console/login", data={"api_key": key}, follow_redirects=False)
    assert r.status_code == 303 and "memwise_console" in r.cookies, r.text
    return client


def test_console_headers_and_no_inline_script(sec: Api) -> None:
    s = staff(sec)
    client = _login(sec, s["admin"])
    page = client.get("/console/knowledge")
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert page.headers["x-frame-options"] == "DENY"
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] == "same-origin"
    widget = client.get("/widget.js")
    assert widget.headers["x-content-type-options"] == "nosniff"
    from memwise._console.routes import HERE

    for template in (HERE / "templates").glob("*.html"):
        text = template.read_text()
        assert not re.search(r"\son[a-z]+\s*=", text), template  # no inline event handler
        assert "javascript:" not in text, template
        for tag in text.split("<script")[1:]:
            assert tag.split(">")[0].strip().startswith("src="), template


def test_an_old_javascript_link_is_rendered_as_text(sec: Api) -> None:
    s = staff(sec)
    sec.mw.knowledge.add_document(s["ws"], kind="faq", title="Old", body="b", version="1")
    from memwise._storage.schema import knowledge_documents

    with sec.mw.rt.db.write() as conn:  # stored before links were checked
        conn.execute(knowledge_documents.update().values(source_url="javascript:alert(1)"))
    page = _login(sec, s["admin"]).get("/console/knowledge")
    assert 'href="javascript:' not in page.text and "javascript:alert(1)" in page.text


def test_keys_are_listed_revoked_and_rotated(sec: Api) -> None:
    s = staff(sec)
    listed = sec.call("GET", "/v1/api-keys", s["admin"]).json()["items"]
    assert {k["role"] for k in listed} == {"owner", "admin", "operator"}
    assert all("hash" not in str(k) and "mw_" not in str(k) for k in listed)
    op_id = next(k["id"] for k in listed if k["role"] == "operator")
    owner_id = next(k["id"] for k in listed if k["role"] == "owner")
    assert sec.call("GET", "/v1/api-keys", s["op"]).status_code == 403
    assert sec.call("DELETE", f"/v1/api-keys/{owner_id}", s["admin"]).status_code == 403
    assert sec.call("POST", "/v1/api-keys", s["admin"], json={"role": "owner"}).status_code == 403
    last = sec.call("DELETE", f"/v1/api-keys/{owner_id}", s["owner"])
    assert last.status_code == 409 and last.json()["error"]["code"] == "last_owner_key"
    rotated = sec.call("POST", f"/v1/api-keys/{op_id}/rotate", s["admin"]).json()
    assert rotated["role"] == "operator" and rotated["api_key"].startswith("mw_")
    assert sec.call("GET", "/v1/workspace", s["op"]).status_code == 401  # the old secret
    assert sec.call("GET", "/v1/workspace", rotated["api_key"]).status_code == 200
    assert sec.call("DELETE", f"/v1/api-keys/{rotated['id']}", s["admin"]).status_code == 200
    assert sec.call("GET", "/v1/workspace", rotated["api_key"]).status_code == 401
    other = staff(sec, "Other")
    assert sec.call("DELETE", f"/v1/api-keys/{owner_id}", other["owner"]).status_code == 404


def test_console_sessions_are_server_side_and_revocable(sec: Api, clock: FixedClock) -> None:
    s = staff(sec)
    client = _login(sec, s["op"])
    cookie = client.cookies.get("memwise_console")
    assert cookie and cookie.startswith("cs_") and s["op"] not in cookie
    assert client.get("/console/conversations", follow_redirects=False).status_code == 200
    page = client.get("/console/conversations").text
    csrf = page.split('name="csrf" value="')[1].split('"')[0]
    client.post("/console/logout", data={"csrf": csrf}, follow_redirects=False)
    client.cookies.set("memwise_console", cookie, path="/console")  # a copied cookie
    assert client.get("/console/conversations", follow_redirects=False).status_code == 303
    # Idle expiry, absolute expiry, and a revoked key end a session.
    client = _login(sec, s["op"])
    clock.advance(minutes=61)
    assert client.get("/console/conversations", follow_redirects=False).status_code == 303
    client = _login(sec, s["op"])
    for _ in range(14):
        clock.advance(minutes=59)
        client.get("/console/conversations", follow_redirects=False)
    assert client.get("/console/conversations", follow_redirects=False).status_code == 303
    client = _login(sec, s["op"])
    op_id = next(
        k["id"]
        for k in sec.call("GET", "/v1/api-keys", s["admin"]).json()["items"]
        if k["role"] == "operator"
    )
    sec.call("DELETE", f"/v1/api-keys/{op_id}", s["admin"])
    assert client.get("/console/conversations", follow_redirects=False).status_code == 303


def test_secure_cookie_only_behind_a_trusted_proxy(sec: Api) -> None:
    s = staff(sec)
    headers = {"x-forwarded-proto": "https"}
    r = sec.client.post(
        "/console/login", data={"api_key": s["op"]}, headers=headers, follow_redirects=False
    )
    assert "secure" not in r.headers["set-cookie"].lower()  # the header is not trusted yet
    sec.client.app.state.settings.forwarded_header = "x-forwarded-for"  # type: ignore[attr-defined]
    r = sec.client.post(
        "/console/login", data={"api_key": s["op"]}, headers=headers, follow_redirects=False
    )
    assert "secure" in r.headers["set-cookie"].lower()
    sec.client.app.state.settings.forwarded_header = None  # type: ignore[attr-defined]


def test_failed_logins_and_bad_keys_are_throttled(sec: Api) -> None:
    s = staff(sec)
    codes = [sec.call("GET", "/v1/workspace", f"mw_guess{i}").status_code for i in range(40)]
    assert codes[0] == 401 and 429 in codes
    # A valid key always passes (nobody can lock the workspace out by guessing from the
    # same address); guessing keeps being refused.
    assert sec.call("GET", "/v1/workspace", s["op"]).status_code == 200
    assert sec.call("GET", "/v1/workspace", "mw_guess_more").status_code == 429
    # Behind a trusted proxy the address is the one the proxy saw (the rightmost entry):
    # a client rotating its own X-Forwarded-For still lands in one bucket.
    sec.client.app.state.settings.forwarded_header = "x-forwarded-for"  # type: ignore[attr-defined]
    try:
        spoofed = [
            sec.call(
                "GET",
                "/v1/workspace",
                f"mw_x{i}",
                headers={"x-forwarded-for": f"10.0.0.{i}, 203.0.113.7"},
            ).status_code
            for i in range(40)
        ]
        assert 429 in spoofed
    finally:
        sec.client.app.state.settings.forwarded_header = None  # type: ignore[attr-defined]
    sec.client.app.state.auth_throttle.addresses._buckets.clear()  # type: ignore[attr-defined]
    failures = [
        sec.client.post("/console/login", data={"api_key": f"mw_bad{i}"}).text for i in range(35)
    ]
    assert "Too many failed logins" in failures[-1]


def test_mcp_has_the_rest_limits(sec: Api) -> None:
    s = staff(sec)
    server = build_server(sec.mw, key=s["op"])

    async def scenario() -> list[Any]:
        async with Client(server) as client:
            huge = await client.call_tool("search_knowledge", {"query": "q" * 200_000})
            nul = await client.call_tool("recall", {"contact_id": s["contact"], "request": "a\x00"})
            limit = await client.call_tool("search_knowledge", {"query": "q", "limit": 10_000})
            other = staff(sec, "Other")
            cross = await client.call_tool(
                "create_ticket", {"subject": "x", "body": "y", "contact_id": other["contact"]}
            )
            return [huge, nul, limit, cross]

    results = asyncio.run(scenario())
    assert all(r.is_error for r in results), results
    with sec.mw.rt.db.read() as conn:
        logged = conn.execute(sa.select(audit_log.c.args)).scalars().all()
    assert all(len(str(a)) < 2_000 for a in logged)
    limited = build_server(sec.mw, key=s["op"], per_minute=3)

    async def burst() -> list[str]:
        async with Client(limited) as client:
            return [str(await client.call_tool("list_rules", {"user_id": "u"})) for _ in range(5)]

    said = asyncio.run(burst())
    assert "rate_limited" not in said[0] and "rate_limited" in said[-1]


def test_ids_from_input_are_checked_against_the_workspace(sec: Api) -> None:
    a, b = staff(sec, "A"), staff(sec, "B")
    conv_b = conversation(sec, b)
    attempts = [
        ("/v1/tickets", {"subject": "s", "body": "b", "contact_id": b["contact"]}),
        ("/v1/tickets", {"subject": "s", "body": "b", "conversation_id": conv_b["id"]}),
        ("/v1/unanswered", {"question": "q?", "contact_id": b["contact"]}),
        ("/v1/unanswered", {"question": "q?", "conversation_id": conv_b["id"]}),
        ("/v1/events", {"contact_id": a["contact"], "type": "x", "conversation_id": conv_b["id"]}),
    ]
    for path, body in attempts:
        r = sec.call("POST", path, a["op"], json=body)
        assert r.status_code == 404, (path, body, r.text)


def test_one_open_ticket_per_contact_per_question(sec: Api) -> None:
    s = staff(sec)
    conv = conversation(sec, s)
    ask = {"conversation_id": conv["id"], "text": "Do you repair drones?"}
    replies = [sec.call("POST", "/v1/chat", conv["visitor"], json=ask).json() for _ in range(5)]
    tickets = {r["ticket"]["id"] for r in replies}
    assert len(tickets) == 1
    assert len(sec.call("GET", "/v1/tickets", s["op"]).json()["items"]) == 1


def test_an_unexpected_error_logs_an_id_not_the_input(caplog: pytest.LogCaptureFixture) -> None:
    app = FastAPI()

    @app.post("/boom")
    def boom(said: str) -> None:
        raise ValueError(f"customer said: {said}")

    app.add_middleware(ErrorIds)
    with (
        caplog.at_level(logging.ERROR, logger="memwise._api"),
        TestClient(app, raise_server_exceptions=False) as client,
    ):
        r = client.post("/boom", params={"said": "my card is 4111 1111 1111 1111"})
    assert r.status_code == 500
    error_id = r.json()["error"]["details"]["error_id"]
    assert error_id in caplog.text and "ValueError" in caplog.text
    assert "4111" not in caplog.text and "4111" not in r.text


def test_sql_errors_never_carry_parameters(sec: Api) -> None:
    assert sec.mw.rt.db.engine.hide_parameters is True


def test_forced_job_attempts_stop(sec: Api, clock: FixedClock) -> None:
    job_id, _ = sec.mw.jobs.enqueue(staff(sec)["ws"], "extract", "k1", {}, max_attempts=2)
    for _ in range(4):  # a worker that dies holding the job, again and again
        sec.mw.jobs.claim("dying", ["extract"])
        clock.advance(minutes=6)
    with sec.mw.rt.db.read() as conn:
        row = conn.execute(sa.select(jobs).where(jobs.c.id == job_id)).one()
    assert row.attempts <= 2 and row.status == "failed" and row.last_error
