"""Tenant isolation as a property: random API calls with the keys and visitor tokens of two
workspaces never read or write across them. Every call aimed at another workspace's object
(or, for a visitor, outside its conversation) answers 404; every listing holds only the
caller's own objects; no call is a 5xx."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.integration.conftest import Api

TARGETED = [
    ("GET", "/v1/contacts/{contact}", None),
    ("GET", "/v1/contacts/{contact}/memory", None),
    ("GET", "/v1/contacts/{contact}/history?q=marker", None),
    ("GET", "/v1/contacts/{contact}/patterns", None),
    ("POST", "/v1/contacts/{contact}/memory", {"text": "an operator's note"}),
    ("POST", "/v1/contacts/{contact}/recall", {"request": "marker"}),
    ("PATCH", "/v1/memory/{item}", {"text": "changed by someone"}),
    ("POST", "/v1/memory/{item}/archive", None),
    ("GET", "/v1/conversations/{conv}", None),
    ("GET", "/v1/conversations/{conv}/turns", None),
    ("GET", "/v1/conversations/{conv}/window", None),
    ("POST", "/v1/conversations/{conv}/turns", {"role": "customer", "text": "hello there"}),
    ("POST", "/v1/conversations/{conv}/reset", None),
    ("POST", "/v1/chat", {"conversation_id": "{conv}", "text": "what do you know?"}),
    ("POST", "/v1/context", {"conversation_id": "{conv}", "request": "marker"}),
    ("POST", "/v1/accounts/lookup", {"conversation_id": "{conv}", "kind": "balance"}),
    ("GET", "/v1/users/{user}/notebook", None),
    ("POST", "/v1/users/{user}/notebook", {"text": "Use metric units in replies."}),
    ("GET", "/v1/agents/{agent}", None),
    ("PATCH", "/v1/agents/{agent}", {"name": "Renamed"}),
    ("POST", "/v1/lessons/{lesson}/approve", None),
    ("GET", "/v1/contacts/{contact}/export", None),
]
LISTINGS = [
    "/v1/conversations",
    "/v1/audit",
    "/v1/unanswered",
    "/v1/lessons",
    "/v1/tickets",
    "/v1/knowledge/documents",
    "/v1/knowledge/search?q=marker",
    "/v1/record/search?q=marker",
    "/v1/receipts",
]


@dataclass
class Tenant:
    ws: str
    key: str
    visitor: str
    ids: dict[str, str]
    marker: str


def tenant(api: Api, name: str, marker: str) -> Tenant:
    ws, key = api.workspace(name)

    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = api.call("POST", path, key, json=body)
        assert r.status_code in (200, 201), r.text
        data: dict[str, Any] = r.json()
        return data

    agent = post("/v1/agents", {"name": f"{name} agent"})["id"]
    user = post("/v1/users", {"name": f"{name} staff", "role": "operator"})["id"]
    contact = post("/v1/contacts", {"name": f"{name} customer {marker}"})["id"]
    conv = post("/v1/conversations", {"agent_id": agent, "channel": "web", "contact_id": contact})
    post(f"/v1/conversations/{conv['id']}/turns", {"role": "customer", "text": f"{marker} bike"})
    item = post(f"/v1/contacts/{contact}/memory", {"text": f"Likes {marker} bikes"})["item"]["id"]
    lesson = post("/v1/lessons", {"question": f"{marker}?", "answer": f"{marker} answer"})["id"]
    post(
        "/v1/knowledge/documents",
        {"kind": "faq", "title": f"{marker} doc", "body": f"All about {marker}.", "version": "1"},
    )
    ids = {
        "agent": agent,
        "user": user,
        "contact": contact,
        "conv": conv["id"],
        "item": item,
        "lesson": lesson,
    }
    return Tenant(ws, key, conv["visitor_token"], ids, marker)


def fill(value: Any, ids: dict[str, str]) -> Any:
    if isinstance(value, str):
        return value.format(**ids)
    if isinstance(value, dict):
        return {k: fill(v, ids) for k, v in value.items()}
    return value


def test_random_calls_never_cross_workspaces(api: Api) -> None:
    tenants = [tenant(api, "Alpha", "zephyrine"), tenant(api, "Beta", "quorundel")]
    crossings: list[str] = []
    made = {"calls": 0, "aimed across": 0}

    @settings(
        max_examples=150,
        derandomize=True,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(
        st.lists(
            st.tuples(
                st.integers(0, 1),  # whose token
                st.booleans(),  # a visitor token instead of the key
                st.integers(0, len(TARGETED) + len(LISTINGS) - 1),
                st.integers(0, 1),  # whose object
            ),
            min_size=1,
            max_size=20,
        )
    )
    def calls(plan: list[tuple[int, bool, int, int]]) -> None:
        for who, visitor, op, whose in plan:
            me, them = tenants[who], tenants[1 - who]
            token = me.visitor if visitor else me.key
            made["calls"] += 1
            if op >= len(TARGETED):
                path = LISTINGS[op - len(TARGETED)]
                r = api.call("GET", path, token)
                assert r.status_code < 500, (path, r.text)
                if r.status_code == 200 and (
                    them.marker in r.text or any(i in r.text for i in them.ids.values())
                ):
                    crossings.append(f"{path} listed another workspace's data")
                continue
            method, template, body = TARGETED[op]
            target = tenants[whose]
            made["aimed across"] += target is them
            path = template.format(**target.ids)
            r = api.call(method, path, token, json=fill(body, target.ids) if body else None)
            assert r.status_code < 500, (method, path, r.status_code, r.text)
            if target is them and r.status_code != 404:
                crossings.append(f"{method} {path} with {who}'s token answered {r.status_code}")
            if r.status_code < 300 and them.marker in r.text:
                crossings.append(f"{method} {path} returned another workspace's data")

    calls()
    print(f"\n{made['calls']} calls, {made['aimed across']} aimed at the other workspace")
    assert crossings == []
    # and the other side's objects are as they were: nothing was written across
    for me, them in ((tenants[0], tenants[1]), (tenants[1], tenants[0])):
        r = api.call("GET", f"/v1/contacts/{me.ids['contact']}/memory", me.key)
        assert all(them.marker not in i["text"] for i in r.json()["items"])
        r = api.call("GET", f"/v1/users/{me.ids['user']}/notebook", me.key)
        assert all(them.marker not in e["text"] for e in r.json()["items"])
