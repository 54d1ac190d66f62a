"""A data request deletes every trace of a contact, with memory on and the loop running."""

from __future__ import annotations

import sqlalchemy as sa

from memwise import Memwise


def test_nothing_of_the_contact_remains_anywhere(mw: Memwise) -> None:
    ws, _ = mw.tenancy.create_workspace("Shop", "Europe/Berlin", "startup")
    agent = mw.tenancy.create_agent(
        ws.id, "Eve", memory_enabled=True, domain="retail", business_intelligence=True
    ).id
    c = mw.tenancy.create_contact(ws.id, "Zelda Quintrell", emails=["zelda@example.com"]).id
    keep = mw.tenancy.create_contact(ws.id, "Other Person", emails=["other@example.com"]).id
    conv, _ = mw.record.start(ws.id, agent, "web", contact_id=c)
    mw.record.append(
        ws.id,
        conv.id,
        "customer",
        "Please email me, I prefer email. I ordered the trail stove. Do you ship to Vanuatu?",
    )
    mw.record.end(ws.id, conv.id)
    mw.worker().run_once()
    item, _ = mw.teaching.record_unanswered(
        ws.id, "Do you ship to Vanuatu?", conversation_id=conv.id, contact_id=c
    )
    mw.tickets.open(
        ws.id,
        subject="Vanuatu",
        body="Do you ship to Vanuatu?",
        contact_id=c,
        conversation_id=conv.id,
        unanswered_id=item.id,
    )
    other_q, _ = mw.teaching.record_unanswered(
        ws.id, "Is the Alpine 2 waterproof?", contact_id=keep
    )
    mw.learning.fold(ws.id, "unanswered")
    mw.learning.fold(ws.id, "tickets")
    assert mw.memory.items(ws.id, c) and mw.learning.book(ws.id)
    counts = mw.data_requests.delete(ws.id, c, actor="key:owner")
    assert counts["memory_items"] >= 1 and counts["jobs"] >= 1 and counts["learning_refs"] >= 2
    needles = [c, conv.id, item.id, "Zelda", "zelda@example.com", "Vanuatu", "trail stove"]
    engine = mw.rt.db.engine
    with engine.connect() as db:
        for table in sa.inspect(engine).get_table_names():
            for row in db.execute(sa.text(f'SELECT * FROM "{table}"')):
                flat = " ".join(str(v) for v in row)
                assert not any(n in flat for n in needles), (table, flat[:300])
    assert mw.record.search(ws.id, "Vanuatu") == []
    assert [b["question"] for b in mw.learning.book(ws.id)] == ["Is the Alpine 2 waterproof?"]
    assert mw.tenancy.get_contact(ws.id, keep).name == "Other Person" and other_q.id


def test_every_table_of_the_schema_is_a_decision() -> None:
    """Each table is either covered by a data request or kept with a stated reason; a table
    that names a contact or a conversation is always covered."""
    from memwise._storage.schema import metadata
    from memwise._storage.stores.contact_data import COVERED, KEPT

    assert not COVERED & set(KEPT)
    assert set(metadata.tables) == COVERED | set(KEPT), set(metadata.tables) ^ (COVERED | set(KEPT))
    for table in metadata.tables.values():
        names = {c.name for c in table.columns}
        if names & {"contact_id", "conversation_id", "unanswered_id"}:
            assert table.name in COVERED, table.name


def test_taught_knowledge_stays_but_forgets_whose_question_it_was(mw: Memwise) -> None:
    ws, _ = mw.tenancy.create_workspace("Shop", "Europe/Berlin", "startup")
    c = mw.tenancy.create_contact(ws.id, "Yara Quell", emails=["yara@example.com"]).id
    item, _ = mw.teaching.record_unanswered(ws.id, "Do you repair tandems?", contact_id=c)
    lesson = mw.teaching.draft(
        ws.id, "Do you repair tandems?", "Yes, tandems too.", unanswered_id=item.id, actor="op"
    )
    mw.teaching.approve(ws.id, lesson.id, approved_by="admin")
    mw.data_requests.delete(ws.id, c, actor="key:owner")
    kept = mw.teaching.lesson(ws.id, lesson.id)
    assert kept.answer == "Yes, tandems too." and kept.unanswered_id is None
    assert all(r.unanswered_id is None for r in mw.teaching.receipts(ws.id, lesson.id))
