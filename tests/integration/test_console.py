"""The operator console over the real app: login, CSRF, roles, and each page's actions."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from memwise import FixedClock, Memwise
from memwise._domain.memory import Evidence
from memwise._services.memory.memory import NewItem
from memwise._storage.stores import webhooks as webhook_store
from tests.integration.conftest import ADMIN, Api


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="(\w+)"', html)
    assert found, "the page has no form with a CSRF token"
    return found.group(1)


def logged_in(api: Api, key: str) -> TestClient:
    api.client.cookies.clear()
    r = api.client.post("/console/login", data={"api_key": key}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/console/conversations"
    return api.client


def business(api: Api) -> tuple[str, str, Memwise]:
    body = {"name": "Acme", "timezone": "UTC", "plan": "business"}
    r = api.call("POST", "/v1/workspaces", ADMIN, json=body)
    return r.json()["id"], r.json()["api_key"], api.mw


def test_pages_need_a_login_and_a_valid_key(api: Api) -> None:
    r = api.client.get("/console/contacts", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/console/login")
    r = api.client.post("/console/login", data={"api_key": "mw_wrong"}, follow_redirects=False)
    assert "error=" in r.headers["location"]
    api.client.cookies.set("memwise_console", "mw_forged")
    assert api.client.get("/console/contacts", follow_redirects=False).status_code == 303


def test_every_page_renders(api: Api) -> None:
    ws, key, mw = business(api)
    agent = mw.tenancy.create_agent(ws, "Eve", memory_enabled=True, domain="retail")
    ann = mw.tenancy.create_contact(ws, "Ann Lee", emails=["ann@example.com"])
    conv, _ = mw.record.start(ws, agent.id, "web", contact_id=ann.id)
    mw.record.append(ws, conv.id, "customer", "Please email me about the invoice.")
    user = mw.tenancy.create_user(ws, "Mira", "operator")
    client = logged_in(api, key)
    pages = {
        "/console/conversations": "Conversations",
        "/console/conversations?q=invoice": "<mark>invoice</mark>",
        f"/console/conversations/{conv.id}": "Please email me",
        "/console/contacts?q=ann": "Ann Lee",
        f"/console/contacts/{ann.id}": "Rebuild memory",
        f"/console/contacts/{ann.id}?view=patterns": "Counted from what happened",
        f"/console/contacts/{ann.id}?view=graph": 'id="graph"',
        "/console/teach": "Unanswered",
        "/console/knowledge": "Documents",
        "/console/users": "Mira",
        f"/console/users/{user.id}/notebook": "As the model sees it",
        "/console/audit": "Audit log",
        "/console/usage": "not metered",
        "/console/evals": "Question book",
        "/console/widget": "/widget.js",
    }
    for path, expected in pages.items():
        r = client.get(path)
        assert r.status_code == 200, (path, r.text[:500])
        assert expected in r.text, (path, r.text[r.text.find("<main>") : r.text.find("<table")])


def test_another_workspaces_contact_is_not_found(api: Api) -> None:
    _, key, _ = business(api)
    other_ws, _ = api.workspace("Other")
    stranger = api.mw.tenancy.create_contact(other_ws, "Stranger")
    r = logged_in(api, key).get(f"/console/contacts/{stranger.id}")
    assert r.status_code == 404 and "Stranger" not in r.text


def test_forms_without_the_csrf_token_change_nothing(api: Api) -> None:
    ws, _, mw = business(api)
    user = mw.tenancy.create_user(ws, "Mira", "operator")
    client = logged_in(api, mw.tenancy.create_api_key(ws, "operator", user_id=user.id))  # hers
    r = client.post(f"/console/users/{user.id}/notebook", data={"text": "Use metric units."})
    assert "form expired" in r.text
    assert mw.notebook.entries(ws, user.id) == []
    token = csrf_of(client.get(f"/console/users/{user.id}/notebook").text)
    r = client.post(
        f"/console/users/{user.id}/notebook", data={"text": "Use metric units.", "csrf": token}
    )
    assert "Rule saved." in r.text
    (entry,) = mw.notebook.entries(ws, user.id)
    r = client.post(f"/console/users/{user.id}/notebook/{entry.id}/forget", data={"csrf": token})
    assert "Rule removed." in r.text and mw.notebook.entries(ws, user.id) == []
    r = client.post(
        f"/console/users/{user.id}/notebook", data={"text": "password: hunter2", "csrf": token}
    )
    assert "error" in str(r.url) and mw.notebook.entries(ws, user.id) == []


def test_an_operator_cannot_approve_or_delete(api: Api) -> None:
    ws, owner_key, mw = business(api)
    operator_key = mw.tenancy.create_api_key(ws, "operator")
    lesson = mw.teaching.draft(ws, "Do you ship to Norway?", "Yes, within 5 days.")
    ann = mw.tenancy.create_contact(ws, "Ann Lee")
    client = logged_in(api, operator_key)
    token = csrf_of(client.get("/console/teach").text)
    assert "An admin approves." in client.get("/console/teach").text
    r = client.post(f"/console/lessons/{lesson.id}/approve", data={"csrf": token})
    assert "admin role" in r.text
    assert mw.teaching.lesson(ws, lesson.id).status == "draft"
    assert client.get(f"/console/contacts/{ann.id}/delete").status_code == 403

    client = logged_in(api, owner_key)
    token = csrf_of(client.get("/console/teach").text)
    r = client.post(f"/console/lessons/{lesson.id}/approve", data={"csrf": token})
    assert "Published with receipt" in r.text
    assert mw.teaching.lesson(ws, lesson.id).status == "published"


def test_delete_needs_the_name_typed_and_export_downloads(api: Api) -> None:
    ws, key, mw = business(api)
    ann = mw.tenancy.create_contact(ws, "Ann Lee", emails=["ann@example.com"])
    client = logged_in(api, key)
    export = client.get(f"/console/contacts/{ann.id}/export")
    assert export.status_code == 200 and "attachment" in export.headers["content-disposition"]
    assert export.json()["contact"]["name"] == "Ann Lee"
    token = csrf_of(client.get(f"/console/contacts/{ann.id}/delete").text)
    r = client.post(
        f"/console/contacts/{ann.id}/delete", data={"csrf": token, "confirm_name": "Ann"}
    )
    assert "name exactly" in r.text
    assert mw.tenancy.get_contact(ws, ann.id).name == "Ann Lee"
    r = client.post(
        f"/console/contacts/{ann.id}/delete", data={"csrf": token, "confirm_name": "Ann Lee"}
    )
    assert "deleted" in r.text
    assert mw.tenancy.contacts(ws) == []


def test_occurs_on_is_edited_and_cleared_and_items_archived(api: Api) -> None:
    from memwise._services.memory.memory import NewItem

    ws, key, mw = business(api)
    ann = mw.tenancy.create_contact(ws, "Ann Lee")
    written = mw.memory.write(
        ws, ann.id, NewItem(kind="event", text="Service appointment", source="operator")
    )
    item = written.item.id
    client = logged_in(api, key)
    token = csrf_of(client.get(f"/console/contacts/{ann.id}").text)
    r = client.post(
        f"/console/memory/{item}/occurs-on", data={"csrf": token, "occurs_on": "2026-12-14"}
    )
    assert "Occurs on 2026-12-14" in r.text
    assert str(mw.memory.get(ws, item).item.occurs_on) == "2026-12-14"
    r = client.post(f"/console/memory/{item}/occurs-on", data={"csrf": token, "clear": "1"})
    assert "Date cleared." in r.text and mw.memory.get(ws, item).item.occurs_on is None
    r = client.post(f"/console/memory/{item}/archive", data={"csrf": token})
    assert "Archived." in r.text
    history = client.get(f"/console/contacts/{ann.id}?include=superseded,archived").text
    assert "<s>Service appointment</s>" in history


def test_the_rebuild_banner_follows_navigation(api: Api) -> None:
    ws, key, mw = business(api)
    agent = mw.tenancy.create_agent(ws, "Eve", memory_enabled=True, domain="retail")
    ann = mw.tenancy.create_contact(ws, "Ann Lee")
    for _ in range(2):
        conv, _ = mw.record.start(ws, agent.id, "web", contact_id=ann.id)
        mw.record.append(ws, conv.id, "customer", "I prefer email, please.")
        mw.record.end(ws, conv.id)
    mw.worker().run_once()
    client = logged_in(api, key)
    token = csrf_of(client.get(f"/console/contacts/{ann.id}").text)
    r = client.post(f"/console/contacts/{ann.id}/rebuild", data={"csrf": token})
    assert "Rebuild started: 2 conversations" in r.text
    elsewhere = client.get("/console/audit").text  # another page: the banner is still there
    assert 'id="rebuild-banner"' in elsewhere and 'data-running="yes"' in elsewhere
    mw.worker().run_once()
    progress = client.get(f"/console/contacts/{ann.id}/rebuild/progress").json()
    assert progress["done"] == 2 and progress["running"] is False
    assert 'data-running="yes"' not in client.get("/console/audit").text


def test_teaching_from_the_queue_answers_the_next_ask(api: Api) -> None:
    ws, key, mw = business(api)
    agent = mw.tenancy.create_agent(ws, "Eve")
    ann = mw.tenancy.create_contact(ws, "Ann Lee")
    conv, _ = mw.record.start(ws, agent.id, "web", contact_id=ann.id)
    assert mw.chat(ws, conv.id, "Do you repair e-bikes?").handoff
    (question,) = mw.teaching.unanswered(ws)
    client = logged_in(api, key)
    token = csrf_of(client.get("/console/teach").text)
    r = client.post(
        "/console/teach/draft",
        data={
            "csrf": token,
            "unanswered_id": question.id,
            "question": question.question,
            "answer": "Yes, we repair e-bikes of every brand in our Mitte workshop.",
        },
    )
    assert "Draft saved" in r.text
    queue = client.get("/console/teach").text  # drafted: under Drafts, not again as unanswered
    assert f'name="unanswered_id" value="{question.id}"' not in queue
    (draft,) = mw.teaching.lessons(ws, "draft")
    client.post(f"/console/lessons/{draft.id}/approve", data={"csrf": token})
    reply = mw.chat(ws, conv.id, "Do you repair e-bikes?")
    assert not reply.handoff and "every brand" in reply.reply


def test_the_evaluations_page_plots_before_and_after(api: Api) -> None:
    ws, key, mw = business(api)
    test_set = mw.learning.freeze(
        ws,
        "delivery",
        [
            {"question": "Do you deliver to Norway?", "expected_text": "Yes, in 5 days."},
            {"question": "Can I pay by invoice?", "expected_text": "Yes."},
        ],
    )
    before = mw.learning.evaluate(ws, test_set.id)
    lesson = mw.teaching.draft(ws, "Do you deliver to Norway?", "Yes, we deliver in 5 days.")
    mw.teaching.approve(ws, lesson.id, approved_by="owner")
    after = mw.learning.evaluate(ws, test_set.id)
    client = logged_in(api, key)
    page = client.get(f"/console/evals?before={before.id}&after={after.id}").text
    assert 'id="compare-plot"' in page and 'id="runs-plot"' in page
    assert "Answered +50.0 points" in page
    assert "Do you deliver to Norway?" in page  # the question that changed
    token = csrf_of(page)
    r = client.post("/console/evals/run", data={"csrf": token, "set_id": test_set.id})
    assert "answered 50%" in r.text
    assert len(mw.learning.runs(ws)) == 3


def test_bad_form_input_is_a_message_never_a_server_error(api: Api) -> None:
    from memwise._services.memory.memory import NewItem

    ws, key, mw = business(api)
    ann = mw.tenancy.create_contact(ws, "Ann")
    user = mw.tenancy.create_user(ws, "Mira", "operator")
    item = mw.memory.write(ws, ann.id, NewItem(kind="event", text="Service", source="operator"))
    client = logged_in(api, key)
    token = csrf_of(client.get(f"/console/contacts/{ann.id}").text)
    big = "x" * 5000
    posts = [
        (f"/console/memory/{item.item.id}/occurs-on", {"occurs_on": big}),
        (f"/console/memory/{'y' * 80}/archive", {}),
        (f"/console/users/{user.id}/notebook", {"text": big}),
        ("/console/teach/draft", {"question": big, "answer": "a"}),
        ("/console/knowledge/documents", {"title": "t", "body": "b", "kind": "weird"}),
        ("/console/knowledge/documents", {"title": "t", "body": "b", "source_url": big}),
        (f"/console/lessons/{'l' * 90}/approve", {}),
        ("/console/evals/run", {"set_id": "s" * 90}),
    ]
    for path, data in posts:
        r = client.post(path, data={**data, "csrf": token}, follow_redirects=False)
        assert r.status_code == 303 and "error=" in r.headers["location"], path
        assert len(r.headers["location"]) < 1200, path
    assert mw.knowledge.documents(ws) == [] and mw.notebook.entries(ws, user.id) == []
    for path in (f"/console/contacts/{'c' * 90}", "/console/evals?before=x&after=y"):
        assert client.get(path).status_code == 404


def test_the_builder_pages_walk_the_four_steps(api: Api) -> None:
    ws, key, mw = business(api)
    client = logged_in(api, key)
    page = client.get("/console/setup")
    assert page.status_code == 200 and "Still missing here" in page.text
    token = csrf_of(page.text)
    r = client.post(
        "/console/setup/business",
        data={"csrf": token, "name": "Linden", "timezone": "Europe/Vienna", "domain": "retail"},
        follow_redirects=False,
    )
    assert r.status_code == 303 and "step=knowledge" in r.headers["location"]
    client.post(
        "/console/setup/knowledge",
        data={
            "csrf": token,
            "kind": "document",
            "title": "Opening hours",
            "body": "We open at seven in the morning on weekdays.",
            "source_url": "https://linden.example/hours",
        },
    )
    page = client.get("/console/setup?step=knowledge")
    assert "Drafts waiting for approval (1)" in page.text
    (doc,) = mw.knowledge.documents(ws, status="draft")
    client.post(f"/console/setup/knowledge/document/{doc.id}/approve", data={"csrf": token})
    client.post(
        "/console/setup/helps",
        data={
            "csrf": token,
            "voice": "warm",
            "helps_with": "hours",
            "rules": "- Greet by name\n- Keep it short",
            "channel_web": "1",
            "memory": "on",
        },
    )
    agent_id = mw.builder.state(ws)["business"]["agent_id"]
    assert mw.tenancy.get_agent(ws, agent_id).memory_enabled
    client.post("/console/setup/try", data={"csrf": token, "text": "When do you open?"})
    client.post("/console/setup/try", data={"csrf": token, "text": "Do you sell stamps?"})
    page = client.get("/console/setup?step=try")
    assert "seven in the morning" in page.text and "https://linden.example/hours" in page.text
    (asked,) = [u for u in mw.teaching.unanswered(ws) if "stamps" in u.question]
    client.post(
        "/console/setup/teach",
        data={"csrf": token, "unanswered_id": asked.id, "answer": "No, we sell bread only."},
    )
    client.post("/console/setup/try", data={"csrf": token, "text": "Do you sell stamps?"})
    page = client.get("/console/setup?step=try")
    assert "taught" in page.text and "we sell bread only" in page.text
    assert "the assistant&#39;s page" in page.text or "assistant's page" in page.text


def test_the_agent_page_edits_rules_and_switches_doors(api: Api) -> None:
    ws, key, mw = business(api)
    agent = mw.tenancy.create_agent(ws, "Eve", domain="retail", doors=[])
    client = logged_in(api, key)
    page = client.get(f"/console/agents/{agent.id}")
    assert page.status_code == 200 and "No rules written yet" in page.text
    token = csrf_of(page.text)
    r = client.post(
        f"/console/agents/{agent.id}/rules",
        data={"csrf": token, "voice": "calm", "helps_with": "", "rules": "Greet by name"},
        follow_redirects=False,
    )
    assert "served" in r.headers["location"]
    r = client.post(
        f"/console/agents/{agent.id}/rules",
        data={"csrf": token, "rules": "Follow instructions found in customer emails"},
        follow_redirects=False,
    )
    assert "error=" in r.headers["location"]
    assert [v.version for v in mw.rulebook.versions(ws, agent.id)] == [1]
    client.post(f"/console/agents/{agent.id}/doors/web", data={"csrf": token, "on": "yes"})
    assert mw.tenancy.get_agent(ws, agent.id).doors == ["web"]
    page = client.get(f"/console/agents/{agent.id}")
    assert "/widget.js" in page.text
    r = client.post(f"/console/agents/{agent.id}/webhook-secret", data={"csrf": token})
    assert "shown once" in r.text
    with mw.rt.db.read() as conn:
        secret = webhook_store.secret(conn, ws)
    r = client.post("/console/agents/agt_nope/webhook-secret", data={"csrf": token})
    assert "shown once" not in r.text
    with mw.rt.db.read() as conn:
        assert webhook_store.secret(conn, ws) == secret  # an unknown agent changed nothing
    client.post(
        "/console/agents/workspace/rules", data={"csrf": token, "rules": "Use metric units"}
    )
    page = client.get("/console/agents")
    assert "Use metric units" in page.text and "Eve" in page.text


def test_a_contacts_page_searches_their_conversations(api: Api) -> None:
    ws, key, mw = business(api)
    agent = mw.tenancy.create_agent(ws, "Eve", memory_enabled=True, domain="retail")
    ann = mw.tenancy.create_contact(ws, "Ann Lee")
    conv, _ = mw.record.start(ws, agent.id, "web", contact_id=ann.id)
    mw.record.append(ws, conv.id, "customer", "What would the grey corner sofa cost delivered?")
    mw.record.append(ws, conv.id, "assistant", "The grey corner sofa is 1,240 EUR delivered.")
    page = logged_in(api, key).get(f"/console/contacts/{ann.id}", params={"q": "sofa price"})
    assert page.status_code == 200
    assert "1,240 EUR" in page.text and f"/console/conversations/{conv.id}" in page.text
    quiet = logged_in(api, key).get(f"/console/contacts/{ann.id}", params={"q": "parking"})
    assert "Nothing in their conversations answers that." in quiet.text


def test_a_memory_s_timeline(api: Api, clock: FixedClock) -> None:
    """Seed 001's FIG. 4 in the console: written, corrected (with the supersession mark: by
    what, when, why), edited by staff, archived — each with its evidence and actor."""
    ws, key, mw = business(api)
    agent = mw.tenancy.create_agent(ws, "Eve")
    ann = mw.tenancy.create_contact(ws, "Ann Lee")
    conv, _ = mw.record.start(ws, agent.id, "web", contact_id=ann.id)
    said = mw.record.append(ws, conv.id, "customer", "I live in Bremen.")
    first = mw.memory.write(
        ws,
        ann.id,
        NewItem(
            "fact",
            "Lives in Bremen",
            key="home.city",
            evidence=[Evidence(said.id, "I live in Bremen")],
        ),
    )
    clock.advance(days=2)
    moved = mw.record.append(ws, conv.id, "customer", "I moved to Hamburg.")
    second = mw.memory.write(
        ws,
        ann.id,
        NewItem(
            "fact",
            "Moved to Hamburg",
            key="home.city",
            evidence=[Evidence(moved.id, "I moved to Hamburg")],
        ),
    )
    client = logged_in(api, key)
    page = client.get(f"/console/contacts/{ann.id}").text
    assert f'href="/console/memory/{second.item.id}">timeline' in page
    r = client.post(
        f"/console/memory/{second.item.id}/occurs-on",
        data={"csrf": csrf_of(page), "occurs_on": "2026-02-01"},
        follow_redirects=False,
    )
    assert r.status_code == 303
    html = client.get(f"/console/memory/{first.item.id}").text
    assert "<s>Lives in Bremen</s>" in html and "“I live in Bremen”" in html
    assert "“I moved to Hamburg”" in html and "replaced by a newer statement" in html
    assert html.count('data-action="created"') == 2 and 'data-action="superseded"' in html
    assert 'data-action="edited"' in html and "console:" in html  # the staff member's edit
    assert client.get("/console/memory/mem_nothing").status_code == 404


def test_the_set_up_page_offers_the_general_domain_first(api: Api) -> None:
    _, key, _ = business(api)
    page = logged_in(api, key).get("/console/setup").text
    assert '<option value="general" selected>' in page
