"""Knowledge search p50/p95 at 10k and 100k chunks, lexical and hybrid, on both backends;
and the local embedder's throughput.

    python bench/knowledge_bench.py [--sizes 10000,100000] [--embedder local|none]

Chunks are bulk-inserted (with their vectors when an embedder is used); search then runs
through the library exactly as a turn would. Hybrid needs ``memwise[local]`` installed.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import analyze, database, percentiles, queries, sentence, table, timed
from memwise import Memwise
from memwise._ids import new_id
from memwise._retrieval import embedders
from memwise._storage.schema import knowledge_chunks


def make_embedder(name: str):  # type: ignore[no-untyped-def]
    if name == "none":
        return None
    return embedders.MiniLMEmbedder()


def run(backend: str, sizes: list[int], embedder, tmp: Path) -> tuple[list[list[str]], float]:  # type: ignore[no-untyped-def]
    rng = random.Random(9)
    rows: list[list[str]] = []
    embed_rate = 0.0
    with database(backend, tmp) as url:
        mw = Memwise.open(url, embedder=embedder)
        ws, _ = mw.tenancy.create_workspace("Bench")
        loaded = 0
        for size in sorted(sizes):
            while loaded < size:
                n = min(2000, size - loaded)
                texts = [" ".join(sentence(rng) for _ in range(4)) for _ in range(n)]
                vectors = None
                if embedder is not None:
                    t0 = time.perf_counter()
                    vectors = embedder.embed(texts)
                    embed_rate = n / (time.perf_counter() - t0)
                with mw.rt.db.write() as conn:
                    conn.execute(
                        knowledge_chunks.insert(),
                        [
                            {
                                "id": new_id("chk"),
                                "workspace_id": ws.id,
                                "part": "reference",
                                "owner_id": new_id("doc"),
                                "position": 0,
                                "title": t[:40],
                                "text": t,
                                "source_url": None,
                                "version": "1",
                                "current": True,
                                "embedder": embedder.id if embedder else None,
                                "embedding": embedders.to_bytes(vectors[i])
                                if vectors is not None
                                else None,
                            }
                            for i, t in enumerate(texts)
                        ],
                    )
                loaded += n
            if backend == "postgresql":
                analyze(mw.rt.db.engine, "knowledge_chunks")
                mw.rt.db.backend.forget_statistics()
            variants = [("lexical", "specific", True), ("lexical", "common", True)]
            # the same questions ranked over every matching chunk, as before
            variants += [("lexical", "specific", False), ("lexical", "common", False)]
            if embedder:
                variants.append(("hybrid", "specific", True))
            for recipe, kind, rarest in variants:
                backend_impl = mw.rt.db.backend
                if hasattr(backend_impl, "rarest_first"):
                    backend_impl.rarest_first = rarest
                qs = queries(random.Random(11), kind, 120)
                mw.knowledge.search(ws.id, qs[0], recipe=recipe)  # warm (loads vectors once)
                it = iter(qs[20:])
                p50, p95 = percentiles(
                    timed(
                        lambda it=it, r=recipe: mw.knowledge.search(ws.id, next(it), recipe=r), 100
                    )
                )
                how = "" if rarest else ", every word ranked (before)"
                rows.append(
                    [backend, f"{size:,}", f"{recipe}, {kind}{how}", f"{p50:.2f}", f"{p95:.2f}"]
                )
            if hasattr(mw.rt.db.backend, "rarest_first"):
                mw.rt.db.backend.rarest_first = True
        mw.close()
    return rows, embed_rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--backends", default="sqlite,postgresql")
    ap.add_argument(
        "--embedder", default="local", choices=["local", "none"]
    )  # local: memwise[local]
    args = ap.parse_args()
    embedder = make_embedder(args.embedder)
    rows: list[list[str]] = []
    rates = []
    with tempfile.TemporaryDirectory() as tmp:
        for backend in args.backends.split(","):
            found, rate = run(backend, [int(s) for s in args.sizes.split(",")], embedder, Path(tmp))
            rows += found
            rates.append(rate)
    table("Knowledge search", ["backend", "chunks", "recipe", "p50 ms", "p95 ms"], rows)
    if embedder is not None:
        table(
            "Local embedder",
            ["embedder", "texts/s (batches of 2,000, ~60 words each)"],
            [[embedder.id, f"{max(rates):.0f}"]],
        )


if __name__ == "__main__":
    main()
