"""The event bus: a closing conversation's handlers run in its transaction (both backends)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy.engine import Connection

from memwise._services.facade import Memwise
from memwise._services.platform.bus import Bus, ConversationClosed


def _open_conversation(mw: Memwise) -> tuple[str, str]:
    ws, _ = mw.tenancy.create_workspace("Bus Bikes", "UTC", "business")
    agent = mw.tenancy.create_agent(ws.id, "Desk", memory_enabled=True, domain="retail")
    ann = mw.tenancy.create_contact(ws.id, "Ann Lee")
    conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=ann.id)
    mw.record.append(ws.id, conv.id, "customer", "My order 1182 has not arrived.")
    return ws.id, conv.id


def test_ending_publishes_one_event_that_memory_handles(mw: Memwise) -> None:
    seen: list[ConversationClosed] = []
    mw.rt.bus.subscribe(ConversationClosed, lambda conn, event: seen.append(event))
    ws, conv = _open_conversation(mw)
    mw.record.end(ws, conv)
    mw.record.end(ws, conv)  # ending an ended conversation raises nothing more
    assert [(e.conversation_id, e.status) for e in seen] == [(conv, "ended")]
    assert seen[0].contact_id is not None
    assert mw.jobs.by_key(ws, f"extract:{conv}") is not None  # memory's handler queued it


def test_a_failing_handler_rolls_the_close_back(mw: Memwise) -> None:
    ws, conv = _open_conversation(mw)

    def broken(conn: Connection, event: ConversationClosed) -> None:
        raise RuntimeError("handler failed")

    mw.rt.bus.subscribe(ConversationClosed, broken)
    with pytest.raises(RuntimeError):
        mw.record.end(ws, conv)
    assert mw.record.get(ws, conv).status.value == "open"  # nothing half-written
    assert mw.jobs.by_key(ws, f"extract:{conv}") is None


def test_handlers_run_in_order_and_only_for_their_event() -> None:
    bus = Bus()
    calls: list[str] = []
    bus.subscribe(ConversationClosed, lambda conn, e: calls.append("first"))
    bus.subscribe(ConversationClosed, lambda conn, e: calls.append("second"))
    bus.subscribe(str, lambda conn, e: calls.append("other"))
    bus.publish(None, ConversationClosed("w", "c", None, "expired", datetime.now(UTC)))  # type: ignore[arg-type]
    assert calls == ["first", "second"]
