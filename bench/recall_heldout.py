"""Record recall on a written set of customer records (by default eight businesses' records).

    python bench/recall_heldout.py [tests/data/recall_heldout_1.json] [--embedder none|local]

tests/data/recall_heldout_1.json holds eight customers' records with a business's assistant
(a bike shop, a travel agency, a telecom provider, a bakery, a home insurer, a veterinary
clinic, a furniture store, a language school): 8 sessions each, 578 turns, and 106 questions
asked by the customer ("what did I…") or by staff ("which hybrid did Dana buy?"), each with
its evidence turns and a kind — paraphrase (other words than the evidence), lexical,
multi-session, temporal (asked at a time, "last month"). It was written by someone who had
not read the ranking's code or its notes, every question before any ranking ran, and
checksummed before the first measurement. It has been tuned on since (bench/README.md,
"Record recall on businesses' records"), as have recall_remind_1 and recall_business_2;
recall_business_3 is the one held out.

Recall@10 (the share of a question's evidence turns in the top 10), overall and per kind,
for plain BM25, the lexical ranking, with the local embedder's sentence vectors, and with
its word pieces too (late interaction) — the last is memwise with ``MEMWISE_EMBEDDER=local``.
Beside it, question by question: how often the shipped ranking does better or worse than
each other one, and a bootstrap 95 % range of the mean difference.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from memwise._retrieval.late import TokenVectors
from memwise._retrieval.turns import TurnDoc, TurnIndex, TurnRecallConfig
from recall_generalise import PLAIN  # every part of the ranking off: plain BM25

DEFAULT = Path(__file__).parents[1] / "tests" / "data" / "recall_heldout_1.json"
KINDS = ("paraphrase", "lexical", "multi-session", "temporal")


@dataclass(frozen=True)
class Asked:
    text: str
    by_customer: bool
    at: datetime
    evidence: frozenset[str]
    kind: str


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def records(path: Path) -> list[tuple[list[TurnDoc], list[Asked]]]:
    out = []
    for r in json.loads(path.read_text()):
        docs = [
            TurnDoc(
                t["id"],
                s["id"],
                r["customer"] if t["role"] == "customer" else r["agent"],
                t["text"],
                t["role"] == "customer",
                at=_when(s["date"]),
            )
            for s in r["sessions"]
            for t in s["turns"]
        ]
        asked = [
            Asked(
                q["q"],
                q["asked_by"] == "customer",
                _when(q["asked_at"]),
                frozenset(q["evidence"]),
                q["kind"],
            )
            for q in r["questions"]
        ]
        out.append((docs, asked))
    return out


Meaning = list[tuple[np.ndarray, list[TokenVectors], list[tuple[np.ndarray, TokenVectors]]]]


def embedded(data: list[tuple[list[TurnDoc], list[Asked]]]) -> Meaning:
    """Per record, the local embedder's vectors and word pieces of its turns ("speaker:
    text", as ``History`` embeds them) and of each of its questions."""
    from memwise._retrieval.embedders import MiniLMEmbedder

    embedder = MiniLMEmbedder("onnx")
    out: Meaning = []
    for docs, asked in data:
        vectors, pieces = embedder.embed_tokens([f"{d.speaker}: {d.text}" for d in docs])
        questions = []
        for q in asked:
            found, (qp,) = embedder.embed_tokens([q.text])
            questions.append((found[0], qp))
        out.append((vectors, list(pieces), questions))
    return out


def shares(
    data: list[tuple[list[TurnDoc], list[Asked]]],
    config: TurnRecallConfig,
    meaning: Meaning | None = None,
) -> list[float]:
    """Each question's share of evidence turns in the top 10, in order; ranked by words
    alone, or with ``meaning`` (sentence vectors, and word pieces when the config weighs
    them)."""
    out = []
    for n, (docs, asked) in enumerate(data):
        vectors, pieces, questions = meaning[n] if meaning else (None, None, None)
        index = TurnIndex(docs, vectors, config, tokens=pieces)
        for m, q in enumerate(asked):
            qv, qp = questions[m] if questions else (None, None)
            hits = index.search(
                q.text,
                k=10,
                now=q.at,
                by_customer=q.by_customer,
                query_vector=qv,
                query_tokens=qp,
            )
            top = {index.docs[i].id for i, _ in hits}
            out.append(len(q.evidence & top) / len(q.evidence))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path, nargs="?", default=DEFAULT)
    ap.add_argument("--embedder", choices=("none", "local"), default="local")
    args = ap.parse_args(argv)
    data = records(args.data)
    meaning = embedded(data) if args.embedder == "local" else None
    rankings: dict[str, tuple[TurnRecallConfig, Meaning | None]] = {
        "plain BM25": (PLAIN, None),
        "lexical (memwise, no embedder)": (TurnRecallConfig(dense_weight=0.0), None),
    }
    if meaning is not None:
        rankings["+ sentence vectors"] = (TurnRecallConfig(late_weight=0.0), meaning)
        rankings["+ word pieces (memwise, local embedder)"] = (TurnRecallConfig(), meaning)
    scores = {name: shares(data, config, m) for name, (config, m) in rankings.items()}
    kinds = [q.kind for _, asked in data for q in asked]
    turns = sum(len(d) for d, _ in data)
    print(f"{len(data)} records, {turns} turns, {len(kinds)} questions: recall@10\n")
    named = [k for k in KINDS if k in kinds] + sorted(set(kinds) - set(KINDS))
    counts = {k: kinds.count(k) for k in named}
    head = " | ".join(f"{k} ({counts[k]})" for k in named)
    print(f"| ranking | all ({len(kinds)}) | {head} |")
    print("|---|---|" + "---|" * len(named))
    for name, values in scores.items():
        cells = [float(np.mean(values))] + [
            float(np.mean([v for v, k in zip(values, kinds, strict=True) if k == kind]))
            for kind in named
        ]
        print(f"| {name} | " + " | ".join(f"{c:.3f}" for c in cells) + " |")
    shipped = list(scores)[-1]
    print(f"\n{shipped}, question by question, against:")
    print("| ranking | better / worse | mean gain | 95 % range (bootstrap) |")
    print("|---|---|---|---|")
    rng = random.Random(7)
    best = np.array(scores[shipped])
    for name, values in scores.items():
        if name == shipped:
            continue
        gain = best - np.array(values)
        means = sorted(
            float(np.mean([gain[rng.randrange(len(gain))] for _ in gain])) for _ in range(2000)
        )
        better, worse = int((gain > 0).sum()), int((gain < 0).sum())
        low, high = means[50], means[1949]
        print(f"| {name} | {better} / {worse} | {gain.mean():+.3f} | {low:+.3f} to {high:+.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
