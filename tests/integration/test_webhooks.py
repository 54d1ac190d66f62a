"""Inbound email, SMS and voice webhooks: HMAC-signed, threaded, recorded with their channel."""

from __future__ import annotations

import json
from typing import Any

from memwise._services.conversation.inbound import sign
from tests.integration.conftest import Api

VOUCHED = {"email": {"spf": "pass", "dkim": "pass", "dmarc": "pass"}, "any": {"verified": True}}


def _post(api: Api, ws: str, channel: str, payload: Any, secret: str | None) -> Any:
    """As a provider that authenticates its senders sends it (the verdict beside the text)."""
    if isinstance(payload, dict) and "authentication" not in payload:
        payload = {**payload, "authentication": VOUCHED.get(channel, VOUCHED["any"])}
    body = json.dumps(payload).encode()
    headers = {"content-type": "application/json"}
    if secret:
        stamp = str(int(api.mw.clock.now().timestamp()))
        headers["x-memwise-timestamp"] = stamp
        headers["x-memwise-signature"] = sign(secret, body, stamp, channel)
    return api.client.post(f"/v1/webhooks/{ws}/{channel}", content=body, headers=headers)


def test_signed_messages_are_threaded_and_recorded(api: Api) -> None:
    ws, key = api.workspace()
    api.call("POST", "/v1/agents", key, json={"name": "Eve"})
    known = api.call(
        "POST", "/v1/contacts", key, json={"name": "Ann", "emails": ["ann@example.com"]}
    ).json()["id"]
    secret = api.call("POST", "/v1/webhook-secret", key).json()["secret"]
    first = _post(
        api,
        ws,
        "email",
        {
            "from": "Ann@Example.com",
            "to": "shop@example.com",
            "text": "Do you ship to Austria?",
            "thread_id": "t-1",
            "at": "2026-11-29T10:00:00+01:00",
        },
        secret,
    )
    assert first.status_code == 201, first.text
    assert first.json()["contact_id"] == known and first.json()["threaded"] is False
    reply = _post(
        api,
        ws,
        "email",
        {"from": "ann@example.com", "text": "Also to Vienna?", "thread_id": "t-1"},
        secret,
    ).json()
    assert reply["threaded"] is True and reply["conversation_id"] == first.json()["conversation_id"]
    turns = api.call("GET", f"/v1/conversations/{reply['conversation_id']}/turns", key).json()
    assert [(t["channel"], t["text"]) for t in turns["items"]] == [
        ("email", "Do you ship to Austria?"),
        ("email", "Also to Vienna?"),
    ]
    call = _post(
        api,
        ws,
        "voice",
        {
            "from": "+49 30 555 0199",
            "transcript": [
                {"speaker": "caller", "text": "Is my order ready?"},
                {"speaker": "agent", "text": "Let me check."},
            ],
        },
        secret,
    ).json()
    voice = api.call("GET", f"/v1/conversations/{call['conversation_id']}/turns", key).json()
    assert [(t["role"], t["channel"]) for t in voice["items"]] == [
        ("customer", "voice"),
        ("operator", "voice"),
    ]
    sms = _post(api, ws, "sms", {"from": "+49 30 555 0199", "text": "thanks"}, secret).json()
    assert sms["contact_id"] == call["contact_id"]  # the same phone, the same contact


def test_bad_signatures_record_nothing(api: Api) -> None:
    ws, key = api.workspace()
    api.call("POST", "/v1/agents", key, json={"name": "Eve"})
    secret = api.call("POST", "/v1/webhook-secret", key).json()["secret"]
    message = {"from": "x@example.com", "text": "hello", "thread_id": "t"}
    for s in (None, "whk_wrong", secret + "x"):
        r = _post(api, ws, "email", message, s)
        assert r.status_code == 401 and r.json()["error"]["code"] == "bad_signature"
    assert api.call("GET", "/v1/conversations", key).json()["items"] == []
    assert _post(api, "ws_unknown", "email", message, secret).status_code == 401
    api.call("POST", "/v1/webhook-secret", key)  # rotated: the old secret stops working
    assert _post(api, ws, "email", message, secret).status_code == 401


def test_bad_messages_are_clear_errors(api: Api) -> None:
    ws, key = api.workspace()
    api.call("POST", "/v1/agents", key, json={"name": "Eve"})
    secret = api.call("POST", "/v1/webhook-secret", key).json()["secret"]
    for channel, payload, code in [
        ("fax", {"from": "a", "text": "x"}, "invalid_channel"),
        ("email", {"text": "no sender"}, "invalid_sender"),
        ("email", {"from": "a@example.com"}, "empty_message"),
        ("email", {"from": "a@example.com", "text": "x", "at": "yesterday"}, "invalid_time"),
        (
            "voice",
            {"from": "+4930555", "transcript": [{"speaker": "robot", "text": "x"}]},
            "invalid_speaker",
        ),
    ]:
        r = _post(api, ws, channel, payload, secret)
        assert r.status_code == 422 and r.json()["error"]["code"] == code, (payload, r.text)
    r = _post(api, ws, "email", ["not", "an", "object"], secret)
    assert r.status_code == 422


def test_a_door_switched_off_records_nothing_and_a_retry_after_it_opens_lands(api: Api) -> None:
    ws, key = api.workspace()
    agent = api.call("POST", "/v1/agents", key, json={"name": "Eve", "doors": ["web"]}).json()
    secret = api.call("POST", "/v1/webhook-secret", key).json()["secret"]
    message = {"from": "ann@example.com", "text": "Do you ship to Austria?", "message_id": "m-1"}
    r = _post(api, ws, "email", message, secret)
    assert r.status_code == 409 and r.json()["error"]["code"] == "door_off"
    assert api.call("GET", "/v1/conversations", key).json()["items"] == []
    assert (
        api.call(
            "POST", "/v1/identify", key, json={"kind": "email", "value": "ann@example.com"}
        ).json()["status"]
        == "unbound"
    )
    on = api.call("PUT", f"/v1/agents/{agent['id']}/doors/email", key, json={"on": True})
    assert on.status_code == 200
    r = _post(api, ws, "email", message, secret)  # the same message id: not a replay
    assert r.status_code == 201, r.text


def test_a_thread_on_a_closed_door_is_not_joined_through_another_agent(api: Api) -> None:
    ws, key = api.workspace()
    open_agent = api.call("POST", "/v1/agents", key, json={"name": "Desk"}).json()
    closing = api.call("POST", "/v1/agents", key, json={"name": "Eve", "doors": ["email"]}).json()
    secret = api.call("POST", "/v1/webhook-secret", key).json()["secret"]
    first = {"from": "ann@example.com", "text": "hello", "thread_id": "T1"}
    r = _post(api, ws, "email", {**first, "agent_id": closing["id"]}, secret)
    assert r.status_code == 201
    conv = r.json()["conversation_id"]
    api.call("PUT", f"/v1/agents/{closing['id']}/doors/email", key, json={"on": False})
    for payload in (
        {**first, "text": "again"},
        {**first, "text": "x", "agent_id": open_agent["id"]},
    ):
        r = _post(api, ws, "email", payload, secret)
        assert r.status_code == 409 and r.json()["error"]["code"] == "door_off", r.text
    turns = api.call("GET", f"/v1/conversations/{conv}/turns", key).json()["items"]
    assert [t["text"] for t in turns] == ["hello"]


def test_a_replys_quoted_history_and_an_agents_lines_are_kept_but_never_the_customers(
    api: Api,
) -> None:
    ws, key = api.workspace()
    api.call("POST", "/v1/agents", key, json={"name": "Eve"})
    secret = api.call("POST", "/v1/webhook-secret", key).json()["secret"]
    reply = "Thanks, Friday works.\n\nOn Mon, 3 Nov 2026, Acme wrote:\n> I live in Munich."
    mail = _post(api, ws, "email", {"from": "ann@example.com", "text": reply}, secret).json()
    turns = api.call("GET", f"/v1/conversations/{mail['conversation_id']}/turns", key).json()
    roles = [(t["role"], t["text"]) for t in turns["items"]]
    assert roles[0] == ("customer", "Thanks, Friday works.")
    assert roles[1][0] == "tool" and "I live in Munich" in roles[1][1]  # kept, not theirs
    call = _post(
        api,
        ws,
        "voice",
        {"from": "+4930123456", "transcript": "Agent: I live in Berlin myself. Caller: OK, bye."},
        secret,
    ).json()
    turns = api.call("GET", f"/v1/conversations/{call['conversation_id']}/turns", key).json()
    assert [t["role"] for t in turns["items"]] == ["operator", "customer"]


def test_a_sender_without_the_providers_verdict_is_recorded_but_never_memory(api: Api) -> None:
    """A forged From once joined the victim's thread and became verified memory on them."""
    ws, key = api.workspace()
    api.call(
        "POST", "/v1/agents", key, json={"name": "Eve", "memory_enabled": True, "domain": "retail"}
    )
    victim = api.call(
        "POST", "/v1/contacts", key, json={"name": "Ann", "emails": ["ann@example.com"]}
    ).json()["id"]
    secret = api.call("POST", "/v1/webhook-secret", key).json()["secret"]
    for verdict in ({}, {"spf": "fail", "dkim": "pass", "dmarc": "fail"}, "pass"):
        forged = {
            "from": "ann@example.com",
            "text": "I'm allergic to penicillin and I moved to Denpasar.",
            "authentication": verdict,
        }
        got = _post(api, ws, "email", forged, secret).json()
        assert got["contact_id"] == victim
        turns = api.call("GET", f"/v1/conversations/{got['conversation_id']}/turns", key).json()
        assert [t["role"] for t in turns["items"]] == ["sender"]
        api.call("POST", f"/v1/conversations/{got['conversation_id']}/end", key)
    api.call("POST", "/v1/jobs/run", key)
    assert api.call("GET", f"/v1/contacts/{victim}/memory", key).json()["items"] == []
    # the same words with the provider's pass are the customer's
    vouched = _post(
        api, ws, "email", {"from": "ann@example.com", "text": "I moved to Leeds."}, secret
    )
    turns = api.call("GET", f"/v1/conversations/{vouched.json()['conversation_id']}/turns", key)
    assert [t["role"] for t in turns.json()["items"]] == ["customer"]
