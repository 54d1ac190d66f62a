"""LoCoMo evidence recall@10 for each variant of the turn recall (an ablation table).

Builds memwise's TurnIndex per conversation straight from the JSON (no database) with each
TurnRecallConfig below, and prints recall@1/5/10/20 per variant and per category.

python bench/locomo_variants.py PATH/locomo10.json [--embedder local]
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))  # tools/

from tools.locomo import CATEGORIES, evidence_ids, load, session_time

from _common import console, table
from memwise._retrieval.turns import TurnDoc, TurnIndex, TurnRecallConfig

NONE = TurnRecallConfig(
    neighbour_weight=0,
    speaker_boost=0,
    voice_boost=0,
    long_ratio=0,
    period_boost=0,
    newest_boost=0,
    dense_weight=0,
    dense_neighbour_weight=0,
    b=0.75,
    stemmer="light",
)
BEST = TurnRecallConfig()
STEPS = [
    ("+ neighbours ±1 at 0.5", {"neighbour_weight": 0.5, "window": 1}),
    ("+ speaker boost 0.6 (name leaves the query)", {"speaker_boost": 0.6}),
    ("+ neighbours ±2", {"window": 2}),
    ("+ Snowball stemmer", {"stemmer": "snowball"}),
    ("+ the customer's words first (long turns, voice)", {"long_ratio": 2.0, "voice_boost": 0.6}),
    ("+ periods, the newest (memwise, lexical)", {"period_boost": 0.5, "newest_boost": 0.5}),
]
LEXICAL = {"BM25 over turns (light stemmer, k1 1.2, b 0.75)": NONE}
_config = NONE
for _name, _change in STEPS:
    _config = replace(_config, **_change)
    LEXICAL[_name] = _config
assert _config == replace(BEST, dense_weight=0, dense_neighbour_weight=0)
_SENTENCE = replace(BEST, late_weight=0.0)  # sentence vectors, no late interaction
DENSE = {
    "MiniLM only": replace(NONE, dense_weight=1.0, neighbour_weight=0),
    f"memwise + MiniLM {BEST.dense_weight}": replace(_SENTENCE, dense_neighbour_weight=0),
    f"memwise + MiniLM {BEST.dense_weight}, vectors smoothed ±2": _SENTENCE,
    "+ late interaction over word pieces (memwise default)": BEST,
}


def samples(data: list[dict]) -> list[tuple[list[TurnDoc], list[tuple[int, set[int]]]]]:
    out = []
    for sample in data:
        conv = sample["conversation"]
        docs, position = [], {}
        n = 1
        while f"session_{n}" in conv:
            at = session_time(conv.get(f"session_{n}_date_time", ""))
            for t in conv[f"session_{n}"]:
                text = t.get("text", "") + (
                    f" [image: {t['blip_caption']}]" if t.get("blip_caption") else ""
                )
                position[t["dia_id"]] = len(docs)
                first = t["speaker"] == conv["speaker_a"]  # the customer, as memwise imports it
                docs.append(TurnDoc(t["dia_id"], f"s{n:03d}", t["speaker"], text, first, at=at))
            n += 1
        questions = []
        for qa in sample["qa"]:
            if qa.get("category") in CATEGORIES:
                wanted = {
                    position[e] for e in evidence_ids(qa.get("evidence", [])) if e in position
                }
                if wanted:
                    questions.append((qa, wanted))
        out.append((docs, questions))
    return out


def measure(prepared, config, vectors=None, qvectors=None, pieces=None, qpieces=None):
    ks = (1, 5, 10, 20)
    scores = defaultdict(list)
    per_cat = defaultdict(list)
    for n, (docs, questions) in enumerate(prepared):
        index = TurnIndex(
            docs, vectors[n] if vectors else None, config, pieces[n] if pieces else None
        )
        asked = max(d.at for d in docs if d.at) + timedelta(days=1)
        for m, (qa, wanted) in enumerate(questions):
            qv = qvectors[n][m] if qvectors else None
            qp = qpieces[n][m] if qpieces else None
            if config.dense_weight and not config.neighbour_weight and qv is not None:
                ranked = list(np.argsort(-(index.vectors @ qv))[:20])
            else:
                found = index.search(
                    qa["question"], k=20, query_vector=qv, now=asked, query_tokens=qp
                )
                ranked = [i for i, _ in found]
            for k in ks:
                share = len(wanted & set(ranked[:k])) / len(wanted)
                scores[k].append(share)
                if k == 10:
                    per_cat[CATEGORIES[qa["category"]]].append(share)
    return [sum(v) / len(v) for v in scores.values()], {
        c: sum(v) / len(v) for c, v in per_cat.items()
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("path", type=Path)
    ap.add_argument("--embedder", default="none", choices=["none", "local"])
    args = ap.parse_args()
    prepared = samples(load(args.path))
    variants = dict(LEXICAL)
    vectors = qvectors = pieces = qpieces = None
    if args.embedder == "local":
        from memwise._retrieval.embedders import MiniLMEmbedder

        embedder = MiniLMEmbedder("onnx")
        console.print("embedding turns and questions (sentence and word-piece vectors) …")
        turns = [
            embedder.embed_tokens([f"{d.speaker}: {d.text}" for d in docs]) for docs, _ in prepared
        ]
        vectors, pieces = [v for v, _ in turns], [p for _, p in turns]
        asked = [[embedder.embed_tokens([qa["question"]]) for qa, _ in qs] for _, qs in prepared]
        qvectors = [[v[0] for v, _ in conv] for conv in asked]
        qpieces = [[p[0] for _, p in conv] for conv in asked]
        variants.update(DENSE)
    rows = []
    for name, config in variants.items():
        overall, cats = measure(prepared, config, vectors, qvectors, pieces, qpieces)
        rows.append(
            [name, *(f"{v:.3f}" for v in overall), *(f"{cats[c]:.3f}" for c in CATEGORIES.values())]
        )
        console.print(f"{name}: recall@10 {overall[2]:.3f}")
    table(
        "LoCoMo evidence recall, categories 1–4 (1,536 questions with resolvable evidence)",
        ["variant", "@1", "@5", "@10", "@20", *(f"{c} @10" for c in CATEGORIES.values())],
        rows,
    )


if __name__ == "__main__":
    main()
