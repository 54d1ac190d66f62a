"""Which of record recall's ranking features earn their keep, and their weights learned.

    python bench/recall_ablation.py --fit tools/datasets/recall_business_blind_4.json \
        --report tools/datasets/recall_business_blind_5.json [--rounds 2]

1. **Fit**, on the fit sets only: coordinate ascent over the ranking's weights (each in
   turn over a small grid, the others held; ``--rounds`` passes), from the shipped
   defaults; the objective is the mean of r@1 and r@5. A feature whose best weight is its
   "off" value is a candidate to retire.
2. **Report**, one run on the report set (never looked at before): plain BM25, plain
   MiniLM cosine, memwise as shipped, memwise with the learned weights, and the shipped
   ranking with each feature turned off alone — paired differences with 95% bootstrap
   intervals, the same questions for every reading.

Every reading uses the packaged int8 MiniLM (sentence vectors and word pieces), as
installed. Data sets are read as bench/recall_default.py reads them.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from _common import console, table
from memwise._retrieval.embedders import MiniLMEmbedder
from memwise._retrieval.late import TokenVectors
from memwise._retrieval.turns import TurnIndex, TurnRecallConfig
from recall_default import (
    METRICS,
    Case,
    Vectors,
    business_cases,
    cached,
    longmemeval_cases,
    paired,
    ranked,
    said,
    scores,
    seeded,
)
from recall_generalise import PLAIN

DEFAULT = TurnRecallConfig()
# each weight: its "off" value first, then the values tried
GRID: dict[str, tuple[float, ...]] = {
    # at most a half: a turn's own words must outweigh the same words lent to its neighbour
    # (at 1 a turn without the words ties the one that has them; at 0.75 a neighbour nearer
    # in meaning outran the one turn that names a place, tests/contract/test_any_script.py)
    "neighbour_weight": (0.0, 0.25, 0.5),
    "speaker_boost": (0.0, 0.3, 0.6, 1.0),
    "voice_boost": (0.0, 0.3, 0.6, 1.0),
    "long_ratio": (0.0, 1.5, 2.0, 3.0),
    "period_boost": (0.0, 0.25, 0.5, 1.0),
    "newest_boost": (0.0, 0.25, 0.5, 1.0),
    "dense_weight": (0.0, 0.5, 1.0, 1.5, 2.0),
    # at most a half too: at 1 the two turns of a two-turn conversation have one vector
    # between them, and a question that meets one by meaning alone finds neither
    "dense_neighbour_weight": (0.0, 0.25, 0.5),
    "late_weight": (0.0, 0.25, 0.5, 1.0),
}


class Questions:
    """Each question embedded once (its vector and word pieces)."""

    def __init__(self, embedder: MiniLMEmbedder) -> None:
        self.embedder = embedder
        self.seen: dict[str, tuple[np.ndarray, TokenVectors]] = {}

    def __call__(self, text: str) -> tuple[np.ndarray, TokenVectors]:
        if text not in self.seen:
            vectors, (pieces,) = self.embedder.embed_tokens([text])
            self.seen[text] = (vectors[0], pieces)
        return self.seen[text]


def evaluate(
    cases: Sequence[Case], config: TurnRecallConfig, meaning: Vectors, asked: Questions
) -> dict[str, list[float]]:
    """Every question's metrics under ``config`` (one index per record)."""
    got: dict[str, list[float]] = {m: [] for m in METRICS}
    for case in cases:
        made = [meaning.seen[said(d)] for d in case.docs]
        index = TurnIndex(
            case.docs, np.stack([v for v, _ in made]), config, tokens=[p for _, p in made]
        )
        for q in case.questions:
            for m, v in scores(ranked(index, q, *asked(q.text)), q.evidence).items():
                got[m].append(v)
    return got


def each_off(
    cases: Sequence[Case], meaning: Vectors, asked: Questions
) -> dict[str, dict[str, list[float]]]:
    """The shipped ranking with each of its features turned off alone (its grid's first
    value), question by question."""
    return {
        f"shipped, {name} off": evaluate(
            cases, replace(DEFAULT, **{name: values[0]}), meaning, asked
        )
        for name, values in GRID.items()
        if getattr(DEFAULT, name) != values[0]
    }


def objective(got: dict[str, list[float]]) -> float:
    return float((np.mean(got["r@1"]) + np.mean(got["r@5"])) / 2)


def fit(
    sets: Sequence[Sequence[Case]], meaning: Vectors, asked: Questions, rounds: int
) -> TurnRecallConfig:
    """Coordinate ascent from the defaults; each fit set weighs the same."""

    def value(config: TurnRecallConfig) -> float:
        return float(np.mean([objective(evaluate(s, config, meaning, asked)) for s in sets]))

    best, score = DEFAULT, value(DEFAULT)
    console.print(f"fit: the shipped weights score {score:.4f}")
    for n in range(rounds):
        moved = False
        for name, values in GRID.items():
            for v in values:
                if v == getattr(best, name):
                    continue
                trial = replace(best, **{name: v})
                s = value(trial)
                if s > score + 1e-9:
                    best, score, moved = trial, s, True
            console.print(f"  round {n + 1}, {name}: {getattr(best, name)} → {score:.4f}")
        if not moved:
            break
    return best


def cosine(cases: Sequence[Case], meaning: Vectors, asked: Questions) -> dict[str, list[float]]:
    got: dict[str, list[float]] = {m: [] for m in METRICS}
    for case in cases:
        turns = np.stack([meaning.seen[said(d)][0] for d in case.docs])
        for q in case.questions:
            order = np.argsort(-(turns @ asked(q.text)[0]), kind="stable")
            for m, v in scores([case.docs[i].id for i in order], q.evidence).items():
                got[m].append(v)
    return got


def bm25(cases: Sequence[Case], own_side: bool = False) -> dict[str, list[float]]:
    got: dict[str, list[float]] = {m: [] for m in METRICS}
    for case in cases:
        for q in case.questions:
            docs = [d for d in case.docs if d.customer == q.by_customer] if own_side else case.docs
            index = TurnIndex(docs, config=PLAIN)
            hits = index.search(q.text, k=len(case.docs), now=q.now)
            for m, v in scores([index.docs[i].id for i, _ in hits], q.evidence).items():
                got[m].append(v)
    return got


def report(name: str, readings: dict[str, dict[str, list[float]]], base: Sequence[str]) -> None:
    n = len(next(iter(readings.values()))["r@1"])
    rows = [[r, *(f"{np.mean(g[m]):.3f}" for m in METRICS)] for r, g in readings.items()]
    table(f"{name}: {n} questions", ["reading", *METRICS], rows)
    rng = random.Random(11)
    for b in base:
        rows = [
            [r, *(paired(g[m], readings[b][m], rng) for m in METRICS)]
            for r, g in readings.items()
            if r != b
        ]
        table(f"{name}: paired difference against {b} (95% interval)", ["reading", *METRICS], rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fit", type=Path, action="append", default=[])
    ap.add_argument("--report", type=Path, help="the set never run before")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--longmemeval", type=Path, help="also report on LongMemEval_S (a path)")
    ap.add_argument("--limit", type=int, default=40, help="LongMemEval: the first N questions")
    ap.add_argument(
        "--sample",
        type=int,
        metavar="START",
        help="LongMemEval: --limit questions from START of recall_default's seeded order",
    )
    ap.add_argument(
        "--weights",
        help="learned weights given (name=value,…) instead of fitted: a fit reported later",
    )
    args = ap.parse_args(argv)
    meaning = Vectors(MiniLMEmbedder(), cached("packaged_int8"))
    asked = Questions(meaning.embedder)
    fitting = [business_cases(p) for p in args.fit]
    for path, cases in zip(args.fit, fitting, strict=True):
        meaning.fill([said(d) for c in cases for d in c.docs], path.stem)
    learned = fit(fitting, meaning, asked, args.rounds) if fitting else DEFAULT
    if args.weights:
        given = dict(pair.split("=") for pair in args.weights.split(","))
        learned = replace(DEFAULT, **{k: float(v) for k, v in given.items()})
    changed = {k: v for k, v in asdict(learned).items() if v != asdict(DEFAULT)[k]}
    console.print(f"learned (fit on {', '.join(p.stem for p in args.fit)}): {changed or 'none'}")
    if args.report:
        cases = business_cases(args.report)
        meaning.fill([said(d) for c in cases for d in c.docs], args.report.stem)
        readings: dict[str, dict[str, list[float]]] = {
            "BM25, every turn": bm25(cases),
            "MiniLM cosine": cosine(cases, meaning, asked),
            "memwise, shipped": evaluate(cases, DEFAULT, meaning, asked),
            "memwise, learned": evaluate(cases, learned, meaning, asked),
        }
        readings |= each_off(cases, meaning, asked)
        report(args.report.stem, readings, ["memwise, shipped", "MiniLM cosine"])
    if args.longmemeval:
        if args.sample is None:
            lme = longmemeval_cases(args.longmemeval, args.limit)
            title = f"LongMemEval_S, the first {args.limit} questions"
        else:
            lme = seeded(longmemeval_cases(args.longmemeval, None), args.sample, args.limit)
            title = f"LongMemEval_S, seeded questions {args.sample}-{args.sample + len(lme)}"
        meaning.fill([said(d) for c in lme for d in c.docs], "LongMemEval_S")
        on_lme = {
            "BM25, the user's turns": bm25(lme, own_side=True),
            "MiniLM cosine": cosine(lme, meaning, asked),
            "memwise, shipped": evaluate(lme, DEFAULT, meaning, asked),
            "memwise, learned": evaluate(lme, learned, meaning, asked),
        }
        on_lme |= each_off(lme, meaning, asked)
        report(title, on_lme, ["memwise, shipped", "BM25, the user's turns"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
