"""Record recall that generalises: weights chosen on one half of LoCoMo, reported on the other.

    python bench/recall_generalise.py ../shared/bench/locomo/locomo10.json \
        --longmemeval ../shared/bench/longmemeval/longmemeval_oracle.json

LoCoMo's ten conversations are split into halves A (0–4) and B (5–9). Every variant of the
turn ranking (``memwise.retrieval.turns.TurnRecallConfig``) is scored on one half, the best
is chosen there, and its figure on the *other* half is the one to quote. Beside it, on the
same turns and the same metric: plain BM25 over every turn, and the shipped defaults (whose
weights were chosen on all ten conversations, so their test-half figures are not held out).
Metric: the share of a question's evidence turns in the top 10, averaged (the LoCoMo paper's
turn recall), categories 1–4.

LongMemEval's oracle file is the second public check, never tuned on: turn level (gold = the
user turns marked ``has_answer``; recall_all@5/@10, recall_any@5, and the share at 10) and
session level (sessions ranked by their best turn; recall_all@5), over the 470 questions that
are not abstentions (turn level: those with a user evidence turn). Plain BM25 over the
user's turns only is the paper's key setting.

The index is pure (no database): the same ``TurnIndex`` ``History.recall`` builds.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Iterable
from dataclasses import asdict, replace
from pathlib import Path

from memwise.benchmarks.locomo import CATEGORIES, evidence_ids
from memwise.retrieval.turns import TurnDoc, TurnIndex, TurnRecallConfig

PLAIN = TurnRecallConfig(
    neighbour_weight=0.0,
    window=0,
    conversation_weight=0.0,
    speaker_boost=0.0,
    dense_weight=0.0,
    b=0.75,
)
INDEX_GRID = {"neighbour_weight": (0.0, 0.25, 0.5), "window": (1, 2), "b": (0.5, 0.75)}
QUERY_GRID = {
    "conversation_weight": (0.0, 0.35, 0.7),
    "speaker_boost": (0.0, 0.6),
    "session_cap": (0, 2, 3),
    "other_weight": (1.0, 0.8),
}


def locomo_samples(path: Path) -> list[tuple[list[TurnDoc], list[tuple[str, set[str]]]]]:
    """Per conversation: its turns (one memwise conversation per session) and its questions
    with their evidence turn ids."""
    out = []
    for sample in json.loads(path.read_text()):
        conv = sample["conversation"]
        first = conv["speaker_a"]
        docs: list[TurnDoc] = []
        n = 1
        while f"session_{n}" in conv:
            for t in conv[f"session_{n}"]:
                if not (t.get("text") or t.get("blip_caption")):
                    continue
                text = t.get("text", "")
                if t.get("blip_caption"):
                    text += f" [image: {t['blip_caption']}]"
                docs.append(
                    TurnDoc(t["dia_id"], f"s{n}", t["speaker"], text, t["speaker"] == first)
                )
            n += 1
        ids = {d.id for d in docs}
        questions = []
        for qa in sample["qa"]:
            if qa.get("category") not in CATEGORIES:
                continue
            wanted = {e for e in evidence_ids(qa.get("evidence", [])) if e in ids}
            if wanted:
                questions.append((str(qa["question"]), wanted))
        out.append((docs, questions))
    return out


def score(
    samples: Iterable[tuple[list[TurnDoc], list[tuple[str, set[str]]]]], config: TurnRecallConfig
) -> float:
    shares = []
    for docs, questions in samples:
        index = TurnIndex(docs, config=config)
        for question, wanted in questions:
            top = {docs[i].id for i, _ in index.search(question, k=10)}
            shares.append(len(wanted & top) / len(wanted))
    return sum(shares) / len(shares)


def tune(
    samples: list[tuple[list[TurnDoc], list[tuple[str, set[str]]]]],
) -> tuple[TurnRecallConfig, float, int]:
    """The best variant on ``samples`` (dense off: no embedder here). Indexes are built once
    per index-time setting; query-time settings reuse them."""
    best: tuple[float, TurnRecallConfig] = (-1.0, TurnRecallConfig())
    tried = 0
    for index_values in itertools.product(*INDEX_GRID.values()):
        base = replace(
            TurnRecallConfig(dense_weight=0.0), **dict(zip(INDEX_GRID, index_values, strict=True))
        )
        built = [(docs, questions, TurnIndex(docs, config=base)) for docs, questions in samples]
        for query_values in itertools.product(*QUERY_GRID.values()):
            config = replace(base, **dict(zip(QUERY_GRID, query_values, strict=True)))
            shares = []
            for docs, questions, index in built:
                index.config = config
                for question, wanted in questions:
                    top = {docs[i].id for i, _ in index.search(question, k=10)}
                    shares.append(len(wanted & top) / len(wanted))
            tried += 1
            value = sum(shares) / len(shares)
            if value > best[0]:
                best = (value, config)
    return best[1], best[0], tried


def longmemeval(path: Path, configs: dict[str, TurnRecallConfig]) -> dict[str, dict[str, float]]:
    data = json.loads(path.read_text())
    results: dict[str, dict[str, list[float]]] = {name: {} for name in configs}
    for q in data:
        if q["question_id"].endswith("_abs"):
            continue
        docs: list[TurnDoc] = []
        gold_turns: set[str] = set()
        for sid, session in zip(q["haystack_session_ids"], q["haystack_sessions"], strict=True):
            for n, t in enumerate(session):
                turn_id = f"{sid}:{n}"
                user = t["role"] == "user"
                docs.append(TurnDoc(turn_id, sid, t["role"], t["content"], user))
                if user and t.get("has_answer"):
                    gold_turns.add(turn_id)
        gold_sessions = set(q["answer_session_ids"])
        for name, config in configs.items():
            user_only = name.endswith("(user turns)")
            keys = [d for d in docs if d.customer] if user_only else docs
            index = TurnIndex(keys, config=config)
            ranked = [keys[i].id for i, _ in index.search(str(q["question"]), k=len(keys))]
            sessions: list[str] = []
            for turn_id in ranked:
                sid = turn_id.rsplit(":", 1)[0]
                if sid not in sessions:
                    sessions.append(sid)
            r = results[name]
            r.setdefault("session all@5", []).append(float(gold_sessions <= set(sessions[:5])))
            if gold_turns:
                top5, top10 = set(ranked[:5]), set(ranked[:10])
                r.setdefault("turn all@5", []).append(float(gold_turns <= top5))
                r.setdefault("turn all@10", []).append(float(gold_turns <= top10))
                r.setdefault("turn any@5", []).append(float(bool(gold_turns & top5)))
                r.setdefault("turn frac@10", []).append(len(gold_turns & top10) / len(gold_turns))
    return {
        name: {metric: sum(v) / len(v) for metric, v in r.items()} | {"n": len(r["turn all@5"])}
        for name, r in results.items()
    }


def describe(c: TurnRecallConfig) -> str:
    d, base = asdict(c), asdict(TurnRecallConfig())
    changed = {k: v for k, v in d.items() if v != base[k] and k != "dense_weight"}
    return ", ".join(f"{k}={v}" for k, v in changed.items()) or "the defaults"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("locomo", type=Path, help="locomo10.json")
    parser.add_argument("--longmemeval", type=Path, help="longmemeval_oracle.json")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    samples = locomo_samples(args.locomo)
    halves = {"A (0-4)": samples[:5], "B (5-9)": samples[5:]}
    defaults = TurnRecallConfig(dense_weight=0.0)
    print("| tuned on | tested on | plain BM25 | shipped defaults* | tuned variant | variants |")
    print("|---|---|---|---|---|---|")
    chosen: dict[str, TurnRecallConfig] = {}
    for (train_name, train), (test_name, test) in itertools.permutations(halves.items(), 2):
        config, train_value, tried = tune(train)
        chosen[train_name] = config
        print(
            f"| {train_name} ({train_value:.3f}) | {test_name} | {score(test, PLAIN):.3f} | "
            f"{score(test, defaults):.3f} | **{score(test, config):.3f}** | {tried} |"
        )
    print(
        f"| — | all ten | {score(samples, PLAIN):.3f} | {score(samples, defaults):.3f} | "
        f"A's: {score(samples, chosen['A (0-4)']):.3f}, B's: "
        f"{score(samples, chosen['B (5-9)']):.3f} | |"
    )
    print("\n*the shipped defaults were chosen on all ten conversations: not held out.")
    for name, c in chosen.items():
        print(f"chosen on {name}: {describe(c)}")
    if args.longmemeval:
        configs = {
            "plain BM25 (user turns)": PLAIN,
            "plain BM25 (all turns)": PLAIN,
            "shipped defaults": defaults,
            "tuned on LoCoMo A": chosen["A (0-4)"],
            "tuned on LoCoMo B": chosen["B (5-9)"],
        }
        found = longmemeval(args.longmemeval, configs)
        metrics = ["turn all@5", "turn all@10", "turn any@5", "turn frac@10", "session all@5"]
        print("\nLongMemEval oracle (never tuned on)")
        print("| ranking | questions | " + " | ".join(metrics) + " |")
        print("|---|---|" + "---|" * len(metrics))
        for name, r in found.items():
            cells = " | ".join(f"{r[m]:.3f}" for m in metrics)
            print(f"| {name} | {int(r['n'])} | {cells} |")
    print(f"\n{time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
