"""Evaluate an extractor end to end on a corpus of hand-labelled conversations.

Each case: turns (role, text) and what should be remembered (``expect``: kind/key, words the
text contains, occurs_on, temporal), what must never be (``forbid``: words no item may
contain), and what should end superseded. Each conversation runs through the real pipeline:
recorded, ended, queued, extracted by a worker, verified, applied.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from memwise._domain.memory import Served
from memwise._services.conversation.record import NewTurn
from memwise._services.facade import Memwise
from memwise._text.normal import norm


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
            if s.item.id not in claimed and s.item.kind.value != "summary":
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


# -- the everyday corpus: labels by kind and words, written without seeing the rules ------
def _wanted(served: Served, want: dict[str, Any]) -> bool:
    item = served.item
    if want.get("kind") and item.kind.value != want["kind"]:
        return False
    text = item.text.lower()
    if not all(w.lower() in text for w in want.get("contains", [])):
        return False
    day = str(item.occurs_on or "")[:10]
    if "occurs_on" in want and day != want["occurs_on"]:
        return False
    return not want.get("occurs_on_any") or day in want["occurs_on_any"]


@dataclass
class Everyday:
    """Found and stored items per kind and per topic, corrections superseded, one-off
    requests stored as a preference, quotes found in the customer's own turns."""

    expected: Counter[str] = field(default_factory=Counter)
    found: Counter[str] = field(default_factory=Counter)
    stored: Counter[str] = field(default_factory=Counter)
    correct: Counter[str] = field(default_factory=Counter)
    topics: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    superseded: list[int] = field(default_factory=lambda: [0, 0])
    wrong_preferences: int = 0
    requests: int = 0
    quotes: list[int] = field(default_factory=lambda: [0, 0])
    misses: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        total = sum(self.expected.values())
        return sum(self.found.values()) / total if total else 1.0

    @property
    def precision(self) -> float:
        """Of the items stored, notes (the continuity note) aside, the share expected."""
        stored = sum(v for k, v in self.stored.items() if k != "note")
        right = sum(v for k, v in self.correct.items() if k != "note")
        return right / stored if stored else 1.0


def evaluate_everyday(
    mw: Memwise, corpus: list[dict[str, Any]], said_at: datetime, timezone: str = "Europe/Berlin"
) -> Everyday:
    """Each case through ``Memwise.remember`` (an earlier conversation first when it has
    ``before``), scored against ``expect``, ``superseded`` and ``no_preference``."""
    ws, _ = mw.tenancy.create_workspace("Everyday", timezone, "enterprise", 10_000_000)
    agent = mw.tenancy.create_agent(
        ws.id, "Eve", memory_enabled=True, domain="retail", business_intelligence=True
    ).id
    r = Everyday()
    for n, case in enumerate(corpus):
        contact = mw.tenancy.create_contact(ws.id, f"Case {n}").id
        if case.get("before"):
            earlier = said_at - timedelta(days=7)
            mw.remember(
                ws.id,
                contact,
                [
                    {"role": role, "text": text, "at": earlier + timedelta(minutes=i)}
                    for i, (role, text) in enumerate(case["before"])
                ],
                agent_id=agent,
            )
        got = mw.remember(
            ws.id,
            contact,
            [
                {"role": role, "text": text, "at": said_at + timedelta(minutes=i)}
                for i, (role, text) in enumerate(case["turns"])
            ],
            agent_id=agent,
        )
        active = [s for s in got.items if s.item.lifecycle.value == "active"]
        claimed: set[str] = set()
        topic = r.topics[case.get("topic", "?")]
        for want in case.get("expect", []):
            kind = want.get("kind", "?")
            r.expected[kind] += 1
            topic[1] += 1
            hit = next((s for s in active if s.item.id not in claimed and _wanted(s, want)), None)
            if hit:
                claimed.add(hit.item.id)
                r.found[kind] += 1
                topic[0] += 1
            else:
                r.misses.append(f"{case['name']}: missed {want}")
        for s in active:
            if s.item.kind.value == "summary":  # summaries are measured on their own
                continue
            r.stored[s.item.kind.value] += 1
            if s.item.id in claimed:
                r.correct[s.item.kind.value] += 1
            elif s.item.kind.value != "note":
                r.misses.append(f"{case['name']}: unexpected {s.item.kind.value} {s.item.text!r}")
        if case.get("no_preference"):
            r.requests += 1
            r.wrong_preferences += any(s.item.kind.value == "preference" for s in active)
        if case.get("superseded"):
            old = [
                s
                for s in mw.memory.items(ws.id, contact, include=["superseded"])
                if s.item.lifecycle.value == "superseded"
            ]
            for want in case["superseded"]:
                r.superseded[1] += 1
                r.superseded[0] += any(_wanted(s, {"contains": want["contains"]}) for s in old)
        ok, n = quotes_found(mw, ws.id, got.conversation_id, active)
        r.quotes[0] += ok
        r.quotes[1] += n
    return r


def quotes_found(
    mw: Memwise, workspace_id: str, conversation_id: str, served: list[Served]
) -> tuple[int, int]:
    """(quotes found word for word in a customer turn of the conversation, quotes): checked
    again here, outside the harness that already checked them."""
    turns = {t.id: t for t in mw.record.turns(workspace_id, conversation_id, limit=500)}
    ok = n = 0
    for s in served:
        for ev in s.item.evidence:
            t = turns.get(ev.turn_id)
            n += 1
            ok += bool(t and t.role.value == "customer" and norm(ev.quote) in norm(t.text or ""))
    return ok, n
