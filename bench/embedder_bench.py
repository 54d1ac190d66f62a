"""The local MiniLM's readings side by side in one run: the packaged int8 weights with
integer products (the default) and with float32 products, the full float32 weights on ONNX
Runtime (memwise[onnx], no torch) and on torch (memwise[local]). Throughput on ~60-word
texts, one question's latency, load time, and each reading's vectors against the full
weights' (the same texts).

python bench/embedder_bench.py [--texts 1000] [--questions 200]

A reading that cannot load here is left out with one line.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from _common import console, percentiles, sentence, table, timed
from memwise import errors
from memwise._retrieval.embedders import MiniLMEmbedder


def question_times(embedder: MiniLMEmbedder, questions: list[str]) -> list[float]:
    it = iter(questions)
    return timed(lambda: embedder.embed([next(it)]), len(questions))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--texts", type=int, default=1000)
    ap.add_argument("--questions", type=int, default=200)
    args = ap.parse_args()
    rng = random.Random(4)
    texts = [" ".join(sentence(rng) for _ in range(5)) for _ in range(args.texts)]
    questions = [sentence(rng, rng.randint(5, 12)) for _ in range(args.questions)]
    rows: list[list[str]] = []
    vectors: dict[str, np.ndarray] = {}
    readings = {
        "packaged, integer products (default)": {"weights": "packaged"},
        "packaged, float32 products": {"weights": "packaged-float"},
        "full weights, ONNX Runtime": {"runtime": "onnx", "weights": "full"},
        "full weights, torch": {"runtime": "torch", "weights": "full"},
    }
    for label, options in readings.items():
        t0 = time.perf_counter()
        try:
            embedder = MiniLMEmbedder(**options)
        except (errors.Unavailable, errors.Invalid) as exc:
            console.print(f"{label}: not measured ({exc.message})")
            continue
        load = time.perf_counter() - t0
        embedder.embed(texts[:64])  # warm up
        t0 = time.perf_counter()
        vectors[label] = embedder.embed(texts)
        rate = len(texts) / (time.perf_counter() - t0)
        p50, p95 = percentiles(question_times(embedder, questions))
        rows.append([label, f"{load:.1f}", f"{rate:,.0f}", f"{p50:.2f}", f"{p95:.2f}"])
    full = next((vectors[r] for r in readings if r.startswith("full") and r in vectors), None)
    for row in rows:
        if full is None:
            row.append("")
            continue
        cosine = (vectors[row[0]] * full).sum(axis=1)
        row.append(f"{cosine.min():.4f} / {np.median(cosine):.4f}")
    table(
        "Local MiniLM, one run",
        [
            "reading",
            "load s",
            "texts/s (~60 words)",
            "question p50 ms",
            "question p95 ms",
            "cosine to the full weights (min / median)",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
