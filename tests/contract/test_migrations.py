"""Every migration goes down and up again on every backend."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import command

from memwise import FixedClock, Memwise
from memwise._domain.memory import Evidence
from memwise._services.memory.memory import NewItem
from memwise._storage.engine import Database, alembic_config
from memwise._storage.schema import metadata


def test_migrations_go_down_to_base_and_up_again(database_url: str) -> None:
    db = Database(database_url)
    head = db.current_revision()
    command.downgrade(alembic_config(db), "base")
    assert db.current_revision() is None
    assert set(sa.inspect(db.engine).get_table_names()) <= {"alembic_version"}
    db.migrate()
    assert db.current_revision() == head
    tables = set(sa.inspect(db.engine).get_table_names())
    assert set(metadata.tables) <= tables
    db.dispose()


def test_continuity_notes_become_their_conversations_summaries(
    database_url: str, clock: FixedClock
) -> None:
    """0020: an "Asked about: …" note written before summaries is migrated into its
    conversation's summary (one sentence, marked migrated); going down turns it back."""
    mw = Memwise.open(database_url, clock=clock, migrate=False)
    ws, _ = mw.tenancy.create_workspace("Old", "UTC", "startup")
    agent = mw.tenancy.create_agent(ws.id, "Eve", memory_enabled=True, domain="general")
    ann = mw.tenancy.create_contact(ws.id, "Ann")
    conv, _ = mw.record.start(ws.id, agent.id, "email", contact_id=ann.id)
    turn = mw.record.append(ws.id, conv.id, "customer", "Do you open on Sundays?")
    written = mw.memory.write(
        ws.id,
        ann.id,
        NewItem(
            kind="note",
            text="Asked about: Do you open on Sundays",
            scope="session",
            key=f"continuity.{conv.id[-12:].lower()}",
            evidence=[Evidence(turn.id, "Do you open on Sundays?")],
            conversation_id=conv.id,
        ),
    )
    mw.close()
    db = Database(database_url)
    command.downgrade(alembic_config(db), "0019")
    command.upgrade(alembic_config(db), "head")
    db.dispose()
    mw = Memwise.open(database_url, clock=clock, migrate=False)
    (made,) = mw.memory.summaries(ws.id, ann.id)
    assert made.item.id == written.item.id and made.item.text == "Asked: Do you open on Sundays"
    assert made.item.key == f"summary.{conv.id[-12:].lower()}"
    (sentence,) = made.item.labels["summary"]["sentences"]
    assert sentence["turn_id"] == turn.id and sentence["part"] == "wanted"
    assert made.item.labels["summary"] | {"sentences": []} == {
        "sentences": [],
        "channel": "email",
        "method": "migrated",
    }
    assert mw.memory.items(ws.id, ann.id) == []  # no longer a note beside the facts
    mw.close()
