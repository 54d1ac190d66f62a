"""Windows over the record on every backend: generic compaction, reset, pending, expiry."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memwise import FixedClock, Memwise, errors
from memwise._policies.window import Message
from memwise._services.conversation.record import NewTurn


def _conv(mw: Memwise, channel: str = "email", **agent: object) -> tuple[str, str]:
    ws, _ = mw.tenancy.create_workspace("Acme")
    a = mw.tenancy.create_agent(ws.id, "Eve", **agent)  # type: ignore[arg-type]
    c = mw.tenancy.create_contact(ws.id, "Ann")
    conv, _ = mw.record.start(ws.id, a.id, channel, contact_id=c.id)
    return ws.id, conv.id


def test_generic_window_keeps_n_verbatim_and_compacts_the_rest(mw: Memwise) -> None:
    ws, conv = _conv(mw, window_overrides={"generic": {"verbatim_turns": 3}})
    mw.record.append_many(
        ws,
        conv,
        [
            NewTurn("customer", "Hello there!"),
            NewTurn("customer", "Can you move my delivery to Friday?"),
            NewTurn("assistant", "Yes, we will deliver on Friday at 10:00."),
            NewTurn("customer", "Thanks"),
            NewTurn("customer", "Also, what is the return window?"),
            NewTurn("assistant", "30 days."),
        ],
    )
    view = mw.windows.view(ws, conv)
    assert view.kind == "generic"
    assert [m.text for m in view.messages] == [
        "Thanks",
        "Also, what is the return window?",
        "30 days.",
    ]
    assert view.summary is not None
    assert "move my delivery to Friday?" in view.summary and "deliver on Friday" in view.summary
    assert "Hello" not in view.summary
    assert mw.record.get(ws, conv).summary == view.summary  # stored for operators
    mw.record.append(ws, conv, "customer", "I'll pay 20 EUR extra for express.")
    again = mw.windows.view(ws, conv)
    assert again.summary is not None and again.summary.count("move my delivery") == 1
    assert "Thanks" not in again.summary


def test_web_window_is_what_the_client_holds(mw: Memwise) -> None:
    ws, conv = _conv(mw, "web")
    msgs = [Message("user", f"m{i}") for i in range(21)]
    view = mw.windows.view(ws, conv, msgs)
    assert len(view.messages) == 20 and view.messages[0].text == "m1"
    assert mw.windows.view(ws, conv).messages == []  # the server holds no web thread


def test_audit_only_generic_window_has_no_text(mw: Memwise) -> None:
    ws, conv = _conv(mw, record_policy="audit_only")
    mw.record.append(ws, conv, "customer", "private words")
    assert mw.windows.view(ws, conv).messages == []


def test_reset_clears_window_and_pending_but_not_record_or_notebook(mw: Memwise) -> None:
    ws, conv = _conv(mw, window_overrides={"generic": {"verbatim_turns": 1}})
    mw.record.append_many(
        ws, conv, [NewTurn("customer", "Can we meet on Friday?"), NewTurn("customer", "second")]
    )
    assert mw.windows.view(ws, conv).summary
    mw.windows.set_pending(ws, conv, {"action": "cancel_order"})
    user = mw.tenancy.create_user(ws, "Mira").id
    mw.notebook.add(ws, user, "Answer in German")
    mw.windows.reset(ws, conv)
    view = mw.windows.view(ws, conv)
    assert view.messages == [] and view.summary is None
    assert mw.windows.pending(ws, conv) is None
    assert len(mw.record.turns(ws, conv)) == 2
    assert [e.text for e in mw.notebook.entries(ws, user)] == ["Answer in German"]
    mw.record.append(ws, conv, "customer", "after reset")
    assert [m.text for m in mw.windows.view(ws, conv).messages] == ["after reset"]


def test_forget_never_clears_the_window(mw: Memwise) -> None:
    ws, conv = _conv(mw)
    user = mw.tenancy.create_user(ws, "Mira").id
    mw.record.append(ws, conv, "customer", "hello window")
    entry = mw.notebook.add(ws, user, "Answer in German").entry
    mw.notebook.forget(ws, user, entry.id)
    assert [m.text for m in mw.windows.view(ws, conv).messages] == ["hello window"]


@pytest.mark.parametrize(
    ("idle", "expired"),
    [(timedelta(minutes=29, seconds=59), False), (timedelta(minutes=30, seconds=1), True)],
)
def test_idle_conversations_expire(
    mw: Memwise, clock: FixedClock, idle: timedelta, expired: bool
) -> None:
    ws, conv = _conv(mw, "web")
    mw.record.append(ws, conv, "customer", "hi")
    clock.advance(seconds=idle.total_seconds())
    assert (mw.windows.expire_idle() == [conv]) is expired
    assert (mw.record.get(ws, conv).status == "expired") is expired
    assert mw.windows.expire_idle() == []


def test_end_is_idempotent_and_closes_the_conversation(mw: Memwise, clock: FixedClock) -> None:
    ws, conv = _conv(mw)
    ended = mw.record.end(ws, conv)
    assert ended.status == "ended" and ended.ended_at == clock.now()
    clock.advance(minutes=5)
    assert mw.record.end(ws, conv).ended_at == ended.ended_at
    with pytest.raises(errors.Conflict):
        mw.record.append(ws, conv, "customer", "too late")
    with pytest.raises(errors.Conflict):
        mw.windows.set_pending(ws, conv, {"x": 1})
