"""One rule for who a sender is (Tenancy.resolve_contact), attacked through every door that
uses it: several matches are never a guess, a name is never an identity."""

from __future__ import annotations

from memwise._doors.telegram import Incoming, TelegramDoor
from tests.integration.conftest import Api
from tests.security.conftest import staff


def test_several_contacts_with_one_identity_are_ambiguous_everywhere(sec: Api) -> None:
    s = staff(sec)
    ws = s["ws"]
    a = sec.mw.tenancy.create_contact(ws, "Ann A", emails=["twin@example.com"])
    b = sec.mw.tenancy.create_contact(ws, "Ann B", emails=["Twin@Example.com"])
    found = sec.mw.tenancy.resolve_contact(ws, "email", "TWIN@example.com")
    assert found.status == "ambiguous" and set(found.matches) == {a.id, b.id}
    assert found.contact_id is None
    who = sec.call("POST", "/v1/identify", s["op"], json={"kind": "email", "value": "twin@x.y"})
    assert who.json()["status"] == "unbound"
    who = sec.call(
        "POST", "/v1/identify", s["op"], json={"kind": "email", "value": "twin@example.com"}
    )
    assert who.json()["status"] == "ambiguous" and who.json()["contact_id"] is None
    made = sec.mw.tenancy.resolve_contact(ws, "email", "twin@example.com", create=True)
    assert made.status == "created" and made.contact_id not in {a.id, b.id}
    # the new contact holds no copy of the disputed identity: it adds no third match
    again = sec.mw.tenancy.resolve_contact(ws, "email", "twin@example.com")
    assert set(again.matches) == {a.id, b.id}


def test_a_telegram_id_held_by_two_contacts_joins_neither(sec: Api) -> None:
    s = staff(sec)
    ws = s["ws"]
    a = sec.mw.tenancy.create_contact(ws, "Real Ann", telegram_ids=["777"])
    b = sec.mw.tenancy.create_contact(ws, "Real Bob", telegram_ids=["777"])
    door = TelegramDoor(sec.mw, ws, s["agent"])
    msg = Incoming(777, 777, "Mallory", "hi, what do you know about me?", sec.mw.clock.now())
    who = door.participant(msg)
    assert not who.staff and who.id not in {a.id, b.id}
    single = sec.mw.tenancy.create_contact(ws, "Carla", telegram_ids=["888"])
    assert door.participant(Incoming(888, 888, "C", "hi", sec.mw.clock.now())).id == single.id


def test_a_name_is_never_an_identity(sec: Api) -> None:
    s = staff(sec)
    ws = s["ws"]
    real = sec.mw.tenancy.create_contact(ws, "anonymous", emails=["anon@example.com"])
    visitor_like = sec.mw.tenancy.create_contact(ws, "Widget visitor Smith")
    found = sec.mw.tenancy.resolve_contact(ws, "phone", "anonymous")
    assert found.status == "unbound" and real.id not in found.matches
    console = sec.mw.tenancy.resolve_contact(ws, None, "Widget visitor", create=True)
    assert console.status == "created" and console.contact_id != visitor_like.id
    again = sec.mw.tenancy.resolve_contact(ws, None, "Widget visitor", create=True)
    assert again.status == "bound" and again.contact_id == console.contact_id
    got = sec.mw.inbound.receive(ws, "sms", {"from": "anonymous", "text": "I owe you nothing"})
    assert got.contact_id != real.id
