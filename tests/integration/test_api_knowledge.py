"""Knowledge and teaching over HTTP: teach an unanswered question, see it answered as taught."""

from __future__ import annotations

from memwise._accounts.policy import AccountPolicy
from tests.integration.conftest import Api


def test_teach_then_answer(api: Api) -> None:
    _, key = api.workspace()
    admin = api.call("POST", "/v1/api-keys", key, json={"role": "admin"}).json()["api_key"]
    op = api.call("POST", "/v1/api-keys", key, json={"role": "operator"}).json()["api_key"]
    r = api.call(
        "POST",
        "/v1/knowledge/documents",
        op,
        json={
            "kind": "fitment",
            "title": "Footprints",
            "body": "FP-220 fits the Alpine 2 tent.",
            "version": "2026.1",
            "identifiers": ["FP-220"],
            "source_url": "https://e.com/fit",
        },
    )
    assert r.status_code == 201 and r.json()["status"] == "draft"  # an operator drafts
    lookup = {"identifier": "fp-220"}
    assert api.call("GET", "/v1/knowledge/lookup", op, params=lookup).json()["items"] == []
    doc = r.json()["id"]
    assert api.call("POST", f"/v1/knowledge/documents/{doc}/approve", op).status_code == 403
    receipt = api.call("POST", f"/v1/knowledge/documents/{doc}/approve", admin).json()
    assert receipt["action"] == "published" and receipt["approved_by"].startswith("key:admin")
    assert (
        api.call("GET", "/v1/knowledge/lookup", op, params={"identifier": "fp-220"}).json()[
            "items"
        ][0]["version"]
        == "2026.1"
    )
    assert (
        api.call("GET", "/v1/knowledge/lookup", op, params={"identifier": "FP-22"}).json()["items"]
        == []
    )
    q = "Do you ship to Austria?"
    silent = api.call("GET", "/v1/knowledge/search", op, params={"q": q}).json()
    assert silent["answered"] is False
    item = api.call("POST", "/v1/unanswered", op, json={"question": q}).json()
    assert api.call("GET", "/v1/unanswered", op).json()["items"][0]["id"] == item["id"]
    draft = api.call(
        "POST",
        "/v1/lessons",
        op,
        json={
            "question": q,
            "answer": "Yes, within 3 to 5 working days.",
            "unanswered_id": item["id"],
        },
    ).json()
    assert api.call("POST", f"/v1/lessons/{draft['id']}/approve", op).status_code == 403
    approved = api.call("POST", f"/v1/lessons/{draft['id']}/approve", admin).json()
    assert approved["status"] == "published"
    assert approved["receipt"]["approved_by"] == "key:admin" and approved["receipt"]["content_hash"]
    found = api.call("GET", "/v1/knowledge/search", op, params={"q": q}).json()
    assert found["answered"] is True and found["items"][0]["part"] == "lesson"
    assert api.call("GET", "/v1/unanswered", op).json()["items"] == []
    r = api.call(
        "POST", "/v1/lessons", op, json={"question": "Who?", "answer": "call +49 30 1234567"}
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "contact_details_in_knowledge"
    t = api.call("POST", "/v1/tickets", op, json={"subject": "Austria", "body": "asked"}).json()
    assert t["status"] == "accepted"
    assert len(api.call("GET", "/v1/tickets", op).json()["items"]) == 1


def test_account_source_and_bound_lookups(api: Api) -> None:
    _, key = api.workspace()
    api.mw.accounts.allow(AccountPolicy(http_bases=("https://crm.example.com",)))
    r = api.call(
        "PUT",
        "/v1/account-source",
        key,
        json={
            "type": "http",
            "base_url": "https://crm.example.com",
            "headers": {"Authorization": "Bearer s3cret"},
        },
    )
    assert r.status_code == 200 and r.json()["headers"] == {"Authorization": "•••"}
    assert "s3cret" not in api.call("GET", "/v1/account-source", key).text
    api.call("PUT", "/v1/account-source", key, json={"type": "demo"})
    agent = api.call("POST", "/v1/agents", key, json={"name": "Eve"}).json()["id"]
    contact = api.call(
        "POST", "/v1/contacts", key, json={"name": "Jonas", "account_refs": ["ACC-1001"]}
    ).json()["id"]
    conv = api.call(
        "POST",
        "/v1/conversations",
        key,
        json={
            "agent_id": agent,
            "channel": "web",
            "contact_id": contact,
            "account_ref": "ACC-1001",
        },
    ).json()
    r = api.call(
        "POST",
        "/v1/accounts/lookup",
        conv["visitor_token"],
        json={"conversation_id": conv["id"], "kind": "order", "id": "4411"},
    ).json()
    assert r["status"] == "found" and "shipped" in r["sentence"]
    r = api.call(
        "POST",
        "/v1/accounts/lookup",
        conv["visitor_token"],
        json={"conversation_id": conv["id"], "kind": "balance", "account": "ACC-2002"},
    ).json()
    assert r["status"] == "refused"
    audit = api.call("GET", "/v1/audit", key, params={"tool": "lookup_account"}).json()["items"]
    assert [e["status"] for e in audit] == ["refused", "read"]


def test_context_and_chat_routes(api: Api) -> None:
    _, key = api.workspace()
    conv = api.web_conversation(key)
    agent, contact = conv["agent_id"], conv["contact_id"]
    visitor = conv["visitor_token"]
    refused = api.call(
        "POST", "/v1/context", visitor, json={"conversation_id": conv["id"], "request": "hi"}
    )
    assert refused.status_code == 404  # the context (system prompt, notes) is staff-only
    ctx = api.call(
        "POST",
        "/v1/context",
        key,
        json={
            "conversation_id": conv["id"],
            "request": "Do you ship to Austria?",
            "page": {"url": "https://shop/austria", "title": "Shipping"},
            "messages": [
                {"role": "user", "text": "hi"},
                {"role": "assistant", "text": "hello"},
                {"role": "user", "text": ""},
            ],
        },
    )
    assert ctx.status_code == 200
    body = ctx.json()
    assert body["messages"][0]["role"] == "system" and body["sections"]["request"]
    assert [m["role"] for m in body["messages"][1:]] == ["user", "assistant", "user"]
    assert isinstance(body["explain"], list) and body["tools"]
    r = api.call(
        "POST",
        "/v1/chat",
        visitor,
        json={"conversation_id": conv["id"], "text": "Do you ship to Austria?"},
    ).json()
    assert r["handoff"] is True and r["ticket"] is None and r["sources"] == []
    other = api.call(
        "POST",
        "/v1/conversations",
        key,
        json={"agent_id": agent, "channel": "web", "contact_id": contact},
    ).json()
    r = api.call("POST", "/v1/chat", visitor, json={"conversation_id": other["id"], "text": "hi"})
    assert r.status_code == 404
