"""The written sets record recall is measured on hold together: every evidence turn exists in
its own record, turn ids are unique across a set, and each question says who asks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parents[1] / "data"
SETS = ["recall_heldout_1", "recall_remind_1", "recall_business_2", "recall_business_3"]


@pytest.mark.parametrize("name", SETS)
def test_a_written_set_holds_together(name: str) -> None:
    records = json.loads((DATA / f"{name}.json").read_text())
    seen: set[str] = set()
    for record in records:
        roles = {}
        for session in record["sessions"]:
            for turn in session["turns"]:
                assert turn["id"] not in seen, turn["id"]
                seen.add(turn["id"])
                roles[turn["id"]] = turn["role"]
        for q in record["questions"]:
            assert q["evidence"] and set(q["evidence"]) <= roles.keys(), q["q"]
            assert q["asked_by"] in ("customer", "staff")
            if q["kind"] == "business-said":
                assert {roles[e] for e in q["evidence"]} == {"assistant"}, q["q"]
            if q["kind"] == "customer-said":
                assert {roles[e] for e in q["evidence"]} == {"customer"}, q["q"]
