"""The HTTP contract for setup, conversations, record, audit, errors and auth."""

from __future__ import annotations

from tests.integration.conftest import ADMIN, Api


def test_health_needs_no_auth(api: Api) -> None:
    r = api.call("GET", "/v1/health")
    assert r.status_code == 200 and r.json()["status"] == "ok" and r.json()["version"]
    assert r.json()["metering"] is False  # self-hosted: no plan or allowance applies


def test_a_free_plan_workspace_is_not_metered_on_a_self_hosted_server(api: Api) -> None:
    ws = api.call("POST", "/v1/workspaces", ADMIN, json={"name": "Free", "plan": "free"}).json()
    usage = api.call("GET", "/v1/usage", ws["api_key"]).json()
    assert usage["metered"] is False and usage["allowance"] == 0


def test_auth_errors_have_the_contract_shape(api: Api) -> None:
    r = api.call("GET", "/v1/workspace")
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    assert api.call("GET", "/v1/workspace", "mw_wrong").status_code == 401
    assert set(r.json()["error"]) == {"code", "message", "details", "kind"}
    assert r.json()["error"]["kind"] == "unauthorized"  # the memwise.errors class


def test_only_the_admin_token_creates_workspaces_and_it_does_nothing_else(api: Api) -> None:
    wid, key = api.workspace()
    assert api.call("POST", "/v1/workspaces", key, json={"name": "X"}).status_code == 403
    assert api.call("GET", "/v1/workspace", ADMIN).status_code == 404
    assert api.call("GET", "/v1/workspace", key).json()["id"] == wid


def test_agent_memory_needs_a_domain(api: Api) -> None:
    _, key = api.workspace()
    r = api.call("POST", "/v1/agents", key, json={"name": "Eve", "memory_enabled": True})
    assert r.status_code == 409 and r.json()["error"]["code"] == "domain_required"
    agent = api.call("POST", "/v1/agents", key, json={"name": "Eve"}).json()
    r = api.call(
        "PATCH", f"/v1/agents/{agent['id']}", key, json={"domain": "retail", "memory_enabled": True}
    )
    assert r.status_code == 200 and r.json()["memory_enabled"] is True
    assert api.call("GET", f"/v1/agents/{agent['id']}", key).json()["domain"] == "retail"


def test_bad_input_is_422_or_400_never_500(api: Api) -> None:
    _, key = api.workspace()
    cases = [
        ("POST", "/v1/agents", {"name": "", "record_policy": "archive"}),
        ("POST", "/v1/agents", {"name": "E", "record_policy": "forever"}),
        ("POST", "/v1/agents", {"name": "E", "surprise": 1}),
        ("POST", "/v1/contacts", {"name": "A", "emails": ["nope"]}),
        ("POST", "/v1/users", {"name": "A", "role": "king"}),
        ("POST", "/v1/conversations", {"agent_id": "x", "channel": "web"}),
    ]
    for method, path, body in cases:
        r = api.call(method, path, key, json=body)
        assert r.status_code in (404, 422), (path, body, r.text)
        assert "error" in r.json()
    r = api.call(
        "POST",
        "/v1/agents",
        key,
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert r.status_code in (400, 401)
    r = api.client.post(
        "/v1/agents",
        content=b"{not json",
        headers={"content-type": "application/json", "authorization": f"Bearer {key}"},
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_json"
    r = api.call("POST", "/v1/workspaces", ADMIN, json={"name": "A", "timezone": "Nowhere/X"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_timezone"


def test_request_body_limit_is_413(api: Api) -> None:
    _, key = api.workspace()
    r = api.call("POST", "/v1/contacts", key, json={"name": "A" * 2_000_000})
    assert r.status_code == 413 and r.json()["error"]["code"] == "request_too_large"


def _customer_conversation(api: Api, key: str) -> tuple[str, str, str]:
    agent = api.call("POST", "/v1/agents", key, json={"name": "Eve"}).json()
    contact = api.call(
        "POST",
        "/v1/contacts",
        key,
        json={"name": "Ann", "emails": ["ann@example.com"], "account_refs": ["ACC-1"]},
    ).json()
    r = api.call(
        "POST",
        "/v1/conversations",
        key,
        json={
            "agent_id": agent["id"],
            "channel": "web",
            "contact_id": contact["id"],
            "account_ref": "ACC-1",
        },
    )
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["visitor_token"], contact["id"]


def test_conversation_turns_record_and_search(api: Api) -> None:
    _, key = api.workspace()
    conv, visitor, _ = _customer_conversation(api, key)
    r = api.call(
        "POST",
        f"/v1/conversations/{conv}/turns",
        visitor,
        json={"role": "customer", "text": "Where is my blender refund?"},
    )
    assert r.status_code == 201
    r = api.call(
        "POST",
        f"/v1/conversations/{conv}/turns",
        key,
        json={
            "role": "assistant",
            "text": "Checking the refund now.",
            "at": "2026-11-29T10:00:00+01:00",
        },
    )
    assert r.status_code == 201 and r.json()["at"] == "2026-11-29T09:00:00+00:00"
    listed = api.call("GET", f"/v1/conversations/{conv}/turns", key).json()
    assert [t["role"] for t in listed["items"]] == ["customer", "assistant"]
    assert listed["next_cursor"] is None
    hits = api.call("GET", "/v1/record/search", key, params={"q": "refund blender"}).json()
    assert len(hits["items"]) == 1 and "<mark>" in hits["items"][0]["highlight"]


def test_naive_times_are_refused(api: Api) -> None:
    _, key = api.workspace()
    conv, _, _ = _customer_conversation(api, key)
    r = api.call(
        "POST",
        f"/v1/conversations/{conv}/turns",
        key,
        json={"role": "customer", "text": "hi", "at": "2026-11-29T10:00:00"},
    )
    assert r.status_code == 422


def test_visitor_token_reaches_one_conversation_only(api: Api) -> None:
    _, key = api.workspace()
    conv, visitor, _ = _customer_conversation(api, key)
    other, _, _ = _customer_conversation(api, key)
    assert api.call("GET", f"/v1/conversations/{conv}", visitor).status_code == 200
    assert api.call("GET", f"/v1/conversations/{other}", visitor).status_code == 404
    r = api.call(
        "POST", f"/v1/conversations/{other}/turns", visitor, json={"role": "customer", "text": "hi"}
    )
    assert r.status_code == 404
    r = api.call(
        "POST",
        f"/v1/conversations/{conv}/turns",
        visitor,
        json={"role": "assistant", "text": "I am the assistant now"},
    )
    assert r.status_code == 403
    assert api.call("GET", f"/v1/conversations/{conv}/turns", visitor).status_code == 404
    assert api.call("GET", "/v1/record/search?q=hi", visitor).status_code == 404


def test_another_workspace_sees_404(api: Api) -> None:
    _, key_a = api.workspace("A")
    _, key_b = api.workspace("B")
    conv, _, contact = _customer_conversation(api, key_a)
    for path in (
        f"/v1/conversations/{conv}",
        f"/v1/contacts/{contact}",
        f"/v1/conversations/{conv}/turns",
    ):
        assert api.call("GET", path, key_b).status_code == 404, path


def test_roles_gate_setup(api: Api) -> None:
    _, owner = api.workspace()
    op = api.call("POST", "/v1/api-keys", owner, json={"role": "operator"}).json()["api_key"]
    admin = api.call("POST", "/v1/api-keys", owner, json={"role": "admin"}).json()["api_key"]
    assert api.call("POST", "/v1/agents", op, json={"name": "E"}).status_code == 403
    assert api.call("POST", "/v1/agents", admin, json={"name": "E"}).status_code == 201
    assert api.call("POST", "/v1/api-keys", admin, json={"role": "owner"}).status_code == 403


def test_test_clock_sets_one_workspaces_time(api: Api) -> None:
    _, key_a = api.workspace("A")
    _, key_b = api.workspace("B")
    admin_a = api.call("POST", "/v1/api-keys", key_a, json={"role": "admin"}).json()["api_key"]
    r = api.call("POST", "/v1/test-clock", admin_a, json={"now": "2027-01-01T08:00:00+00:00"})
    assert r.status_code == 200
    agent_a = api.call("POST", "/v1/agents", key_a, json={"name": "E"}).json()
    agent_b = api.call("POST", "/v1/agents", key_b, json={"name": "E"}).json()
    assert agent_a["created_at"] == "2027-01-01T08:00:00+00:00"
    assert agent_b["created_at"].startswith("2026-11-29")


def test_audit_lists_with_cursor(api: Api) -> None:
    wid, key = api.workspace()
    for i in range(3):
        api.mw.audit.record(
            wid,
            actor="assistant",
            tool="lookup_account",
            args={"i": i},
            status="read",
            result="found",
        )
    first = api.call("GET", "/v1/audit", key, params={"limit": 2}).json()
    assert [e["args"]["i"] for e in first["items"]] == [2, 1] and first["next_cursor"]
    rest = api.call("GET", "/v1/audit", key, params={"cursor": first["next_cursor"]}).json()
    assert [e["args"]["i"] for e in rest["items"]] == [0]
    bad = api.call("GET", "/v1/audit", key, params={"status": "maybe"})
    assert bad.status_code == 422


def test_turns_in_a_batch_land_together_or_not_at_all(api: Api) -> None:
    _, key = api.workspace()
    conv, visitor, _ = _customer_conversation(api, key)
    batch = [
        {"role": "customer", "text": "My tent pole snapped."},
        {"role": "assistant", "text": "Sorry to hear that. Which model?", "at": None},
        {"role": "customer", "text": "The Alpine 2.", "at": "2026-11-29T10:00:00+01:00"},
    ]
    r = api.call("POST", f"/v1/conversations/{conv}/turns/batch", key, json={"turns": batch})
    assert r.status_code == 201, r.text
    made = r.json()["items"]
    assert [t["role"] for t in made] == ["customer", "assistant", "customer"]
    assert made[0]["seq"] < made[1]["seq"] < made[2]["seq"]
    # one bad turn (a naive time) refuses the whole batch: nothing is written
    bad = [
        {"role": "customer", "text": "one"},
        {"role": "customer", "text": "x", "at": "2026-11-29T10:00:00"},
    ]
    r = api.call("POST", f"/v1/conversations/{conv}/turns/batch", key, json={"turns": bad})
    assert r.status_code == 422
    too_many = [{"role": "customer", "text": "hi"}] * 501
    r = api.call("POST", f"/v1/conversations/{conv}/turns/batch", key, json={"turns": too_many})
    assert r.status_code == 422
    r = api.call("POST", f"/v1/conversations/{conv}/turns/batch", key, json={"turns": []})
    assert r.status_code == 422
    listed = api.call("GET", f"/v1/conversations/{conv}/turns", key).json()["items"]
    assert len(listed) == 3
    # a visitor batches customer turns of its own conversation only, as one turn at a time
    mixed = [{"role": "customer", "text": "hello"}, {"role": "assistant", "text": "I am staff"}]
    r = api.call("POST", f"/v1/conversations/{conv}/turns/batch", visitor, json={"turns": mixed})
    assert r.status_code == 403
    assert len(api.call("GET", f"/v1/conversations/{conv}/turns", key).json()["items"]) == 3
    other, _, _ = _customer_conversation(api, key)
    own = [{"role": "customer", "text": "hello"}]
    r = api.call("POST", f"/v1/conversations/{other}/turns/batch", visitor, json={"turns": own})
    assert r.status_code == 404
    r = api.call("POST", f"/v1/conversations/{conv}/turns/batch", visitor, json={"turns": own})
    assert r.status_code == 201


def test_the_first_minutes_get_messages_that_say_what_to_do(api: Api) -> None:
    """A new user once met a bare 404 for the admin token on a workspace route and "Input
    should be a valid dictionary" for a body sent without its content type."""
    _, key = api.workspace()
    wrong = api.call("GET", "/v1/workspace", ADMIN)
    assert wrong.status_code == 404 and wrong.json()["error"]["code"] == "not_a_workspace_key"
    assert "workspace API key" in wrong.json()["error"]["message"]
    untyped = api.client.post(
        "/v1/contacts",
        content=b'{"name": "Ann"}',
        headers={"Authorization": f"Bearer {key}", "content-type": "text/plain"},
    )
    assert untyped.status_code == 422
    assert untyped.json()["error"]["code"] == "json_body_required"
    assert "application/json" in untyped.json()["error"]["message"]
