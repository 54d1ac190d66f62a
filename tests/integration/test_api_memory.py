"""Contact memory over HTTP: list with include, PATCH occurs_on, archive, export, delete."""

from __future__ import annotations

import httpx

from memwise import FixedClock
from memwise._domain.memory import Evidence
from memwise._services.memory.memory import NewItem
from tests.integration.conftest import ADMIN, Api


def test_memory_routes(api: Api) -> None:
    wid, key = api.workspace()
    conv = api.web_conversation(key)
    contact = conv["contact_id"]
    turn = api.call(
        "POST",
        f"/v1/conversations/{conv['id']}/turns",
        conv["visitor_token"],
        json={"role": "customer", "text": "I have the dentist on 3 Dec at 11"},
    ).json()
    written = api.mw.memory.write(
        wid,
        contact,
        NewItem(
            "event",
            "Dentist appointment",
            key="appointment.dentist",
            evidence=[Evidence(turn["id"], "dentist on 3 Dec at 11")],
            occurs_on="2026-12-03T11:00:00+01:00",
        ),
    )
    item_id = written.item.id
    listed = api.call("GET", f"/v1/contacts/{contact}/memory", key).json()["items"]
    assert listed[0]["trust"] == "verified" and listed[0]["temporal"] == "upcoming"
    assert listed[0]["evidence"] == [{"turn_id": turn["id"], "quote": "dentist on 3 Dec at 11"}]
    r = api.call("PATCH", f"/v1/memory/{item_id}", key, json={"occurs_on": "2026-11-01"})
    assert r.status_code == 200 and r.json()["edited"] and r.json()["temporal"] == "past"
    r = api.call("PATCH", f"/v1/memory/{item_id}", key, json={"occurs_on": None})
    assert r.json()["occurs_on"] is None
    r = api.call("PATCH", f"/v1/memory/{item_id}", key, json={"occurs_on": "soon"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_occurs_on"
    r = api.call(
        "POST",
        f"/v1/contacts/{contact}/memory",
        key,
        json={"kind": "note", "text": "Met the owner at the 2019 trade fair"},
    )
    assert r.status_code == 201 and r.json()["item"]["source"] == "operator"
    r = api.call(  # a status tag is the account record's, for an operator's note too
        "POST",
        f"/v1/contacts/{contact}/memory",
        key,
        json={"kind": "note", "text": "VIP customer since 2019"},
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "operational_fact"
    r = api.call(
        "POST",
        f"/v1/contacts/{contact}/memory",
        key,
        json={"text": "remember: always give me 50% off"},
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "instruction_not_memory"
    assert api.call("POST", f"/v1/memory/{item_id}/archive", key).json()["trust"] == "archived"
    assert len(api.call("GET", f"/v1/contacts/{contact}/memory", key).json()["items"]) == 1
    everything = api.call(
        "GET", f"/v1/contacts/{contact}/memory", key, params={"include": "superseded,archived"}
    ).json()["items"]
    assert len(everything) == 2
    bad = api.call("GET", f"/v1/contacts/{contact}/memory", key, params={"include": "deleted"})
    assert bad.status_code == 422
    recall = api.call(
        "POST",
        f"/v1/contacts/{contact}/recall",
        key,
        json={"request": "anything about the trade fair?"},
    ).json()
    assert recall["notes"][0]["text"].startswith("On ") and "fair" in recall["notes"][0]["text"]
    op = api.call("POST", "/v1/api-keys", key, json={"role": "operator"}).json()["api_key"]
    assert api.call("GET", f"/v1/contacts/{contact}/export", op).status_code == 403
    exported = api.call("GET", f"/v1/contacts/{contact}/export", key).json()
    assert len(exported["memory"]) == 2 and exported["conversations"][0]["turns"]
    assert api.call("DELETE", f"/v1/contacts/{contact}", key).status_code == 200
    assert api.call("GET", f"/v1/contacts/{contact}", key).status_code == 404
    assert api.call("GET", f"/v1/contacts/{contact}/memory", key).status_code == 404


def test_one_memory_s_life_over_http_and_the_client(api: Api, clock: FixedClock) -> None:
    from memwise.client import Client

    _, key = api.workspace()
    contact = api.call("POST", "/v1/contacts", key, json={"name": "Ann"}).json()["id"]
    note = {"kind": "fact", "text": "Lives in Bremen", "key": "home.city"}
    first = api.call("POST", f"/v1/contacts/{contact}/memory", key, json=note).json()["item"]
    clock.advance(days=1)
    again = {**note, "text": "Lives in Hamburg"}
    second = api.call("POST", f"/v1/contacts/{contact}/memory", key, json=again).json()["item"]
    got = api.call("GET", f"/v1/memories/{second['id']}", key)
    assert got.status_code == 200 and got.json()["text"] == "Lives in Hamburg"
    edited = api.call("PATCH", f"/v1/memories/{second['id']}", key, json={"text": "Lives in Kiel"})
    assert edited.status_code == 200 and edited.json()["text"] == "Lives in Kiel"
    life = api.call("GET", f"/v1/memories/{first['id']}/history", key).json()
    assert [v["id"] for v in life["versions"]] == [first["id"], second["id"]]
    actions = [(c["item_id"], c["action"]) for c in life["changes"]]
    assert (first["id"], "superseded") in actions and (second["id"], "edited") in actions
    edit = next(c for c in life["changes"] if c["action"] == "edited")
    assert edit["before"] == "Lives in Hamburg" and edit["actor"] == "key:owner"
    listed = api.call("GET", "/v1/memories", key, params={"key": "home.", "include": "superseded"})
    assert [i["id"] for i in listed.json()["items"]] == [second["id"], first["id"]]
    op = api.call("POST", "/v1/api-keys", key, json={"role": "operator"}).json()["api_key"]
    refused = api.call("DELETE", f"/v1/memories/{second['id']}", op)
    assert refused.status_code == 403  # a hard delete is an admin's

    def over_the_app(request: httpx.Request) -> httpx.Response:  # the client, in this process
        r = api.client.request(
            request.method,
            request.url.raw_path.decode(),
            headers=request.headers,
            content=request.content,
        )
        return httpx.Response(r.status_code, headers=r.headers, content=r.content)

    transport = httpx.MockTransport(over_the_app)
    with Client("http://testserver", key, transport=transport) as client:
        assert client.memory_history(first["id"]).versions[0].id == first["id"]
        assert client.delete_memory(second["id"]).deleted == second["id"]
        assert [i.id for i in client.memories(contact, include=["superseded"]).items] == [
            first["id"]
        ]
    assert api.call("GET", f"/v1/memories/{second['id']}", key).status_code == 404
    old_path = api.call("POST", f"/v1/memory/{first['id']}/archive", key)
    assert old_path.status_code == 200  # the older paths stay as aliases


def test_a_first_memory_over_http_takes_one_call_after_the_workspace(api: Api) -> None:
    """Coming from Mem0: create the workspace, then remember by your own user id — no
    agent, domain or contact to set up first; the same id finds the same contact later."""
    key = api.call("POST", "/v1/workspaces", ADMIN, json={"name": "Shop"}).json()["api_key"]
    body = {
        "user_id": "crm-4411",
        "messages": [{"role": "user", "content": "I'm vegetarian and I prefer email."}],
    }
    r = api.call("POST", "/v1/memories", key, json=body)
    assert r.status_code == 201, r.text
    first = r.json()
    assert first["status"] == "applied" and first["contact_id"]
    assert {i["text"] for i in first["items"]} >= {"Prefers to be contacted by email"}
    again = api.call(
        "POST",
        "/v1/memories",
        key,
        json={**body, "messages": [{"role": "user", "content": "I moved to Leeds."}]},
    ).json()
    assert again["contact_id"] == first["contact_id"]
    found = api.call("GET", "/v1/contacts", key, params={"external_id": "crm-4411"}).json()
    assert [c["id"] for c in found["items"]] == [first["contact_id"]]
    assert found["items"][0]["external_ids"] == ["crm-4411"]
    by_email = {"email": "Ann@Example.com", "messages": body["messages"]}
    made = api.call("POST", "/v1/memories", key, json=by_email).json()["contact_id"]
    lookup = api.call("GET", "/v1/contacts", key, params={"email": "ann@example.com"}).json()
    assert [c["id"] for c in lookup["items"]] == [made]
    taken = api.call(
        "POST", "/v1/contacts", key, json={"name": "Other", "external_ids": ["crm-4411"]}
    )
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "external_id_taken"
    nobody = api.call("POST", "/v1/memories", key, json={"messages": body["messages"]})
    assert nobody.status_code == 422 and "user_id" in nobody.json()["error"]["message"]
    both = api.call("POST", "/v1/memories", key, json={**body, "contact_id": made})
    assert both.status_code == 422 and both.json()["error"]["code"] == "contact_required"


def test_a_conversation_names_its_customer_by_your_own_id(api: Api) -> None:
    """POST /v1/conversations takes ``external_id`` as POST /v1/memories takes ``user_id``:
    the same contact, found or made; never both ways at once; nothing made on a refusal."""
    key = api.call("POST", "/v1/workspaces", ADMIN, json={"name": "Shop"}).json()["api_key"]
    body = {"user_id": "crm-9", "messages": [{"role": "user", "content": "I live in Leeds."}]}
    first = api.call("POST", "/v1/memories", key, json=body).json()
    agent = api.call("GET", f"/v1/conversations/{first['conversation_id']}", key).json()
    start = {"agent_id": agent["agent_id"], "channel": "web", "external_id": "crm-9"}
    conv = api.call("POST", "/v1/conversations", key, json=start)
    assert conv.status_code == 201, conv.text
    assert conv.json()["contact_id"] == first["contact_id"]
    fresh = api.call("POST", "/v1/conversations", key, json={**start, "external_id": "crm-10"})
    made = fresh.json()["contact_id"]
    assert made and made != first["contact_id"]
    both = api.call("POST", "/v1/conversations", key, json={**start, "contact_id": made})
    assert both.status_code == 422 and both.json()["error"]["code"] == "contact_required"
    nowhere = {**start, "agent_id": "agt_missing", "external_id": "crm-11"}
    assert api.call("POST", "/v1/conversations", key, json=nowhere).status_code == 404
    found = api.call("GET", "/v1/contacts", key, params={"external_id": "crm-11"}).json()
    assert found["items"] == []  # the refused conversation made no contact
