"""One tool layer for every door: what a careless model or a stranger's key tries through it."""

from __future__ import annotations

import pytest

from memwise import errors
from memwise._domain.access import Kind, Principal
from memwise._domain.tenancy import Role
from memwise._services.assistant import tools
from tests.integration.conftest import Api
from tests.security.conftest import conversation, staff


def _model_call(sec: Api, ws: str, conversation_id: str) -> tools.Call:
    conv = sec.mw.record.get(ws, conversation_id)
    return tools.Call(sec.mw, ws, tools.Door.model, "model", conversation=conv)


def test_a_model_cannot_point_a_tool_at_another_contact_or_conversation(sec: Api) -> None:
    s = staff(sec)
    conv = conversation(sec, s)
    other = sec.mw.tenancy.create_contact(s["ws"], "Bea Other")
    r = sec.call(
        "POST",
        f"/v1/contacts/{other.id}/memory",
        s["owner"],
        json={"kind": "preference", "text": "Bea prefers calls at 7"},
    )
    assert r.status_code == 201, r.text
    call = _model_call(sec, s["ws"], conv["id"])
    done = tools.execute(
        "recall", {"request": "calls", "contact_id": other.id}, call
    )  # the model names someone else
    assert isinstance(done, tools.Result) and "Bea" not in done.text
    other_conv = conversation(sec, s)
    looked = tools.execute(
        "lookup_account", {"kind": "balance", "conversation_id": other_conv["id"]}, call
    )
    assert isinstance(looked, tools.Result)
    (entry,) = sec.mw.audit.entries(s["ws"], tool="model.lookup_account")
    assert entry.conversation_id == conv["id"]


def test_a_model_in_a_customer_conversation_gets_no_notebook(sec: Api) -> None:
    s = staff(sec)
    conv = conversation(sec, s)
    user = sec.mw.tenancy.create_user(s["ws"], "Dana", "operator")
    call = _model_call(sec, s["ws"], conv["id"])
    with pytest.raises(errors.Forbidden):
        tools.execute("remember_rule", {"text": "always 50% off", "user_id": user.id}, call)
    assert sec.mw.notebook.entries(s["ws"], user.id) == []
    statuses = [e.status for e in sec.mw.audit.entries(s["ws"], tool="model.remember_rule")]
    assert statuses == ["refused"]


def test_unknown_tools_and_arguments_are_refused_and_audited(sec: Api) -> None:
    s = staff(sec)
    conv = conversation(sec, s)
    call = _model_call(sec, s["ws"], conv["id"])
    with pytest.raises(errors.Invalid) as bad_arg:
        tools.execute("search_knowledge", {"query": "hours", "sql": "DROP TABLE"}, call)
    assert bad_arg.value.code == "unknown_argument"
    with pytest.raises(errors.Invalid) as no_tool:
        tools.execute("run_shell", {"cmd": "ls"}, call)
    assert no_tool.value.code == "unknown_tool"
    with pytest.raises(errors.Invalid) as mcp_only:  # a model door tool list is shorter
        tools.execute("record_turn", {"role": "customer", "text": "I owe nothing"}, call)
    assert mcp_only.value.code == "unknown_tool"
    refused = sec.mw.audit.entries(s["ws"], status="refused")
    assert {e.tool for e in refused} >= {
        "model.search_knowledge",
        "model.run_shell",
        "model.record_turn",
    }
    assert sec.mw.record.turns(s["ws"], conv["id"]) == []


def test_only_workspace_staff_reach_the_mcp_door(sec: Api) -> None:
    s = staff(sec)
    conv = conversation(sec, s)
    for who in (
        Principal(Kind.visitor, s["ws"], conversation_id=conv["id"]),
        Principal(Kind.sender, s["ws"]),
        Principal(Kind.admin),
    ):
        call = tools.Call(sec.mw, s["ws"], tools.Door.mcp, "mcp:x", who)
        with pytest.raises(errors.NotFound):
            tools.execute("recall", {"contact_id": s["contact"], "request": "x"}, call)
    assert sec.mw.record.turns(s["ws"], conv["id"]) == []


def test_a_customer_turn_written_through_mcp_says_so_without_keeping_the_text(sec: Api) -> None:
    s = staff(sec)
    conv = conversation(sec, s)
    by = Principal(Kind.key, s["ws"], sec.mw.tenancy.authenticate_key(s["op"])[1])  # type: ignore[index]
    call = tools.Call(sec.mw, s["ws"], tools.Door.mcp, "mcp:operator", by)
    text = "My card is 4111 1111 1111 1111, remember it"
    tools.execute(
        "record_turn", {"conversation_id": conv["id"], "role": "customer", "text": text}, call
    )
    (entry,) = sec.mw.audit.entries(s["ws"], tool="mcp.record_turn")
    assert entry.args["written_as_customer"] is True and entry.args["chars"] == len(text)
    assert "4111 1111" not in str(entry.args) and entry.actor == "mcp:operator"


def test_admin_operations_are_refused_to_an_operator_in_the_services(sec: Api) -> None:
    """The rule is the service's, so the console, the API and library callers passing a
    principal get the same answer."""
    s = staff(sec)
    ws = s["ws"]
    op = Principal(Kind.key, ws, Role.operator)
    lesson = sec.mw.teaching.draft(ws, "Do you repair tandems?", "Yes.", actor="op")
    attempts = [
        lambda: sec.mw.rebuilds.start(ws, s["contact"], by=op),
        lambda: sec.mw.data_requests.export(ws, s["contact"], by=op),
        lambda: sec.mw.data_requests.held(ws, s["contact"], by=op),
        lambda: sec.mw.data_requests.delete(ws, s["contact"], actor="op", by=op),
        lambda: sec.mw.teaching.approve(ws, lesson.id, approved_by="op", by=op),
        lambda: sec.mw.teaching.withdraw(ws, lesson.id, by_name="op", by=op),
        lambda: sec.mw.events.add_endpoint(ws, "https://example.com/hook", by=op),
        lambda: sec.mw.events.remove_endpoint(ws, "evp_x", by=op),
        lambda: sec.mw.tickets.configure(ws, "https://example.com/t", by=op),
        lambda: sec.mw.tickets.unconfigure(ws, by=op),
        lambda: sec.mw.tenancy.api_keys(ws, by=op),
    ]
    for attempt in attempts:
        with pytest.raises(errors.Forbidden):
            attempt()
    assert sec.mw.tenancy.get_contact(ws, s["contact"]).name == "Ann Lee"
    assert sec.mw.teaching.lesson(ws, lesson.id).status == "draft"
    assert sec.mw.events.endpoints(ws) == []


def test_a_model_call_is_audited_against_its_own_conversation(sec: Api) -> None:
    s = staff(sec)
    conv = conversation(sec, s)
    other = sec.mw.tenancy.create_contact(s["ws"], "Bea Other")
    call = _model_call(sec, s["ws"], conv["id"])
    tools.execute("search_knowledge", {"query": "opening hours"}, call)
    with pytest.raises(errors.Invalid):  # refused, and still not filed under Bea
        tools.execute("search_knowledge", {"query": "x", "contact_id": other.id}, call)
    entries = sec.mw.audit.entries(s["ws"], tool="model.search_knowledge")
    assert len(entries) == 2
    assert all(e.contact_id == s["contact"] and e.conversation_id == conv["id"] for e in entries)
    assert sec.mw.audit.entries(s["ws"], contact_id=other.id) == []


def test_the_audit_log_keeps_no_secret_and_no_ticket_body() -> None:
    straddling = "note " * 36 + "card 4111 1111 1111 1111"
    kept = tools.audited({"query": straddling}, tools.BY_NAME["search_knowledge"])
    assert "4111" not in str(kept)
    ticket = tools.audited(
        {"subject": "Refund", "body": "my IBAN DE89 3704 0044 0532 0130 00"},
        tools.BY_NAME["create_ticket"],
    )
    assert "DE89" not in str(ticket) and ticket["body_chars"] == 35
    many = tools.audited({f"k{i}": "v" for i in range(3000)}, None)
    assert len(many) == 21 and many["more_arguments"] == 2980


def test_an_ambiguous_telegram_sender_keeps_one_contact_of_its_own(sec: Api) -> None:
    from memwise._doors.telegram import Incoming, TelegramDoor

    s = staff(sec)
    ws = s["ws"]
    a = sec.mw.tenancy.create_contact(ws, "Real Ann", telegram_ids=["777"])
    b = sec.mw.tenancy.create_contact(ws, "Real Bob", telegram_ids=["777"])
    door = TelegramDoor(sec.mw, ws, s["agent"])
    seen = {
        door.participant(Incoming(777, 777, "Mallory", f"hi {n}", sec.mw.clock.now())).id
        for n in range(3)
    }
    assert len(seen) == 1 and not seen & {a.id, b.id}


def test_record_recall_is_for_staff_keys_never_a_model_in_a_customers_chat(sec: Api) -> None:
    """The record is not a visitor's search index: recall_record is an MCP tool (staff keys
    only); a model speaking with a customer is never offered it."""

    s = staff(sec)
    conv = conversation(sec, s)
    sec.mw.record.append(s["ws"], conv["id"], "customer", "My locker code is the blue one.")
    offered = {t.name for t in tools.offered(tools.Door.model)}
    assert "recall_record" not in offered
    call = tools.Call(sec.mw, s["ws"], tools.Door.mcp, "mcp:op")
    done = tools.execute("recall_record", {"contact_id": s["contact"], "question": "locker"}, call)
    assert isinstance(done, tools.Result) and done.data["hits"]
    assert done.data["hits"][0]["block"].startswith('<data part="record"')
    with pytest.raises(errors.Invalid):  # another door has no such tool
        tools.execute(
            "recall_record",
            {"contact_id": s["contact"], "question": "locker"},
            tools.Call(sec.mw, s["ws"], tools.Door.model, "model"),
        )


def test_record_recall_never_reaches_another_workspaces_contact(sec: Api) -> None:
    mine, theirs = staff(sec), staff(sec, "Other")
    conv = conversation(sec, theirs)
    sec.mw.record.append(theirs["ws"], conv["id"], "customer", "My locker code is 1234.")
    call = tools.Call(sec.mw, mine["ws"], tools.Door.mcp, "mcp:op")
    with pytest.raises(errors.NotFound):
        tools.execute(
            "recall_record", {"contact_id": theirs["contact"], "question": "locker"}, call
        )
