"""An event's labels are stored as text every database keeps, whichever door records them
(the API's events route and the extraction both go through ``record_event_in``)."""

from __future__ import annotations

from memwise import Memwise


def test_characters_no_database_stores_never_fail_an_event(mw: Memwise) -> None:
    ws, _ = mw.tenancy.create_workspace("Acme")
    ann = mw.tenancy.create_contact(ws.id, "Ann")
    event = mw.patterns.record_event(
        ws.id, ann.id, "booking", {"room\x00": "Suite\x00 4\ud800", "note": "late \x00arrival"}
    )
    assert event


def test_a_date_phrase_written_by_any_caller_is_stored_as_text(mw: Memwise) -> None:
    from memwise._services.memory.memory import NewItem

    ws, _ = mw.tenancy.create_workspace("Acme")
    ann = mw.tenancy.create_contact(ws.id, "Ann")
    new = NewItem(
        "event", "Dentist appointment", source="operator", occurs_phrase="friday\x00\ud800"
    )
    written = mw.memory.write(ws.id, ann.id, new)
    assert written.item.occurs_phrase == "friday"
