"""One memory's life on every backend: its versions and every change (who, when, why), the
list with its filters, and a hard delete of one item."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa

from memwise import FixedClock, Memwise, errors
from memwise._storage.schema import audit_log, memory_changes
from tests.contract.test_memory import World


@pytest.fixture
def world(mw: Memwise) -> World:
    return World(mw)


def test_a_memory_s_life_from_first_mention_through_correction_edit_and_archive(
    world: World, clock: FixedClock
) -> None:
    first = world.stated("Lives in Bremen", "home.city", kind="fact")
    clock.advance(days=3)
    second = world.stated("Lives in Hamburg", "home.city", kind="fact")
    assert second.action == "superseded"
    clock.advance(days=1)
    world.mw.memory.edit(world.ws, second.item.id, text="Lives in Hamburg-Altona", actor="key:op")
    clock.advance(days=1)
    world.mw.memory.archive(world.ws, second.item.id, actor="key:admin")

    for asked in (first.item.id, second.item.id):  # the same life, from either version
        life = world.mw.memory.history(world.ws, asked)
        assert [v.item.id for v in life.versions] == [first.item.id, second.item.id]
        steps = [(c.item_id, c.action) for c in life.changes]
        assert steps == [
            (first.item.id, "created"),
            (second.item.id, "created"),
            (first.item.id, "superseded"),
            (second.item.id, "edited"),
            (second.item.id, "archived"),
        ]
    by = {(c.item_id, c.action): c for c in life.changes}
    superseded = by[(first.item.id, "superseded")]
    assert superseded.other_item_id == second.item.id and "newer statement" in (
        superseded.why or ""
    )
    edited = by[(second.item.id, "edited")]
    assert (edited.before, edited.text, edited.actor) == (
        "Lives in Hamburg",
        "Lives in Hamburg-Altona",
        "key:op",
    )
    assert by[(second.item.id, "archived")].actor == "key:admin"
    assert by[(first.item.id, "created")].actor == "stated"


def test_the_list_filters_by_contact_kind_key_and_time(world: World, clock: FixedClock) -> None:
    world.stated("Allergic to peanuts", "allergy.peanuts", kind="fact")
    world.stated("Allergic to penicillin", "allergy.penicillin", kind="fact")
    clock.advance(days=2)
    later = clock.now()
    world.stated("Prefers email", "preference.contact_channel")
    mw, ws = world.mw, world.ws
    texts = lambda found: [s.item.text for s in found[0]]  # noqa: E731
    assert texts(mw.memory.listing(ws, key="allergy.")) == [
        "Allergic to penicillin",
        "Allergic to peanuts",
    ]
    assert texts(mw.memory.listing(ws, key="allergy.peanuts")) == ["Allergic to peanuts"]
    assert texts(mw.memory.listing(ws, kind="preference")) == ["Prefers email"]
    assert texts(mw.memory.listing(ws, since=later)) == ["Prefers email"]
    assert texts(mw.memory.listing(ws, until=later - timedelta(seconds=1))) == [
        "Allergic to penicillin",
        "Allergic to peanuts",
    ]
    page, cursor = mw.memory.listing(ws, contact_id=world.contact, limit=2)
    assert len(page) == 2 and cursor is not None
    rest, end = mw.memory.listing(ws, contact_id=world.contact, limit=2, cursor=cursor)
    assert [s.item.text for s in rest] == ["Allergic to peanuts"] and end is None
    with pytest.raises(errors.Invalid):
        mw.memory.listing(ws, cursor="not-a-cursor")
    with pytest.raises(errors.Invalid):
        mw.memory.listing(ws, kind="nonsense")


def test_a_hard_delete_erases_the_item_and_its_history_and_is_audited(
    world: World, clock: FixedClock
) -> None:
    first = world.stated("Lives in Bremen", "home.city", kind="fact")
    clock.advance(days=1)
    second = world.stated("Lives in Hamburg", "home.city", kind="fact")
    world.mw.memory.delete(world.ws, second.item.id, actor="key:admin")
    with pytest.raises(errors.NotFound):
        world.mw.memory.get(world.ws, second.item.id)
    old = world.mw.memory.get(world.ws, first.item.id).item
    assert old.lifecycle.value == "superseded" and old.superseded_by is None
    assert "later deleted" in (old.superseded_why or "")
    with world.mw.rt.db.read() as conn:
        left = conn.execute(
            sa.select(sa.func.count()).where(memory_changes.c.item_id == second.item.id)
        ).scalar_one()
        entry = conn.execute(sa.select(audit_log).where(audit_log.c.tool == "memory.delete")).one()
    assert left == 0
    assert entry.actor == "key:admin" and "Hamburg" not in str(entry.args) + entry.result
    with pytest.raises(errors.NotFound):  # another workspace's item is never reached
        other, _ = world.mw.tenancy.create_workspace("Other")
        world.mw.memory.delete(other.id, first.item.id, actor="key:admin")


def test_a_contacts_data_request_covers_its_memory_changes(world: World) -> None:
    item = world.stated("Prefers email", "preference.contact_channel")
    exported = world.mw.data_requests.export(world.ws, world.contact)
    assert any(c["item_id"] == item.item.id for c in exported["memory_changes"])
    world.mw.data_requests.delete(world.ws, world.contact, actor="key:owner")
    with world.mw.rt.db.read() as conn:
        assert (
            conn.execute(
                sa.select(sa.func.count()).where(memory_changes.c.contact_id == world.contact)
            ).scalar_one()
            == 0
        )
