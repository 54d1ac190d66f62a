"""The local MiniLM on its two runtimes, side by side in one run: ONNX Runtime
(memwise[onnx], no torch) and sentence-transformers on torch (memwise[local]). Throughput on
batches of ~60-word texts, one question's latency, load time, and how far apart the vectors
are (the same texts on both).

python bench/embedder_bench.py [--texts 1000] [--questions 200]

A runtime that is not installed is left out with one line; the comparison needs both.
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
    rates: dict[str, float] = {}
    for runtime in ("onnx", "torch"):
        t0 = time.perf_counter()
        try:
            embedder = MiniLMEmbedder(runtime)
        except errors.Unavailable as exc:
            console.print(f"{runtime}: not measured ({exc.message})")
            continue
        load = time.perf_counter() - t0
        embedder.embed(texts[:64])  # warm up
        t0 = time.perf_counter()
        vectors[runtime] = embedder.embed(texts)
        rates[runtime] = len(texts) / (time.perf_counter() - t0)
        p50, p95 = percentiles(question_times(embedder, questions))
        rows.append([runtime, f"{load:.1f}", f"{rates[runtime]:,.0f}", f"{p50:.2f}", f"{p95:.2f}"])
    table(
        "Local MiniLM: ONNX Runtime and torch, one run",
        ["runtime", "load s", "texts/s (~60 words)", "question p50 ms", "question p95 ms"],
        rows,
    )
    if len(vectors) == 2:
        cosine = (vectors["onnx"] * vectors["torch"]).sum(axis=1)
        console.print(
            f"ONNX ÷ torch throughput: {rates['onnx'] / rates['torch']:.2f}×; "
            f"cosine between the runtimes' vectors: min {cosine.min():.6f}, "
            f"max |difference| {np.abs(vectors['onnx'] - vectors['torch']).max():.2e}"
        )


if __name__ == "__main__":
    main()
