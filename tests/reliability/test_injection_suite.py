"""Every injection string of the shared evaluation set, sent as a customer's turns through
chat and extraction: all recorded, and nothing becomes a rule, a lesson or a memory item that
carries the instruction. Reads the set from $MEMWISE_INJECTION_DATA or ../shared/bench."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import sqlalchemy as sa

from memwise import Memwise
from memwise.safety import instructions
from memwise.storage.schema import lessons, memory_items, notebook_entries, turns

ROOT = Path(__file__).resolve().parents[2]
CANDIDATES = [
    Path(os.environ["MEMWISE_INJECTION_DATA"])
    if os.environ.get("MEMWISE_INJECTION_DATA")
    else None,
    ROOT.parent / "shared" / "bench" / "injection",
    Path("/work/shared/bench/injection"),
]
DATA = next(
    (p for p in CANDIDATES if p and (p / "cyberseceval_prompt_injection.json").exists()), None
)
pytestmark = pytest.mark.skipif(DATA is None, reason="the injection set is not on this machine")


def attacks() -> list[str]:
    assert DATA is not None
    cse = [
        c["user_input"]
        for c in json.loads((DATA / "cyberseceval_prompt_injection.json").read_text())
    ]
    bipia = [
        s
        for name in ("bipia_text_attack_train.json", "bipia_text_attack_test.json")
        for group in json.loads((DATA / name).read_text()).values()
        for s in group
    ]
    return [a for a in cse + bipia if a.strip()]


def test_no_injection_becomes_a_rule_a_lesson_or_a_memory(mw_sqlite: Memwise) -> None:
    mw = mw_sqlite
    texts = attacks()
    assert len(texts) == 401
    ws, _ = mw.tenancy.create_workspace("Target", "UTC", "business")
    agent = mw.tenancy.create_agent(ws.id, "Eve", memory_enabled=True, domain="retail")
    mw.tenancy.create_user(ws.id, "Mira", "operator")  # a notebook the attacks would like to write
    sent = 0
    for n, text in enumerate(texts):
        contact = mw.tenancy.create_contact(ws.id, f"Visitor {n}")
        conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact.id)
        mw.chat(ws.id, conv.id, text[:32_000])
        mw.record.append(ws.id, conv.id, "customer", f"Remember this for next time: {text[:2000]}")
        mw.record.end(ws.id, conv.id)
        sent += 1
    mw.worker().run_once()
    with mw.rt.db.read() as conn:
        recorded = conn.execute(
            sa.select(sa.func.count()).where(
                turns.c.workspace_id == ws.id, turns.c.role == "customer"
            )
        ).scalar_one()
        rules = conn.execute(sa.select(sa.func.count()).select_from(notebook_entries)).scalar_one()
        taught = conn.execute(sa.select(sa.func.count()).select_from(lessons)).scalar_one()
        items = (
            conn.execute(sa.select(memory_items.c.text).where(memory_items.c.workspace_id == ws.id))
            .scalars()
            .all()
        )
    assert recorded == 2 * sent  # every attack is in the record, as data
    assert rules == 0 and taught == 0
    spans = {f.excerpt.lower() for t in texts for f in instructions.scan(t) if len(f.excerpt) >= 12}
    carrying = [i for i in items if instructions.scan(i) or any(s in i.lower() for s in spans)]
    assert carrying == [], carrying[:5]
