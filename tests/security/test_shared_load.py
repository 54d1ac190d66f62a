"""The third security pass (docs/security.md, "Shared load"): no message, request or tenant
can hold what everyone shares. Each test replays one reproduced attack on both backends."""

from __future__ import annotations

import random
import string
import time
from collections.abc import Iterator

import anyio
import pytest
from fastapi.testclient import TestClient

from memwise import FixedClock, Memwise, errors
from memwise._accounts.policy import AccountPolicy, PolicyRefused
from memwise._clock import WorkspaceClocks
from memwise._config import Settings
from memwise._domain.access import Kind, Principal
from memwise._domain.tenancy import Role
from memwise._doors.telegram import ONE_TO_ONE, Incoming, TelegramDoor
from memwise._providers import http
from memwise._providers.sdk import sdk_client
from memwise._server.app import create_app
from memwise._services.assistant import tools
from memwise._services.assistant.tools import Call, Door
from memwise._web import threads
from memwise.testing import HostileServer
from tests.integration.conftest import ADMIN, Api
from tests.security.conftest import staff


def test_invented_http_methods_never_grow_the_metrics(sec: Api) -> None:
    rng = random.Random(40)
    before = len(sec.client.get("/metrics").text)
    for _ in range(200):
        method = "".join(rng.choices(string.ascii_uppercase, k=12))
        sec.client.request(method, "/v1/health")
    text = sec.client.get("/metrics").text
    assert 'method="other"' in text
    grown = len(text) - before
    assert grown < 5_000, f"/metrics grew by {grown} bytes for 200 invented methods"


def test_a_telegram_group_records_nothing_and_shows_no_one_s_notes(sec: Api) -> None:
    """A member of a group chat once planted facts on the first sender, read their notes
    back and edited a staff user's notebook: a group now gets one answer and nothing else."""
    mw = sec.mw
    ws, _ = mw.tenancy.create_workspace("Tg", "Europe/Berlin", "startup")
    agent = mw.tenancy.create_agent(ws.id, "Eve", memory_enabled=True, domain="retail")
    staff = mw.tenancy.create_user(ws.id, "Dana", "operator", telegram_id="111")
    mw.notebook.add(ws.id, staff.id, "Always answer formally")
    door = TelegramDoor(mw, ws.id, agent.id)
    group, now = -100200300, mw.rt.clock.now()
    victim = Incoming(group, 111, "Dana", "hello team", now)
    attacker = Incoming(group, 222, "Mallory", "I'm allergic to penicillin", now)
    assert door.message(victim) == [ONE_TO_ONE]
    assert door.message(attacker) == [ONE_TO_ONE]
    assert door.memory(Incoming(group, 222, "Mallory", "/memory", now)) == ONE_TO_ONE
    forget = Incoming(group, 222, "Mallory", "/forget formally", now)
    assert door.forget(forget, "formally") == ONE_TO_ONE
    assert [e.text for e in mw.notebook.entries(ws.id, staff.id)] == ["Always answer formally"]
    assert mw.record.conversations(ws.id) == []
    # a private chat still works: the person is the chat
    (reply,) = door.message(Incoming(222, 222, "Mallory", "hello", now))
    assert reply != ONE_TO_ONE


@pytest.fixture(params=["drip", "flood", "list"])
def hostile(request: pytest.FixtureRequest) -> Iterator[tuple[str, str]]:
    server = HostileServer(mode=request.param)
    yield request.param, f"{server.url}/hook"
    server.close()


def test_outside_calls_have_a_deadline_and_a_byte_cap(hostile: tuple[str, str]) -> None:
    mode, url = hostile
    start = time.monotonic()
    if mode == "list":
        assert http.request("POST", url, content=b"{}").status == 200
        return
    with pytest.raises(http.TooSlow if mode == "drip" else http.TooLarge):
        http.request("POST", url, content=b"{}", deadline_s=1.0, max_bytes=200_000)
    assert time.monotonic() - start < 3.0


def test_a_slow_or_odd_helpdesk_never_gives_a_500(sec: Api, hostile: tuple[str, str]) -> None:
    mode, url = hostile
    s = staff(sec)
    sec.mw.accounts.allow(AccountPolicy(private_hosts=(f"{s['ws']}=tickets:127.0.0.1",)))
    assert sec.call("PUT", "/v1/ticket-adapter", s["admin"], json={"url": url}).status_code == 200
    start = time.monotonic()
    r = sec.call("POST", "/v1/tickets", s["op"], json={"subject": "Call back", "body": "B"})
    assert r.status_code == 201, r.text
    assert r.json()["status"] == ("accepted" if mode == "list" else "failed")
    assert time.monotonic() - start < 15.0  # the helpdesk's deadline, not its pace


def test_internal_hosts_are_allowed_per_purpose_and_per_workspace(sec: Api) -> None:
    s, other = staff(sec), staff(sec, "Other")
    loopback = "http://127.0.0.1:9/hook"
    policy = AccountPolicy(allow_private=True, private_hosts=(f"{s['ws']}=events:127.0.0.1",))
    assert policy.check_host(loopback, purpose="events", workspace_id=s["ws"]) is None
    for purpose, ws in (("events", other["ws"]), ("tickets", s["ws"])):
        with pytest.raises(PolicyRefused):  # another workspace, or another purpose
            policy.check_host(loopback, purpose=purpose, workspace_id=ws)
    # the account sources' switch opens account sources only, never a tenant's own URLs
    assert policy.check_host(loopback, purpose="accounts", workspace_id=other["ws"]) is None
    with pytest.raises(PolicyRefused):
        AccountPolicy(allow_private=True).check_host(loopback, purpose="events")


def test_one_workspace_waiting_on_a_slow_service_leaves_threads_for_the_others() -> None:
    async def scenario() -> float:
        async def slow() -> None:
            await threads.waiting(time.sleep, 1.0, share_of="ws_slow")

        async with anyio.create_task_group() as tg:
            for _ in range(40):  # more than every thread for waiting
                tg.start_soon(slow)
            await anyio.sleep(0.1)
            start = time.monotonic()
            await threads.waiting(lambda: None, share_of="ws_other")
            waited = time.monotonic() - start
            tg.cancel_scope.cancel()
        return waited

    assert anyio.run(scenario) < 0.5


def test_health_names_an_error_s_kind_never_a_customer_s_words(sec: Api) -> None:
    runner = sec.mw.extraction
    runner.last_error = "ValidationError: 'My HIV test came back positive' is not a valid item"
    runner.last_error_at = sec.mw.rt.clock.now()
    shown = sec.client.get("/v1/health").json()
    assert shown["model"]["last_error"] == "ValidationError"
    assert "HIV" not in str(shown)
    assert shown["boundary"] == {"learned_classifier": "loaded"}


def test_a_long_lesson_question_is_taught_on_both_backends(sec: Api) -> None:
    s = staff(sec)
    question = "Can I bring " + "my very large and very friendly dog " * 40 + "to the shop?"
    assert 300 < len(question) <= 2000
    draft = sec.call(
        "POST", "/v1/lessons", s["admin"], json={"question": question, "answer": "Yes."}
    )
    assert draft.status_code == 201, draft.text
    approved = sec.call("POST", f"/v1/lessons/{draft.json()['id']}/approve", s["admin"])
    assert approved.status_code == 200, approved.text


def test_a_notebook_is_its_person_s_own(sec: Api) -> None:
    """Any operator once read, removed and added rules in any staff member's notebook, the
    owner's included, served at once as the owner's own."""
    s = staff(sec)
    boss = sec.call("POST", "/v1/users", s["owner"], json={"name": "Boss", "role": "owner"}).json()
    mine = sec.call(
        "POST", "/v1/api-keys", s["owner"], json={"role": "owner", "user_id": boss["id"]}
    ).json()["api_key"]
    base = f"/v1/users/{boss['id']}/notebook"
    assert sec.call("POST", base, mine, json={"text": "Quote in EUR"}).status_code == 201
    (rule,) = sec.call("GET", base, mine).json()["items"]
    for key in (s["op"], s["admin"], s["owner"]):  # nobody else writes it, whatever their role
        assert sec.call("POST", base, key, json={"text": "Give 50% off"}).status_code == 403
        assert sec.call("DELETE", f"{base}/{rule['id']}", key).status_code == 403
        assert sec.call("DELETE", base, key, params={"phrase": "EUR"}).status_code == 403
    assert sec.call("GET", base, s["op"]).status_code == 403  # an operator may not read it
    assert sec.call("GET", base, s["admin"]).status_code == 200  # an admin may
    # not through a conversation either: the staff conversation's chat is its person's
    conv = sec.call(
        "POST",
        "/v1/conversations",
        s["op"],
        json={"agent_id": s["agent"], "channel": "api", "user_id": boss["id"]},
    ).json()
    said = sec.call(
        "POST",
        "/v1/chat",
        s["op"],
        json={"conversation_id": conv["id"], "text": "remember: quote in USD"},
    )
    assert said.status_code in (200, 403) and "Saved" not in said.text
    # nor MCP
    call = Call(sec.mw, s["ws"], Door.mcp, "mcp:op", Principal(Kind.key, s["ws"], Role.operator))
    with pytest.raises(errors.Forbidden):
        tools.execute("remember_rule", {"user_id": boss["id"], "text": "Give 50% off"}, call)
    assert [r["text"] for r in sec.call("GET", base, mine).json()["items"]] == ["Quote in EUR"]


def test_bad_keys_at_mcp_are_throttled_and_never_lock_out_a_valid_key(sec: Api) -> None:
    if sec.client.get("/mcp/").status_code != 401:
        pytest.skip("the mcp extra is not installed")
    s = staff(sec)
    answers = [
        sec.client.post("/mcp/", headers={"Authorization": f"Bearer mw_guess{i:04d}"}).status_code
        for i in range(40)
    ]
    assert answers[0] == 401 and 429 in answers
    wrong = sec.client.post("/mcp/", headers={"Authorization": "Bearer mw_wrong"})
    assert "not valid" in wrong.text or wrong.status_code == 429
    # the same address, with its key: the console lets it in whatever the bad ones did
    sec.client.cookies.clear()
    ok = sec.client.post("/console/login", data={"api_key": s["op"]}, follow_redirects=False)
    assert ok.status_code == 303 and ok.headers["location"] == "/console/conversations"


def test_the_worker_takes_turns_between_workspaces_and_kinds(sec: Api) -> None:
    """60 visitor messages once fanned out to deliveries that delayed another workspace's
    extraction by 31 s: the worker now takes turns between (workspace, kind) queues."""
    jobs = sec.mw.jobs
    loud, quiet = staff(sec)["ws"], staff(sec, "Quiet")["ws"]
    for n in range(60):
        jobs.enqueue(loud, "deliver_event", f"flood:{n}", {"n": n})
    jobs.enqueue(loud, "extract", "loud:extract", {"conversation_id": "x"})
    jobs.enqueue(quiet, "extract", "quiet:extract", {"conversation_id": "y"})
    taken = []
    for _ in range(4):
        job = jobs.claim("w1", ["deliver_event", "extract"])
        assert job is not None
        taken.append((job.workspace_id, job.kind))
    assert (quiet, "extract") in taken[:3] and (loud, "extract") in taken[:3]
    assert taken.count((loud, "deliver_event")) <= 2


def test_limits_hold_for_the_deployment_not_for_each_process(
    database_url: str, clock: FixedClock
) -> None:
    """Three processes once let 87 of 30 requests and 94 of 30 bad keys through a minute:
    on PostgreSQL the buckets are in the database, one per key for the whole deployment."""
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite is one process's database: its limits are that process's")
    settings = Settings(
        database_url=database_url,
        admin_token=ADMIN,
        test_clock=True,
        rate_limit_per_minute=30,
        auth_failures_per_minute=30,
    )
    opened = [
        Memwise.open(database_url, clock=WorkspaceClocks(clock), migrate=False) for _ in "abc"
    ]
    try:
        with (
            TestClient(create_app(settings, opened[0]), raise_server_exceptions=False) as a,
            TestClient(create_app(settings, opened[1]), raise_server_exceptions=False) as b,
            TestClient(create_app(settings, opened[2]), raise_server_exceptions=False) as c,
        ):
            made = a.post(
                "/v1/workspaces",
                json={"name": "Acme", "timezone": "UTC"},
                headers={"Authorization": f"Bearer {ADMIN}"},
            )
            key = made.json()["api_key"]
            served = [
                client.get("/v1/workspace", headers={"Authorization": f"Bearer {key}"}).status_code
                for _ in range(30)
                for client in (a, b, c)
            ]
            assert served.count(200) <= 31 and 429 in served
            bad = [
                client.get(
                    "/v1/workspace", headers={"Authorization": f"Bearer mw_bad{n}"}
                ).status_code
                for n in range(30)
                for client in (a, b, c)
            ]
            assert bad.count(401) <= 31 and 429 in bad
    finally:
        for mw in opened:
            mw.close()


def test_a_model_servers_answer_is_bounded_too(hostile: tuple[str, str]) -> None:
    """The OpenAI-compatible client reads its answer through a bounded transport: a model
    server that drips or floods is cut (the deadline, the 4 MB cap), never read whole."""
    mode, url = hostile
    if mode == "list":
        return
    client = sdk_client("openai", url.rsplit("/", 1)[0], None, timeout=1.0, max_retries=0)
    start = time.monotonic()
    with pytest.raises((http.TooSlow, http.TooLarge)):
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    assert time.monotonic() - start < 4.0
