"""The extractor on data it was not written against: LoCoMo observations, Synthetic-Persona-Chat
personas, and the everyday customer-service corpus (development and held-out halves).

    python bench/extraction_public.py --locomo ../shared/bench/locomo/locomo10.json \
        --persona ../shared/bench/facts/synthetic_persona_chat_test.csv [--limit N]

Every conversation goes through the real pipeline (``Memwise.remember``: recorded, ended,
extracted, quote-checked, the write boundary, supersession) on a fresh SQLite file. With
``MEMWISE_EXTRACTOR``/``MEMWISE_MODEL`` set, the configured model extractor runs the same
corpora as a second row; otherwise that row is skipped with one line.

Matching rule (documented in bench/README.md): words are compared as Snowball stems of
content words (stopwords, the extractor's template words and the speaker's own name left
out). A stored item *supports* a reference fact when they share at least two stems, or one
stem that is at least half of the item's stems; an item counts for LoCoMo only when its quote
is in the turn the observation cites.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))  # tools/

from tools.extraction_eval import Everyday, evaluate_everyday, quotes_found

from _common import table
from memwise import FixedClock, Memwise
from memwise._bootstrap import Parts
from memwise._config import Settings
from memwise._extraction.harness import TEMPLATE_WORDS, content_words
from memwise._text.lexical import snowball
from memwise._text.normal import norm

DATA = Path(__file__).parent.parent / "tests" / "data"
SAID = datetime(2026, 11, 29, 10, 0, tzinfo=ZoneInfo("Europe/Berlin"))
csv.field_size_limit(10_000_000)


def stems(text: str, drop: Iterable[str] = ()) -> set[str]:
    dropped = {norm(d) for d in drop} | TEMPLATE_WORDS
    return {snowball(w) for w in content_words(text) if w not in dropped}


def supports(item: str, fact: str, drop: Iterable[str] = ()) -> bool:
    a, b = stems(item, drop), stems(fact, drop)
    shared = a & b
    return len(shared) >= 2 or (len(shared) == 1 and len(a) <= 2)


@dataclass
class Run:
    """One extractor over one corpus."""

    facts: int = 0
    recovered: int = 0
    items: int = 0
    supported: int = 0
    quotes_ok: int = 0
    quotes: int = 0
    wrong_speaker: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    by_kind_ok: Counter[str] = field(default_factory=Counter)

    def row(self, name: str, extractor: str) -> list[str]:
        def pct(a: int, b: int) -> str:
            return f"{a / b:.3f}" if b else "—"

        return [
            name,
            extractor,
            str(self.facts),
            pct(self.recovered, self.facts),
            str(self.items),
            pct(self.supported, self.items),
            pct(self.quotes_ok, self.quotes),
            str(self.wrong_speaker),
        ]


def _fresh(tmp: Path, extractor: Any) -> tuple[Memwise, str, str]:
    path = tmp / f"x{len(list(tmp.iterdir()))}.db"
    mw = Memwise.open(f"sqlite:///{path}", clock=FixedClock(SAID), extractor=extractor)
    ws, _ = mw.tenancy.create_workspace("Bench", "Europe/Berlin", "enterprise", 10_000_000)
    agent = mw.tenancy.create_agent(
        ws.id, "Eve", memory_enabled=True, domain="retail", business_intelligence=True
    )
    return mw, ws.id, agent.id


# -- (a) LoCoMo observations ---------------------------------------------------------------
def locomo(path: Path, tmp: Path, extractor: Any, limit: int | None) -> Run:
    run = Run()
    mw, ws, agent = _fresh(tmp, extractor)
    done = 0
    for sample in json.loads(path.read_text()):
        conv = sample["conversation"]
        for key, observations in sample["observation"].items():
            session = key.removesuffix("_observation")
            turns = conv.get(session) or []
            for speaker, facts in observations.items():
                if limit is not None and done >= limit:
                    mw.close()
                    return run
                done += 1
                contact = mw.tenancy.create_contact(ws, f"{speaker} {done}").id
                messages = [
                    {
                        "role": "customer" if t["speaker"] == speaker else "assistant",
                        "text": t.get("text") or "(an image)",
                        "at": SAID + timedelta(seconds=i),
                    }
                    for i, t in enumerate(turns)
                ]
                if not messages:
                    continue
                got = mw.remember(ws, contact, messages, agent_id=agent)
                recorded = mw.record.turns(ws, got.conversation_id, limit=500)
                dia = {r.id: t["dia_id"] for r, t in zip(recorded, turns, strict=False)}
                names = speaker.split()
                run.facts += len(facts)
                used: set[str] = set()
                for fact, cited in facts:
                    cites = set(cited) if isinstance(cited, list) else {cited}
                    hit = next(
                        (
                            s
                            for s in got.items
                            if any(dia.get(e.turn_id) in cites for e in s.item.evidence)
                            and supports(s.item.text, fact, names)
                        ),
                        None,
                    )
                    if hit:
                        run.recovered += 1
                        used.add(hit.item.id)
                every = [f for f, _ in facts]
                for s in got.items:
                    if s.item.kind.value == "note":  # the continuity note: not a fact
                        continue
                    run.items += 1
                    run.by_kind[s.item.kind.value] += 1
                    if s.item.id in used or any(supports(s.item.text, f, names) for f in every):
                        run.supported += 1
                        run.by_kind_ok[s.item.kind.value] += 1
                ok, n = quotes_found(mw, ws, got.conversation_id, got.items)
                run.quotes_ok += ok
                run.quotes += n
                run.wrong_speaker += n - ok
    mw.close()
    return run


# -- (b) Synthetic-Persona-Chat ------------------------------------------------------------
def persona(path: Path, tmp: Path, extractor: Any, limit: int | None) -> tuple[Run, int]:
    """Persona recall per user, and false support: items from one user's turns that match
    only the other user's persona."""
    run, misattributed = Run(), 0
    mw, ws, agent = _fresh(tmp, extractor)
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    for n, row in enumerate(rows[:limit] if limit else rows):
        personas = {
            "User 1": [p.strip() for p in row["user 1 personas"].splitlines() if p.strip()],
            "User 2": [p.strip() for p in row["user 2 personas"].splitlines() if p.strip()],
        }
        lines = []
        for raw in row["Best Generated Conversation"].splitlines():
            who, _, text = raw.partition(":")
            if who.strip() in personas and text.strip():
                lines.append((who.strip(), text.strip()))
        for user, other in (("User 1", "User 2"), ("User 2", "User 1")):
            contact = mw.tenancy.create_contact(ws, f"{user} {n}").id
            messages = [
                {
                    "role": "customer" if who == user else "assistant",
                    "text": text,
                    "at": SAID + timedelta(seconds=i),
                }
                for i, (who, text) in enumerate(lines)
            ]
            if not messages:
                continue
            got = mw.remember(ws, contact, messages, agent_id=agent)
            run.facts += len(personas[user])
            run.recovered += sum(
                any(supports(s.item.text, fact) for s in got.items) for fact in personas[user]
            )
            for s in got.items:
                if s.item.kind.value == "note":
                    continue
                run.items += 1
                run.by_kind[s.item.kind.value] += 1
                own = any(supports(s.item.text, fact) for fact in personas[user])
                theirs = any(supports(s.item.text, fact) for fact in personas[other])
                if own:
                    run.supported += 1
                    run.by_kind_ok[s.item.kind.value] += 1
                elif theirs:
                    misattributed += 1
            ok, q = quotes_found(mw, ws, got.conversation_id, got.items)
            run.quotes_ok += ok
            run.quotes += q
            run.wrong_speaker += q - ok
    mw.close()
    return run, misattributed


# -- (c) the everyday corpus: tools.extraction_eval.evaluate_everyday ----
def everyday(path: Path, tmp: Path, extractor: Any) -> Everyday:
    mw, _, _ = _fresh(tmp, extractor)
    try:
        return evaluate_everyday(mw, json.loads(path.read_text()), SAID)
    finally:
        mw.close()


def _extractors() -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = [("rules", None)]
    settings = Settings()
    if settings.extractor != "rules" and settings.model:
        found.append((f"{settings.extractor}:{settings.model}", Parts(settings).extractor()))
    else:
        print(
            "model extractor: skipped (no model configured: set MEMWISE_EXTRACTOR and "
            "MEMWISE_MODEL to measure it on the same corpora)"
        )
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--locomo", type=Path, help="locomo10.json (not shipped: its licence)")
    ap.add_argument("--persona", type=Path, help="synthetic_persona_chat_test.csv")
    ap.add_argument("--limit", type=int, default=None, help="sessions / conversations per set")
    ap.add_argument("--show-misses", action="store_true")
    args = ap.parse_args()
    extractors = _extractors()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        rows = []
        for label, extractor in extractors:
            if args.locomo:
                rows.append(locomo(args.locomo, tmp, extractor, args.limit).row("LoCoMo", label))
            if args.persona:
                run, wrong = persona(args.persona, tmp, extractor, args.limit)
                rows.append([*run.row("Persona-Chat", label), str(wrong)])
        if rows:
            table(
                "Public data the rules were not written against",
                [
                    "corpus",
                    "extractor",
                    "facts",
                    "recall",
                    "items",
                    "precision",
                    "quotes ok",
                    "other's quote",
                    "other's only",
                ],
                [r + [""] * (9 - len(r)) for r in rows],
            )
        for label, extractor in extractors:
            kinds_rows, topic_rows = [], []
            for half in ("dev", "holdout"):
                path = DATA / f"extraction_everyday_{half}.json"
                if not path.exists():
                    print(f"{path.name}: missing")
                    continue
                r = everyday(path, tmp, extractor)
                for kind in sorted(set(r.expected) | set(r.stored)):
                    rec = r.found[kind] / r.expected[kind] if r.expected[kind] else None
                    prec = r.correct[kind] / r.stored[kind] if r.stored[kind] else None
                    kinds_rows.append(
                        [
                            half,
                            kind,
                            str(r.expected[kind]),
                            f"{rec:.3f}" if rec is not None else "—",
                            str(r.stored[kind]),
                            f"{prec:.3f}" if prec is not None else "—",
                        ]
                    )
                total_e, total_f = sum(r.expected.values()), sum(r.found.values())
                scored = sum(v for k, v in r.stored.items() if k != "note")
                right = sum(v for k, v in r.correct.items() if k != "note")
                kinds_rows.append(
                    [
                        half,
                        "all (notes aside)",
                        str(total_e),
                        f"{total_f / total_e:.3f}" if total_e else "—",
                        str(scored),
                        f"{right / scored:.3f}" if scored else "—",
                    ]
                )
                for topic, (hit, want) in sorted(r.topics.items()):
                    topic_rows.append(
                        [half, topic, f"{hit}/{want}", f"{hit / want:.2f}" if want else "—"]
                    )
                topic_rows.append(
                    [
                        half,
                        "corrections superseded",
                        f"{r.superseded[0]}/{r.superseded[1]}",
                        f"{r.superseded[0] / r.superseded[1]:.2f}" if r.superseded[1] else "—",
                    ]
                )
                topic_rows.append(
                    [
                        half,
                        "requests stored as a preference",
                        f"{r.wrong_preferences}/{r.requests}",
                        "",
                    ]
                )
                topic_rows.append([half, "quotes valid", f"{r.quotes[0]}/{r.quotes[1]}", ""])
                if args.show_misses:
                    for miss in r.misses:
                        print(f"  {half}: {miss}")
            if kinds_rows:
                table(
                    f"Everyday customer-service corpus, {label}: per kind",
                    ["half", "kind", "expected", "recall", "stored", "precision"],
                    kinds_rows,
                )
                table(
                    f"Everyday customer-service corpus, {label}: per topic",
                    ["half", "topic", "found", "recall"],
                    topic_rows,
                )


if __name__ == "__main__":
    main()
