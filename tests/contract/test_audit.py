"""The audit log: one function every tool call passes through."""

from __future__ import annotations

import pytest

from memwise import Memwise, errors


def test_entries_are_listed_newest_first_with_filters(mw: Memwise) -> None:
    ws, _ = mw.tenancy.create_workspace("Acme")
    mw.audit.record(
        ws.id,
        actor="assistant",
        tool="lookup_account",
        args={"order": "A1"},
        status="read",
        result="found",
    )
    mw.audit.record(
        ws.id,
        actor="assistant",
        tool="lookup_account",
        args={"order": "B2"},
        status="refused",
        result="other account",
    )
    mw.audit.record(
        ws.id, actor="op:1", tool="create_ticket", args={}, status="executed", result="x" * 2000
    )
    entries = mw.audit.entries(ws.id)
    assert [e.tool for e in entries] == ["create_ticket", "lookup_account", "lookup_account"]
    assert len(entries[0].result) == 500
    assert [e.args for e in mw.audit.entries(ws.id, status="refused")] == [{"order": "B2"}]
    assert len(mw.audit.entries(ws.id, before=entries[0].seq)) == 2
    other, _ = mw.tenancy.create_workspace("Other")
    assert mw.audit.entries(other.id) == []
    with pytest.raises(errors.Invalid):
        mw.audit.entries(ws.id, status="maybe")
    with pytest.raises(ValueError):
        mw.audit.record(ws.id, actor="a", tool="t", args={}, status="bogus", result="")


def test_secrets_in_arguments_and_overlong_ids_never_reach_the_log(mw: Memwise) -> None:
    ws, _ = mw.tenancy.create_workspace("Shop", "UTC")
    mw.audit.record(
        ws.id,
        actor="mcp:owner",
        tool="mcp.remember_rule",
        args={"user_id": "usr_1", "text": "my password: hunter2-Zq9!", "nested": ["ok"]},
        status="refused",
        result="secret_refused",
        contact_id="c" * 300,  # a caller's made-up id, wider than any id column
        conversation_id="cnv_1",
    )
    (entry,) = mw.audit.entries(ws.id)
    assert "hunter2" not in str(entry.args) and entry.args["text"].startswith("[redacted")
    assert entry.args["user_id"] == "usr_1" and entry.args["nested"] == ["ok"]
    assert entry.contact_id is None and entry.conversation_id == "cnv_1"
