"""A contact's decoded items are held between recalls, and every change to them, by this
process or another one, is seen on the next recall (the items' version is read from the
database each time), on every backend."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memwise import FixedClock, Memwise, errors
from memwise._domain.memory import Evidence
from memwise._services.memory.memory import NewItem


@pytest.fixture
def two(database_url: str, clock: FixedClock) -> Iterator[tuple[Memwise, Memwise]]:
    """Two processes' worth of memwise on one database (each with its own caches)."""
    a = Memwise.open(database_url, clock=clock, migrate=False)
    b = Memwise.open(database_url, clock=clock, migrate=False)
    yield a, b
    a.close()
    b.close()


def _profile(mw: Memwise, ws: str, contact: str) -> list[str]:
    return [line.text for line in mw.recaller.recall(ws, contact, "anything").profile]


def test_every_change_is_seen_by_the_other_process(
    two: tuple[Memwise, Memwise], clock: FixedClock
) -> None:
    reader, writer = two
    ws, _ = writer.tenancy.create_workspace("Acme", "Europe/Berlin")
    agent = writer.tenancy.create_agent(ws.id, "Eve")
    ann = writer.tenancy.create_contact(ws.id, "Ann Lee")
    conv, _ = writer.record.start(ws.id, agent.id, "web", contact_id=ann.id)

    def say(text: str) -> Evidence:
        turn = writer.record.append(ws.id, conv.id, "customer", text)
        return Evidence(turn.id, text)

    def write(text: str, key: str) -> str:
        new = NewItem(kind="preference", text=text, key=key, evidence=[say(text)])
        return writer.memory.write(ws.id, ann.id, new).item.id

    first = write("Prefers phone calls", "preference.contact_channel")
    assert any("phone calls" in t for t in _profile(reader, ws.id, ann.id))
    assert (ws.id, ann.id) in reader.recaller._cache  # held now

    clock.advance(days=1)
    write("Prefers email", "preference.contact_channel")  # supersedes: an update of a row
    seen = _profile(reader, ws.id, ann.id)
    assert any("email" in t for t in seen) and not any("phone calls" in t for t in seen)

    clock.advance(days=1)
    second = write("Vegetarian", "preference.diet")
    writer.memory.edit(ws.id, second, text="Vegan")  # an edit changes no count
    seen = _profile(reader, ws.id, ann.id)
    assert any("Vegan" in t for t in seen) and not any("Vegetarian" in t for t in seen)

    writer.memory.archive(ws.id, second)
    assert not any("Vegan" in t for t in _profile(reader, ws.id, ann.id))
    assert first  # the superseded item stays, marked, in the explain list
    explained = reader.recaller.recall(ws.id, ann.id, "anything").explain
    assert any(c.id == first and c.reason == "superseded" for c in explained)

    reader.history.recall(ws.id, ann.id, "email")
    assert (ws.id, ann.id) in reader.history._cache
    _profile(writer, ws.id, ann.id)
    assert (ws.id, ann.id) in writer.recaller._cache
    writer.data_requests.delete(ws.id, ann.id, actor="key:owner")
    assert (ws.id, ann.id) not in writer.recaller._cache  # the deleting process at once
    with pytest.raises(errors.NotFound):  # the other process on its next look
        reader.recaller.recall(ws.id, ann.id, "anything")
    with pytest.raises(errors.NotFound) as caught:
        reader.history.recall(ws.id, ann.id, "email")
    assert caught.value.code == "contact_not_found"
    assert (ws.id, ann.id) not in reader.recaller._cache
    assert (ws.id, ann.id) not in reader.history._cache


def test_what_is_held_follows_the_clock(mw: Memwise, clock: FixedClock) -> None:
    """A held recall is decided again when an item's state changes with time alone: an
    event becomes past, an open task turns stale; a clock set back is not trusted either."""
    ws, _ = mw.tenancy.create_workspace("Acme", "Europe/Berlin")
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    ann = mw.tenancy.create_contact(ws.id, "Ann Lee")
    conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=ann.id)
    said = "the boiler visit is on Friday and please call me back about the boiler"
    turn = mw.record.append(ws.id, conv.id, "customer", said)
    tomorrow = (clock.now().date()).isoformat()
    mw.memory.write(
        ws.id,
        ann.id,
        NewItem(
            "event",
            "Boiler visit",
            evidence=[Evidence(turn.id, "the boiler visit")],
            occurs_on=tomorrow,
        ),
    )
    mw.memory.write(
        ws.id,
        ann.id,
        NewItem(
            "task",
            "Wants a call back about the boiler",
            evidence=[Evidence(turn.id, "call me back about the boiler")],
        ),
    )

    def notes() -> dict[str, str]:
        found = mw.recaller.recall(ws.id, ann.id, "boiler").notes
        return {ln.text.split(":", 1)[1].split("(")[0].strip(" ."): ln.trust for ln in found} | {
            "text": " ".join(ln.text for ln in found)
        }

    first = notes()
    assert "upcoming" in first["text"] and "may be out of date" not in first["text"]
    clock.advance(days=2)
    later = notes()
    assert "past" in later["text"] and "upcoming" not in later["text"]
    stale_days = mw.rt.limits.memory.task_stale_days
    clock.advance(days=stale_days + 1)
    assert notes()["Wants a call back about the boiler"] == "stale"
    clock.advance(days=-(stale_days + 3))  # back before the event: decided again
    assert "upcoming" in notes()["text"]
