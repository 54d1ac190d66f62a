"""Jobs, rebuild, usage and events over HTTP."""

from __future__ import annotations

from tests.integration.conftest import Api


def test_end_run_jobs_rebuild_usage(api: Api) -> None:
    _, key = api.workspace()
    agent = api.call(
        "POST", "/v1/agents", key, json={"name": "Eve", "domain": "retail", "memory_enabled": True}
    ).json()
    contact = api.call("POST", "/v1/contacts", key, json={"name": "Ann"}).json()["id"]
    conv = api.call(
        "POST",
        "/v1/conversations",
        key,
        json={"agent_id": agent["id"], "channel": "web", "contact_id": contact},
    ).json()
    api.call(
        "POST",
        f"/v1/conversations/{conv['id']}/turns",
        conv["visitor_token"],
        json={"role": "customer", "text": "Please email me, I prefer email."},
    )
    api.call("POST", f"/v1/conversations/{conv['id']}/end", conv["visitor_token"])
    ran = api.call("POST", "/v1/jobs/run", key).json()
    assert ran == {"ran": {"extract:applied": 1}, "total": 1, "running": 0}
    items = api.call("GET", f"/v1/contacts/{contact}/memory", key).json()["items"]
    assert (
        items[0]["text"] == "Prefers to be contacted by email" and items[0]["trust"] == "verified"
    )
    assert api.call("GET", "/v1/usage", key).json()["used"] == 1
    dry = api.call("POST", f"/v1/contacts/{contact}/rebuild", key, json={"dry_run": True}).json()
    assert dry["conversations"] == 1 and dry["cost"] == 1 and dry["allowed"] is True
    r = api.call("POST", f"/v1/contacts/{contact}/rebuild", key, json={"dry_run": False})
    assert r.status_code == 202 and r.json()["progress"]["running"] is True
    op = api.call("POST", "/v1/api-keys", key, json={"role": "operator"}).json()["api_key"]
    assert api.call("POST", f"/v1/contacts/{contact}/rebuild", op, json={}).status_code == 403
    api.call("POST", "/v1/jobs/run", key)
    progress = api.call("GET", f"/v1/contacts/{contact}/rebuild", key).json()
    assert progress["done"] == 1 and progress["running"] is False


def test_events_from_the_host_application(api: Api) -> None:
    _, key = api.workspace()
    contact = api.call("POST", "/v1/contacts", key, json={"name": "Ann"}).json()["id"]
    r = api.call(
        "POST",
        "/v1/events",
        key,
        json={
            "contact_id": contact,
            "type": "booking",
            "labels": {"hotel": "Marina Bay Sands"},
            "at": "2026-11-01T10:00:00+08:00",
        },
    )
    assert r.status_code == 201 and r.json()["id"].startswith("evt_")
    bad = api.call("POST", "/v1/events", key, json={"contact_id": contact, "type": "Not A Type"})
    assert bad.status_code == 422
    other = api.call("POST", "/v1/events", key, json={"contact_id": "con_nope", "type": "order"})
    assert other.status_code == 404
