"""The Telegram door: its rules with a fixed clock, and the real python-telegram-bot
library polling a fake Bot API server on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta

import pytest

from memwise import FixedClock, Memwise
from memwise._doors.telegram import Incoming, TelegramDoor, build_bot
from memwise.testing import FakeTelegramServer

CUSTOMER, STAFF = 1001, 2002


@pytest.fixture
def setup(mw_sqlite: Memwise) -> Iterator[tuple[Memwise, str, str]]:
    ws, _ = mw_sqlite.tenancy.create_workspace(name="Bikes", timezone="UTC", plan="business")
    agent = mw_sqlite.tenancy.create_agent(ws.id, name="Bot", memory_enabled=True, domain="retail")
    yield mw_sqlite, ws.id, agent.id


def said(door: TelegramDoor, clock: FixedClock, sender: int, text: str, ago_s: float = 1) -> str:
    msg = Incoming(sender, sender, "Jo Lee", text, clock.now() - timedelta(seconds=ago_s))
    return door.message(msg)[0]


def test_customers_become_contacts_and_the_window_holds_eight_earlier(
    setup: tuple[Memwise, str, str], clock: FixedClock
) -> None:
    mw, ws, agent = setup
    door = TelegramDoor(mw, ws, agent)
    for n in range(10):
        said(door, clock, CUSTOMER, f"message number {n}")
    contacts = mw.tenancy.find_contacts(ws, "telegram", str(CUSTOMER))
    assert len(contacts) == 1
    assert mw.tenancy.get_contact(ws, contacts[0]).name == "Jo Lee"
    (conv,) = mw.record.conversations(ws, contact_id=contacts[0])
    assert conv.channel == "telegram"
    # every turn is recorded; the window keeps 8 earlier messages for the next one
    assert len(mw.record.turns(ws, conv.id)) == 20
    assert len(door.windows.transcript(door.key(CUSTOMER))) == 8


def test_a_telegram_door_switched_off_answers_so_and_creates_nobody(
    setup: tuple[Memwise, str, str], clock: FixedClock
) -> None:
    mw, ws, agent = setup
    mw.tenancy.set_door(ws, agent, "telegram", False)
    door = TelegramDoor(mw, ws, agent)
    assert "not taking Telegram messages" in said(door, clock, CUSTOMER, "hello")
    msg = Incoming(CUSTOMER, CUSTOMER, "Jo Lee", "/memory", clock.now())
    assert "not taking" in door.memory(msg)
    assert "not taking" in door.forget(msg, "my address is 12 Elm Street")
    assert mw.tenancy.find_contacts(ws, "telegram", str(CUSTOMER)) == []
    assert mw.tickets.find(ws) == []
    mw.tenancy.set_door(ws, agent, "telegram", True)
    assert "not taking" not in said(door, clock, CUSTOMER, "hello")
    assert len(mw.tenancy.find_contacts(ws, "telegram", str(CUSTOMER))) == 1


def test_late_messages_are_ignored_with_a_notice(
    setup: tuple[Memwise, str, str], clock: FixedClock
) -> None:
    mw, ws, agent = setup
    door = TelegramDoor(mw, ws, agent)
    reply = said(door, clock, CUSTOMER, "cancel my order", ago_s=10 * 60 + 1)
    assert "did not act on it" in reply
    assert mw.record.conversations(ws) == []  # nothing recorded, nothing done
    assert mw.tenancy.find_contacts(ws, "telegram", str(CUSTOMER)) == []  # nobody created
    assert "did not act" not in said(door, clock, CUSTOMER, "hello", ago_s=9 * 60 + 59)


def test_thirty_idle_minutes_end_the_conversation(
    setup: tuple[Memwise, str, str], clock: FixedClock
) -> None:
    mw, ws, agent = setup
    door = TelegramDoor(mw, ws, agent)
    said(door, clock, CUSTOMER, "My bike is a Trek Domane.")
    (first,) = mw.record.conversations(ws)
    clock.advance(minutes=29, seconds=59)
    said(door, clock, CUSTOMER, "still here")
    assert len(mw.record.conversations(ws)) == 1
    clock.advance(minutes=30)
    said(door, clock, CUSTOMER, "back again")
    convs = {c.id: c for c in mw.record.conversations(ws)}
    assert len(convs) == 2
    assert convs[first.id].status.value == "ended"  # ended, so queued for extraction
    assert mw.jobs.counts(ws).get("queued", 0) >= 1


def test_reset_starts_a_clean_conversation_that_is_not_remembered(
    setup: tuple[Memwise, str, str], clock: FixedClock
) -> None:
    mw, ws, agent = setup
    door = TelegramDoor(mw, ws, agent)
    said(door, clock, CUSTOMER, "hello")
    assert "clean page" in door.reset(CUSTOMER)
    assert door.windows.transcript(door.key(CUSTOMER)) == []
    said(door, clock, CUSTOMER, "this part stays out of memory")
    newest = mw.record.conversations(ws)[0]
    assert newest.excluded_from_memory and newest.status.value == "open"


def test_the_notebook_follows_the_person_from_web_to_telegram(
    setup: tuple[Memwise, str, str], clock: FixedClock
) -> None:
    mw, ws, agent = setup
    dana = mw.tenancy.create_user(ws, "Dana", role="operator", telegram_id=str(STAFF))
    mw.notebook.add(ws, dana.id, "Quote prices without VAT.")  # learned on the web
    door = TelegramDoor(mw, ws, agent)
    staff_msg = Incoming(STAFF, STAFF, "Dana", "/memory", clock.now())
    assert "Quote prices without VAT." in door.memory(staff_msg)
    said(door, clock, STAFF, "remember that I sign as D.")
    assert [e.text for e in mw.notebook.entries(ws, dana.id)][-1] == "I sign as D."
    assert "Removed 1 rule" in door.forget(staff_msg, "VAT")
    assert [e.text for e in mw.notebook.entries(ws, dana.id)] == ["I sign as D."]
    # a customer's /memory shows what is remembered about them, never a staff notebook
    customer_msg = Incoming(CUSTOMER, CUSTOMER, "Jo", "/memory", clock.now())
    assert "don't keep anything" in door.memory(customer_msg)
    assert "asked the team" in door.forget(customer_msg, "my address")
    assert mw.tickets.find(ws, None)


def test_the_real_library_polls_a_fake_bot_api(setup: tuple[Memwise, str, str]) -> None:
    mw, ws, agent = setup
    dana = mw.tenancy.create_user(ws, "Dana", role="operator", telegram_id=str(STAFF))
    mw.notebook.add(ws, dana.id, "Always answer in short sentences.")
    door = TelegramDoor(mw, ws, agent)
    fake = FakeTelegramServer()

    async def scenario() -> list[str]:
        app = build_bot(door, "123:TEST", base_url=fake.url)
        async with app:
            await app.start()
            assert app.updater is not None
            await app.updater.start_polling(poll_interval=0.05, timeout=1)
            fake.say(CUSTOMER, "Hi, is the shop open on Sunday?")
            await asyncio.to_thread(fake.wait_for_sent, 1)
            fake.say(STAFF, "/memory", user_id=STAFF, first_name="Dana")
            await asyncio.to_thread(fake.wait_for_sent, 2)
            fake.say(CUSTOMER, "/reset")
            sent = await asyncio.to_thread(fake.wait_for_sent, 3)
            await app.updater.stop()
            await app.stop()
        return [m["text"] for m in sent]

    try:
        texts = asyncio.run(scenario())
    finally:
        fake.close()
    assert "getUpdates" in fake.calls
    assert texts[1].startswith("Your rules:") and "short sentences" in texts[1]
    assert "clean page" in texts[2]
    contacts = mw.tenancy.find_contacts(ws, "telegram", str(CUSTOMER))
    (conv,) = mw.record.conversations(ws, contact_id=contacts[0])
    assert [t.role.value for t in mw.record.turns(ws, conv.id)] == ["customer", "assistant"]
    assert conv.status.value == "ended"  # /reset ended it


def test_a_confirmation_waits_beside_the_transcript_on_telegram(sqlite_url: str) -> None:
    from memwise._bootstrap import Parts
    from memwise._config import Settings
    from memwise.testing import FakeModelServer, Reply

    server = FakeModelServer()
    settings = Settings(
        extractor="openai", model="m", model_api_key="x", model_base_url=f"{server.url}/v1"
    )
    mw = Memwise.open(sqlite_url, chat_model=Parts(settings).chat_model(), migrate=False)
    try:
        ws, _ = mw.tenancy.create_workspace("Bikes", "UTC", "business")
        agent = mw.tenancy.create_agent(ws.id, "Bot")
        door = TelegramDoor(mw, ws.id, agent.id)
        server.enqueue(
            Reply(
                tool_calls=[
                    {
                        "name": "create_ticket",
                        "arguments": {"subject": "Wheel truing", "body": "Wants a wheel trued"},
                    }
                ]
            ),
            "Shall I ask the workshop to true your wheel?",
        )
        now = mw.rt.clock.now
        ask = Incoming(CUSTOMER, CUSTOMER, "Jo", "Can you true my back wheel?", now())
        (proposal,) = door.message(ask)
        assert "Shall I" in proposal and mw.tickets.find(ws.id, None) == []
        transcript = door.windows.transcript(door.key(CUSTOMER))
        assert all("Wheel truing" not in m.text for m in transcript)  # not in the transcript
        (done,) = door.message(Incoming(CUSTOMER, CUSTOMER, "Jo", "yes please", now()))
        assert done  # the reply after executing
        (ticket,) = mw.tickets.find(ws.id, None)
        assert ticket.subject == "Wheel truing"
    finally:
        mw.close()
        server.close()


def test_an_unreachable_model_gets_a_short_apology(sqlite_url: str) -> None:
    from memwise._bootstrap import Parts
    from memwise._config import Settings

    settings = Settings(
        extractor="openai", model="m", model_api_key="x", model_base_url="http://127.0.0.1:9/v1"
    )
    settings.model_timeout_s = 2
    mw = Memwise.open(sqlite_url, chat_model=Parts(settings).chat_model(), migrate=False)
    try:
        ws, _ = mw.tenancy.create_workspace("Bikes", "UTC", "business")
        agent = mw.tenancy.create_agent(ws.id, "Bot")
        door = TelegramDoor(mw, ws.id, agent.id)
        msg = Incoming(CUSTOMER, CUSTOMER, "Jo", "Is my bike ready?", mw.rt.clock.now())
        (reply,) = door.message(msg)
        assert "can't answer right now" in reply
        (conv,) = mw.record.conversations(ws.id)
        assert [t.text for t in mw.record.turns(ws.id, conv.id)] == ["Is my bike ready?"]
    finally:
        mw.close()


def test_memory_never_quotes_an_operators_note_to_the_customer(
    setup: tuple[Memwise, str, str], clock: FixedClock
) -> None:
    from memwise._services.memory.memory import NewItem

    mw, ws, agent = setup
    door = TelegramDoor(mw, ws, agent)
    said(door, clock, CUSTOMER, "hello there")
    (contact,) = mw.tenancy.find_contacts(ws, "telegram", str(CUSTOMER))
    note = NewItem("note", "Was rude to staff on the phone", source="operator")
    mw.memory.write(ws, contact, note)
    reply = door.memory(Incoming(CUSTOMER, CUSTOMER, "Jo Lee", "/memory", clock.now()))
    assert "rude" not in reply
