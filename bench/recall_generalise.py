"""Record recall that generalises: weights chosen on one half of the data, reported on the other.

    python bench/recall_generalise.py ../shared/bench/locomo/locomo10.json \
        ../shared/bench/longmemeval/longmemeval_oracle.json

Two public sets, each split in halves: LoCoMo's ten conversations into A (0–4) and B (5–9),
LongMemEval's oracle questions into odd and even (by position in the file). Every variant of
the turn ranking (``memwise._retrieval.turns.TurnRecallConfig``) is scored on one half of each
(A with the even questions, or B with the odd ones), the best is chosen there, and its figures
on the *other* halves are the ones to quote. The objective, fixed before any run: the mean of
LoCoMo evidence recall@10 and LongMemEval turn recall@10 (the same measure on both: the share
of a question's evidence turns among the top 10). memwise ships the variant chosen on A and
the even questions, so its figures on B and the odd questions are held out.

Beside it, on the same turns and the same metric: plain BM25 over every turn, plain BM25 over
the customer's (the user's) turns only — LongMemEval's key setting — and the previous
defaults (chosen on all ten LoCoMo conversations, so not held out on either half).

LongMemEval is measured at turn level (gold = the user turns marked ``has_answer``; all@5,
all@10, any@5 and the share at 10) and session level (sessions ranked by their best turn;
all@5), over the 470 questions that are not abstentions (turn level: those with a user
evidence turn), with the time each question was asked ("now") and each session's date.

The index is pure (no database): the same ``TurnIndex`` ``History.recall`` builds.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parents[1]))  # tools/
from tools.locomo import CATEGORIES, evidence_ids, session_time

from memwise._retrieval.late import TokenVectors
from memwise._retrieval.turns import TurnDoc, TurnIndex, TurnRecallConfig

SHIPPED = TurnRecallConfig(dense_weight=0.0)  # the lexical ranking (no embedder)
SHIPPED_MEANING = TurnRecallConfig()  # with the local embedder: vectors and word pieces
OFF = replace(  # every part of the ranking switched off: what the others add to
    SHIPPED,
    neighbour_weight=0.0,
    window=0,
    speaker_boost=0.0,
    voice_boost=0.0,
    long_ratio=0.0,
    period_boost=0.0,
    newest_boost=0.0,
)
PLAIN = replace(OFF, b=0.75)
PREVIOUS = replace(  # the defaults before this comparison (chosen on all ten conversations)
    OFF, neighbour_weight=0.5, window=2, speaker_boost=0.6, b=0.5
)
INDEX_GRID = {"neighbour_weight": (0.25, 0.5), "b": (0.5, 0.75), "long_ratio": (0.0, 2.0)}
QUERY_GRID = {
    "voice_boost": (0.0, 0.6),
    "period_boost": (0.0, 0.5),
    "newest_boost": (0.0, 0.5),
}


@dataclass(frozen=True)
class Question:
    text: str
    turns: frozenset[str]  # the evidence turns (LongMemEval: the user's)
    sessions: frozenset[str] = frozenset()
    now: datetime | None = None


@dataclass(frozen=True)
class Case:
    """Turns to search and the questions asked of them."""

    docs: list[TurnDoc]
    questions: list[Question]


def locomo_samples(path: Path) -> list[Case]:
    """Per conversation: its turns (one memwise conversation per session, dated) and its
    questions with their evidence turn ids, asked the day after the last session."""
    out = []
    for sample in json.loads(path.read_text()):
        conv = sample["conversation"]
        first = conv["speaker_a"]
        docs: list[TurnDoc] = []
        n = 1
        while f"session_{n}" in conv:
            at = session_time(conv.get(f"session_{n}_date_time", ""))
            for t in conv[f"session_{n}"]:
                if not (t.get("text") or t.get("blip_caption")):
                    continue
                text = t.get("text", "")
                if t.get("blip_caption"):
                    text += f" [image: {t['blip_caption']}]"
                docs.append(
                    TurnDoc(t["dia_id"], f"s{n}", t["speaker"], text, t["speaker"] == first, at=at)
                )
            n += 1
        ids = {d.id for d in docs}
        now = max((d.at for d in docs if d.at), default=datetime(2024, 1, 1, tzinfo=UTC))
        questions = []
        for qa in sample["qa"]:
            if qa.get("category") not in CATEGORIES:
                continue
            wanted = frozenset(e for e in evidence_ids(qa.get("evidence", [])) if e in ids)
            if wanted:
                questions.append(Question(str(qa["question"]), wanted, now=now + timedelta(1)))
        out.append(Case(docs, questions))
    return out


def _lme_time(text: str) -> datetime:
    """ "2023/05/21 (Sun) 19:50" → a UTC datetime."""
    day, _, rest = text.partition(" (")
    return datetime.strptime(f"{day} {rest.partition(') ')[2]}", "%Y/%m/%d %H:%M").replace(
        tzinfo=UTC
    )


def lme_turns(q: dict) -> tuple[list[TurnDoc], set[str], set[str]]:
    """A LongMemEval question's sessions as turns (one conversation per session, dated),
    with its evidence turns: the user's, and the assistant's."""
    docs: list[TurnDoc] = []
    users: set[str] = set()
    theirs: set[str] = set()
    sessions = q["haystack_session_ids"], q["haystack_dates"], q["haystack_sessions"]
    for sid, date, session in zip(*sessions, strict=True):
        for i, t in enumerate(session):
            user = t["role"] == "user"
            docs.append(
                TurnDoc(f"{sid}:{i}", sid, t["role"], t["content"], user, at=_lme_time(date))
            )
            if t.get("has_answer"):
                (users if user else theirs).add(f"{sid}:{i}")
    return docs, users, theirs


def longmemeval_samples(path: Path) -> tuple[list[Case], list[Case]]:
    """LongMemEval's questions (abstentions left out) as one case each, split into the even
    and the odd ones by position in the file."""
    halves: tuple[list[Case], list[Case]] = ([], [])
    for n, q in enumerate(json.loads(path.read_text())):
        if q["question_id"].endswith("_abs"):
            continue
        docs, gold, _ = lme_turns(q)
        asked = Question(
            str(q["question"]),
            frozenset(gold),
            frozenset(q["answer_session_ids"]),
            _lme_time(q["question_date"]),
        )
        halves[n % 2].append(Case(docs, [asked]))
    return halves


class Meaning:
    """The local embedder's vectors — a sentence vector and word-piece vectors — of every
    turn ("speaker: text", as ``History`` embeds them) and question, each made once."""

    def __init__(self) -> None:
        from memwise._retrieval.embedders import MiniLMEmbedder

        self.embedder = MiniLMEmbedder("onnx")
        self.turns: dict[str, tuple[np.ndarray, TokenVectors]] = {}
        self.questions: dict[str, tuple[np.ndarray, TokenVectors]] = {}

    def fill(self, cases: list[Case]) -> None:
        texts = list(dict.fromkeys(_said(d) for c in cases for d in c.docs))
        texts = [t for t in texts if t not in self.turns]
        t0 = time.perf_counter()
        for start in range(0, len(texts), 256):
            batch = texts[start : start + 256]
            vectors, pieces = self.embedder.embed_tokens(batch)
            self.turns.update(zip(batch, zip(vectors, pieces, strict=True), strict=True))
            done = start + len(batch)
            rate = done / (time.perf_counter() - t0)
            print(f"\r  embedded {done}/{len(texts)} turns ({rate:.0f}/s)", end="", file=sys.stderr)
        print(file=sys.stderr)
        for c in cases:
            for q in c.questions:
                if q.text not in self.questions:
                    vectors, (pieces,) = self.embedder.embed_tokens([q.text])
                    self.questions[q.text] = (vectors[0], pieces)

    def index(self, docs: list[TurnDoc], config: TurnRecallConfig) -> TurnIndex:
        made = [self.turns[_said(d)] for d in docs]
        vectors = np.stack([v for v, _ in made]) if made else None
        return TurnIndex(docs, vectors, config, tokens=[p for _, p in made])


def _said(d: TurnDoc) -> str:
    return f"{d.speaker}: {d.text}"


def ranked(
    index: TurnIndex, question: Question, k: int, meaning: Meaning | None = None
) -> list[str]:
    vector, pieces = meaning.questions[question.text] if meaning else (None, None)
    found = index.search(
        question.text, k=k, now=question.now, query_vector=vector, query_tokens=pieces
    )
    return [index.docs[i].id for i, _ in found]


def share_at_10(cases: Iterable[tuple[Case, TurnIndex]], meaning: Meaning | None = None) -> float:
    """The share of each question's evidence turns in the top 10, averaged."""
    shares = []
    for case, index in cases:
        for q in case.questions:
            if q.turns:
                shares.append(len(q.turns & set(ranked(index, q, 10, meaning))) / len(q.turns))
    return sum(shares) / len(shares)


def longmemeval_metrics(
    cases: list[Case],
    config: TurnRecallConfig,
    user_only: bool = False,
    meaning: Meaning | None = None,
):
    """Turn and session recall over LongMemEval questions, with every turn ranked."""
    found: dict[str, list[float]] = {}
    for case in cases:
        docs = [d for d in case.docs if d.customer] if user_only else case.docs
        index = meaning.index(docs, config) if meaning else TurnIndex(docs, config=config)
        for q in case.questions:
            order = ranked(index, q, len(docs), meaning)
            sessions = list(dict.fromkeys(t.rsplit(":", 1)[0] for t in order))
            found.setdefault("session all@5", []).append(float(q.sessions <= set(sessions[:5])))
            if q.turns:
                top5, top10 = set(order[:5]), set(order[:10])
                found.setdefault("turn all@5", []).append(float(q.turns <= top5))
                found.setdefault("turn all@10", []).append(float(q.turns <= top10))
                found.setdefault("turn any@5", []).append(float(bool(q.turns & top5)))
                found.setdefault("turn share@10", []).append(len(q.turns & top10) / len(q.turns))
    return {m: sum(v) / len(v) for m, v in found.items()} | {"n": len(found["turn all@5"])}


def indexed(
    cases: list[Case], config: TurnRecallConfig, meaning: Meaning | None = None
) -> list[tuple[Case, TurnIndex]]:
    if meaning is not None:
        return [(c, meaning.index(c.docs, config)) for c in cases]
    return [(c, TurnIndex(c.docs, config=config)) for c in cases]


MEANING_GRID = {  # query-time settings of the embedder's part, on a chosen lexical ranking
    "dense_weight": (0.3, 0.6, 1.0),
    "late_weight": (0.0, 0.3, 0.5, 0.8),
    "late_depth": (50, 100),
}


def tune_meaning(
    base: TurnRecallConfig, locomo: list[Case], lme: list[Case], meaning: Meaning
) -> tuple[TurnRecallConfig, float, int]:
    """The embedder's settings with the best objective on these halves, on top of ``base``
    (the lexical ranking chosen on the same halves)."""
    lo, lm = indexed(locomo, base, meaning), indexed(lme, base, meaning)
    best: tuple[float, TurnRecallConfig] = (-1.0, base)
    tried = 0
    for values in itertools.product(*MEANING_GRID.values()):
        config = replace(base, **dict(zip(MEANING_GRID, values, strict=True)))
        if config.late_weight == 0 and config.late_depth != MEANING_GRID["late_depth"][0]:
            continue  # no late interaction: its depth does not matter
        for _, index in lo + lm:
            index.config = config
        value = (share_at_10(lo, meaning) + share_at_10(lm, meaning)) / 2
        tried += 1
        if value > best[0]:
            best = (value, config)
    return best[1], best[0], tried


def variants() -> Iterable[tuple[TurnRecallConfig, list[TurnRecallConfig]]]:
    """Per index-time setting, its base and every query-time variant of it."""
    for values in itertools.product(*INDEX_GRID.values()):
        base = replace(SHIPPED, **dict(zip(INDEX_GRID, values, strict=True)))
        queries = []
        for q in itertools.product(*QUERY_GRID.values()):
            queries.append(replace(base, **dict(zip(QUERY_GRID, q, strict=True))))
        yield base, queries


def tune(locomo: list[Case], lme: list[Case]) -> tuple[TurnRecallConfig, float, int]:
    """The variant with the best objective on these halves; indexes are built once per
    index-time setting and their query-time settings swapped in."""
    best: tuple[float, TurnRecallConfig] = (-1.0, SHIPPED)
    tried = 0
    for base, queries in variants():
        lo, lm = indexed(locomo, base), indexed(lme, base)
        for config in queries:
            for _, index in lo + lm:
                index.config = config
            value = (share_at_10(lo) + share_at_10(lm)) / 2
            tried += 1
            if value > best[0]:
                best = (value, config)
    return best[1], best[0], tried


def describe(c: TurnRecallConfig) -> str:
    """The values of the settings tuned here."""
    return ", ".join(f"{k}={getattr(c, k)}" for k in (*INDEX_GRID, *QUERY_GRID))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("locomo", type=Path, help="locomo10.json")
    parser.add_argument("longmemeval", type=Path, help="longmemeval_oracle.json")
    parser.add_argument(
        "--embedder",
        choices=("none", "local"),
        default="none",
        help="local: also tune and report the local MiniLM's part (sentence vectors and "
        "late interaction over word pieces) on top of each half's lexical choice",
    )
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    locomo = locomo_samples(args.locomo)
    lme = longmemeval_samples(args.longmemeval)
    splits = {"A + even": (locomo[:5], lme[0]), "B + odd": (locomo[5:], lme[1])}
    chosen: dict[str, TurnRecallConfig] = {}
    for name, (lo, lm) in splits.items():
        config, value, tried = tune(lo, lm)
        chosen[name] = config
        print(f"chosen on {name} ({value:.3f} there, {tried} variants): {describe(config)}")
    same = "is" if chosen["A + even"] == SHIPPED else "is NOT"
    print(f"the shipped default {same} the variant chosen on A + even")
    rows = {
        "plain BM25 (every turn)": PLAIN,
        "previous defaults*": PREVIOUS,
        "shipped (chosen on A + even)": SHIPPED,
        "chosen on A + even": chosen["A + even"],
        "chosen on B + odd": chosen["B + odd"],
    }
    print("\nLoCoMo evidence recall@10 (the share of evidence turns in the top 10)")
    print("| ranking | A (0-4) | B (5-9) | all ten |")
    print("|---|---|---|---|")
    for name, config in rows.items():
        a = share_at_10(indexed(locomo[:5], config))
        b = share_at_10(indexed(locomo[5:], config))
        both = share_at_10(indexed(locomo, config))
        print(f"| {name} | {a:.3f} | {b:.3f} | {both:.3f} |")
    metrics = ["turn all@5", "turn all@10", "turn any@5", "turn share@10", "session all@5"]
    print("\nLongMemEval oracle, per half")
    print("| ranking | half | questions | " + " | ".join(metrics) + " |")
    print("|---|---|---|" + "---|" * len(metrics))
    rows = {"plain BM25 (user turns)": PLAIN} | rows
    for name, config in rows.items():
        for half, cases in zip(("even", "odd"), lme, strict=True):
            r = longmemeval_metrics(cases, config, user_only=name.endswith("(user turns)"))
            cells = " | ".join(f"{r[m]:.3f}" for m in metrics)
            print(f"| {name} | {half} | {int(r['n'])} | {cells} |")
    print("\n*chosen on all ten LoCoMo conversations: not held out on either half.")
    if args.embedder == "local":
        meaning_tables(locomo, lme, chosen)
    print(f"\n{time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return 0


def meaning_tables(
    locomo: list[Case], lme: tuple[list[Case], list[Case]], chosen: dict[str, TurnRecallConfig]
) -> None:
    """The embedder's part: its settings chosen on each half on top of that half's lexical
    choice, and every ranking's figures on both halves."""
    meaning = Meaning()
    meaning.fill(locomo + lme[0] + lme[1])
    splits = {"A + even": (locomo[:5], lme[0]), "B + odd": (locomo[5:], lme[1])}
    picked: dict[str, TurnRecallConfig] = {}
    for name, (lo, lm) in splits.items():
        config, value, tried = tune_meaning(chosen[name], lo, lm, meaning)
        picked[name] = config
        values = ", ".join(f"{k}={getattr(config, k)}" for k in MEANING_GRID)
        print(f"\nwith MiniLM, chosen on {name} ({value:.3f} there, {tried} variants): {values}")
    same = "is" if picked["A + even"] == SHIPPED_MEANING else "is NOT"
    print(f"the shipped default with an embedder {same} the variant chosen on A + even")
    rows = {
        "lexical (shipped)": (SHIPPED, None),
        "+ MiniLM sentence vectors (no late interaction)": (
            replace(SHIPPED_MEANING, late_weight=0.0),
            meaning,
        ),
        "+ late interaction (shipped: memwise with the local embedder)": (SHIPPED_MEANING, meaning),
        "chosen on A + even": (picked["A + even"], meaning),
        "chosen on B + odd": (picked["B + odd"], meaning),
    }
    print("\nLoCoMo evidence recall@10 with the local embedder")
    print("| ranking | A (0-4) | B (5-9) | all ten |")
    print("|---|---|---|---|")
    for name, (config, m) in rows.items():
        a = share_at_10(indexed(locomo[:5], config, m), m)
        b = share_at_10(indexed(locomo[5:], config, m), m)
        both = share_at_10(indexed(locomo, config, m), m)
        print(f"| {name} | {a:.3f} | {b:.3f} | {both:.3f} |")
    metrics = ["turn all@5", "turn all@10", "turn any@5", "turn share@10", "session all@5"]
    print("\nLongMemEval oracle with the local embedder, per half")
    print("| ranking | half | questions | " + " | ".join(metrics) + " |")
    print("|---|---|---|" + "---|" * len(metrics))
    for name, (config, m) in rows.items():
        for half, cases in zip(("even", "odd"), lme, strict=True):
            r = longmemeval_metrics(cases, config, meaning=m)
            cells = " | ".join(f"{r[k]:.3f}" for k in metrics)
            print(f"| {name} | {half} | {int(r['n'])} | {cells} |")


if __name__ == "__main__":
    raise SystemExit(main())
