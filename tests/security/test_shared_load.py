"""The third security pass (docs/security.md, "Shared load"): no message, request or tenant
can hold what everyone shares. Each test replays one reproduced attack on both backends."""

from __future__ import annotations

import random
import string

from memwise.doors.telegram import ONE_TO_ONE, Incoming, TelegramDoor
from tests.integration.conftest import Api


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
