"""Events out: signed, delivered by the worker with retries, logged; never to internal hosts
unless the server operator allows it."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from memwise import FixedClock
from memwise._accounts.policy import AccountPolicy
from tests.integration.conftest import Api


class Receiver(BaseHTTPRequestHandler):
    got: list[dict[str, Any]]
    fail_first: list[int]

    def log_message(self, *a: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["content-length"]))
        if type(self).fail_first and type(self).fail_first[0] > 0:
            type(self).fail_first[0] -= 1
            self.send_response(503)
            self.end_headers()
            return
        type(self).got.append({"headers": dict(self.headers), "body": body})
        self.send_response(204)
        self.end_headers()


@pytest.fixture
def receiver() -> Iterator[tuple[str, type[Receiver]]]:
    handler = type("R", (Receiver,), {"got": [], "fail_first": [0]})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hooks", handler
    server.shutdown()
    server.server_close()


def _workspace(api: Api) -> tuple[str, str, str]:
    _, key = api.workspace()
    agent = api.call(
        "POST", "/v1/agents", key, json={"name": "Eve", "memory_enabled": True, "domain": "retail"}
    ).json()["id"]
    contact = api.call("POST", "/v1/contacts", key, json={"name": "Ann"}).json()["id"]
    return key, agent, contact


def test_events_are_signed_delivered_and_logged(
    api: Api, receiver: tuple[str, type[Receiver]], clock: FixedClock
) -> None:
    url, handler = receiver
    key, agent, contact = _workspace(api)
    api.mw.accounts.allow(
        AccountPolicy(private_hosts=("events:127.0.0.1", "tickets:127.0.0.1"))
    )  # the receiver is on loopback
    made = api.call("POST", "/v1/event-endpoints", key, json={"url": url}).json()
    secret = made["secret"]
    assert "secret" not in str(api.call("GET", "/v1/event-endpoints", key).json())
    conv = api.call(
        "POST",
        "/v1/conversations",
        key,
        json={"agent_id": agent, "channel": "web", "contact_id": contact},
    ).json()["id"]
    api.call(
        "POST",
        f"/v1/conversations/{conv}/turns",
        key,
        json={"role": "customer", "text": "I prefer email, please."},
    )
    api.call("POST", f"/v1/conversations/{conv}/end", key)
    handler.fail_first[0] = 1  # the first delivery meets a 503: retried later
    api.call("POST", "/v1/jobs/run", key)
    clock.advance(minutes=5)
    api.call("POST", "/v1/jobs/run", key)
    types = [json.loads(g["body"])["type"] for g in handler.got]
    assert "conversation.ended" in types and "memory.created" in types
    for g in handler.got:
        h = {k.lower(): v for k, v in g["headers"].items()}
        signed = f"{h['x-memwise-timestamp']}.{h['x-memwise-event']}.".encode() + g["body"]
        expected = "sha256=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
        assert h["x-memwise-signature"] == expected
        assert h["x-memwise-delivery"] == json.loads(g["body"])["id"]
    log = api.call("GET", "/v1/event-deliveries", key).json()["items"]
    assert {d["status"] for d in log} == {"done"}
    assert max(d["attempts"] for d in log) == 2  # the one that met the 503


def test_an_endpoint_on_an_internal_address_is_never_called(
    api: Api, receiver: tuple[str, type[Receiver]]
) -> None:
    url, handler = receiver
    key, _, contact = _workspace(api)
    api.call("POST", "/v1/event-endpoints", key, json={"url": url, "events": ["memory.created"]})
    api.mw.remember(
        api.mw.tenancy.authenticate_key(key)[0],  # type: ignore[index]
        contact,
        [{"role": "user", "text": "I prefer email."}],
    )
    api.call("POST", "/v1/jobs/run", key)
    assert handler.got == []
    log = api.call("GET", "/v1/event-deliveries", key).json()["items"]
    assert log and all("not reachable from this server" in (d["last_error"] or "") for d in log)
    assert (
        api.call(
            "POST", "/v1/event-endpoints", key, json={"url": "javascript:alert(1)"}
        ).status_code
        == 422
    )
    assert (
        api.call(
            "POST", "/v1/event-endpoints", key, json={"url": url, "events": ["memory.exploded"]}
        ).status_code
        == 422
    )


def test_tickets_go_to_the_workspaces_helpdesk(
    api: Api, receiver: tuple[str, type[Receiver]]
) -> None:
    url, handler = receiver
    key, _, _ = _workspace(api)
    assert api.call("GET", "/v1/ticket-adapter", key).json() == {"type": "local"}
    set_ = api.call(
        "PUT",
        "/v1/ticket-adapter",
        key,
        json={"url": url, "headers": {"Authorization": "Bearer helpdesk-secret"}},
    )
    assert set_.status_code == 200 and "helpdesk-secret" not in set_.text
    assert "helpdesk-secret" not in api.call("GET", "/v1/ticket-adapter", key).text
    blocked = api.call("POST", "/v1/tickets", key, json={"subject": "S", "body": "B"}).json()
    assert blocked["status"] == "failed" and handler.got == []  # loopback: not allowed
    api.mw.accounts.allow(AccountPolicy(private_hosts=("events:127.0.0.1", "tickets:127.0.0.1")))
    sent = api.call("POST", "/v1/tickets", key, json={"subject": "Call back", "body": "B"})
    assert sent.json()["status"] == "accepted" and len(handler.got) == 1
    h = {k.lower(): v for k, v in handler.got[0]["headers"].items()}
    assert h["authorization"] == "Bearer helpdesk-secret"
    back = api.call("DELETE", "/v1/ticket-adapter", key).json()
    assert back == {"type": "local"}


def test_a_data_request_deletes_the_contacts_events_too(api: Api) -> None:
    key, _, contact = _workspace(api)
    ws = api.call("GET", "/v1/workspace", key).json()["id"]
    api.call("POST", "/v1/event-endpoints", key, json={"url": "https://hooks.example.com/x"})
    api.mw.remember(ws, contact, [{"role": "user", "text": "I prefer email, please."}])
    queued = api.call("GET", "/v1/event-deliveries", key).json()["items"]
    assert {d["type"] for d in queued} >= {"memory.created", "conversation.ended"}
    assert api.call("DELETE", f"/v1/contacts/{contact}", key).status_code == 200
    from memwise._storage.schema import jobs

    with api.mw.rt.db.read() as conn:
        payloads = [str(p) for p in conn.execute(jobs.select()).mappings()]
    assert not any(contact in p or "prefer email" in p for p in payloads)


def test_library_callers_meet_the_same_text_rule(api: Api) -> None:
    from memwise import errors

    ws, _ = api.mw.tenancy.create_workspace("Lib")
    with pytest.raises(errors.Invalid):
        api.mw.tenancy.create_contact(ws.id, "Ann", addresses=["Main St\x00 1"])
    assert api.mw.tenancy.create_contact(ws.id, "An\x01n").name == "Ann"  # cleaned, kept
