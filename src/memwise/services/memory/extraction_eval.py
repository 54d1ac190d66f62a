"""Evaluate an extractor end to end on a corpus of hand-labelled conversations.

Each case: turns (role, text) and what should be remembered (``expect``: kind/key, words the
text contains, occurs_on, temporal), what must never be (``forbid``: words no item may
contain), and what should end superseded. Each conversation runs through the real pipeline:
recorded, ended, queued, extracted by a worker, verified, applied.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from memwise.domain.memory import Served
from memwise.services.conversation.record import NewTurn
from memwise.services.facade import Memwise


@dataclass
class Report:
    cases: int = 0
    true_positive: int = 0
    false_positive: int = 0
    false_negative: int = 0
    forbidden: int = 0
    superseded_ok: int = 0
    superseded_expected: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        found = self.true_positive + self.false_positive
        return self.true_positive / found if found else 1.0

    @property
    def recall(self) -> float:
        wanted = self.true_positive + self.false_negative
        return self.true_positive / wanted if wanted else 1.0


def _matches(s: Served, want: dict[str, Any]) -> bool:
    item = s.item
    if "key" in want and item.key != want["key"]:
        return False
    if "kind" in want and item.kind.value != want["kind"]:
        return False
    if want.get("contains", "").lower() not in item.text.lower():
        return False
    if "occurs_on" in want and item.occurs_on != want["occurs_on"]:
        return False
    return "temporal" not in want or s.temporal == want["temporal"]


def evaluate(
    mw: Memwise, corpus: list[dict[str, Any]], said_at: datetime, timezone: str = "Europe/Berlin"
) -> Report:
    ws, _ = mw.tenancy.create_workspace("Evaluation", timezone, "business")
    agent = mw.tenancy.create_agent(
        ws.id, "Eve", memory_enabled=True, domain="retail", business_intelligence=True
    )
    report = Report()
    for case in corpus:
        report.cases += 1
        contact = mw.tenancy.create_contact(ws.id, f"Case {report.cases}")
        conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact.id, at=said_at)
        turns = [
            NewTurn(r, t, said_at + timedelta(minutes=i)) for i, (r, t) in enumerate(case["turns"])
        ]
        mw.record.append_many(ws.id, conv.id, turns)
        mw.record.end(ws.id, conv.id)
        mw.worker().run_once()
        served = mw.memory.items(ws.id, contact.id, include=["superseded"])
        active = [s for s in served if s.item.lifecycle.value == "active"]
        claimed: set[str] = set()
        for want in case.get("expect", []):
            hit = next((s for s in active if s.item.id not in claimed and _matches(s, want)), None)
            if hit:
                claimed.add(hit.item.id)
                report.true_positive += 1
            else:
                report.false_negative += 1
                report.failures.append(f"{case['name']}: missed {want}")
        for s in active:
            if s.item.id not in claimed and not (s.item.key or "").startswith("continuity."):
                report.false_positive += 1
                report.failures.append(f"{case['name']}: unexpected {s.item.text!r}")
        for word in case.get("forbid", []):
            if any(word.lower() in s.item.text.lower() for s in served):
                report.forbidden += 1
                report.failures.append(f"{case['name']}: forbidden {word!r} was stored")
        for want in case.get("superseded", []):
            report.superseded_expected += 1
            if any(s.item.lifecycle.value == "superseded" and _matches(s, want) for s in served):
                report.superseded_ok += 1
            else:
                report.failures.append(f"{case['name']}: expected superseded {want}")
    return report
