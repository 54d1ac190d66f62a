"""Knowledge search as installed, against the plain baselines, on real public documents.

    python bench/knowledge_default.py tools/datasets/knowledge_blind_1.json
    python bench/knowledge_default.py --fit tools/datasets/knowledge_blind_1.json

The knowledge base is the long descriptions (READMEs) of the 40 Python packages listed in
tools/datasets/knowledge_docs_1.json, read from the packages installed here (memwise's own
environment holds them all; a version other than the listed one is reported, not hidden) —
never copied into this repository. Each document goes through ``Knowledge.add_document``
exactly as an operator's would (chunked, indexed, embedded). The questions were written by a
separate hand that never saw the search; each names its document and a verbatim quote that
answers it.

Readings over the same chunks:

- **BM25**: plain Okapi BM25 (k1 1.2, b 0.75) over each chunk's title and text, lowercased
  word tokens, no stemming;
- **MiniLM cosine**: the packaged embedder's vectors of the chunks (as stored), nothing else;
- **memwise, lexical**: ``recipe="lexical"`` (what ``MEMWISE_EMBEDDER=none`` gives);
- **memwise, default**: ``recipe="hybrid"`` with the packaged embedder (the default install);
- **memwise, hybrid, plain RRF**: the same with the fusion before it was fit (equal weights,
  k 60), when the shipped fusion differs.

``--fit``: the fusion's settings (RRF's k, the weight of the meaning ranking against the
words') chosen on the given set by grid, the objective the mean of passage r@1 and r@5;
every variant's figures are printed, nothing is written. Fit on one set, report on another.

Metrics per question: passage r@1 / r@5 (a chunk holding the quote's start or end is in the
first k), document r@1 / r@5, and MRR of the passage over the first 10; paired differences
with a 95% bootstrap interval (2,000 resamples), on every question and per kind.
"""

from __future__ import annotations

import argparse
import importlib.metadata as md
import json
import math
import random
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).parent))

from _common import console, table
from memwise import Memwise
from memwise._retrieval import embedders, fusion
from memwise._safety import pii
from memwise._services.knowledge import knowledge
from memwise._storage.schema import knowledge_chunks

DOCS = Path(__file__).parents[1] / "tools" / "datasets" / "knowledge_docs_1.json"
METRICS = ("passage r@1", "passage r@5", "doc r@1", "doc r@5", "passage MRR@10")
_WORD = re.compile(r"\w+")


def squash(text: str) -> str:
    return " ".join(text.split())


class Chunk:
    def __init__(self, seq: int, doc: str, title: str, text: str, vector: np.ndarray) -> None:
        self.seq, self.doc, self.title, self.text, self.vector = seq, doc, title, text, vector


def bm25_ranker(chunks: list[Chunk]) -> Callable[[str], list[int]]:
    docs = [Counter(_WORD.findall(f"{c.title} {c.text}".lower())) for c in chunks]
    lengths = [sum(d.values()) for d in docs]
    mean = sum(lengths) / len(lengths)
    df: Counter[str] = Counter()
    for d in docs:
        df.update(d.keys())
    n = len(docs)

    def rank(q: str) -> list[int]:
        terms = _WORD.findall(q.lower())
        scores = []
        for d, length in zip(docs, lengths, strict=True):
            s = 0.0
            for t in terms:
                f = d.get(t, 0)
                if f:
                    idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                    s += idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * length / mean))
            scores.append(s)
        order = sorted(range(n), key=lambda i: -scores[i])
        return [chunks[i].seq for i in order[:10]]

    return rank


Got = dict[str, dict[str, list[float]]]
GRID_K = (10, 20, 30, 60)
GRID_MEANING = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)


def measure(
    readings: dict[str, Callable[[str], list[int]]],
    questions: list[dict[str, str]],
    chunks: list[Chunk],
) -> Got:
    by_seq = {c.seq: c for c in chunks}
    got: Got = {r: {m: [] for m in METRICS} for r in readings}
    for q in questions:
        quote = squash(q["quote"])
        head, tail = quote[:40], quote[-40:]
        wanted = {
            c.seq
            for c in chunks
            if c.doc == q["doc"] and (head in squash(c.text) or tail in squash(c.text))
        }
        if not wanted:
            console.print(f"no chunk holds a quote of {q['doc']}: counted as missed")
        for name, rank in readings.items():
            top = rank(q["q"])
            docs = [by_seq[s].doc for s in top]
            first = next((i for i, s in enumerate(top) if s in wanted), None)
            got[name]["passage r@1"].append(float(first is not None and first < 1))
            got[name]["passage r@5"].append(float(first is not None and first < 5))
            got[name]["doc r@1"].append(float(q["doc"] in docs[:1]))
            got[name]["doc r@5"].append(float(q["doc"] in docs[:5]))
            got[name]["passage MRR@10"].append(0.0 if first is None else 1 / (first + 1))
    return got


def fused_with(
    setting: fusion.Fusion, rank: Callable[[str], list[int]]
) -> Callable[[str], list[int]]:
    """``rank`` with the knowledge search's fusion set to ``setting`` for the call."""

    def ranked(q: str) -> list[int]:
        shipped = knowledge.FUSION
        knowledge.FUSION = setting
        try:
            return rank(q)
        finally:
            knowledge.FUSION = shipped

    return ranked


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("questions", type=Path)
    ap.add_argument("--fit", action="store_true", help="choose the fusion's settings on this set")
    args = ap.parse_args(argv)
    listed = json.loads(DOCS.read_text())
    questions = json.loads(args.questions.read_text())["questions"]
    embedder = embedders.MiniLMEmbedder()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/kb.db"
        mw = Memwise.open(url, embedder=embedder)
        ws, _ = mw.tenancy.create_workspace("Knowledge")
        ids: dict[str, str] = {}
        refused: dict[str, list[str]] = {}
        # The teaching step refuses a document holding anything that looks like a contact
        # detail or a secret; how many of these real documents it would refuse is printed,
        # and the check is lifted here so that search is measured on all of them.
        check = pii.check
        pii.check = lambda *a, **k: None  # type: ignore[assignment]
        for d in listed:
            dist = md.distribution(d["id"])
            if dist.version != d["version"]:
                console.print(f"{d['id']}: version {dist.version} here, {d['version']} listed")
            body = dist.metadata.get_payload() or ""
            found = sorted({f.kind for f in pii.find(None, None, f"{d['id']}\n{body}")})
            if found:
                refused[d["id"]] = found
            doc = mw.knowledge.add_document(
                ws.id, kind="manual", title=f"{d['id']} documentation", body=body, version="1"
            )
            ids[doc.id] = d["id"]
        with mw.rt.db.read() as conn:
            rows = conn.execute(
                sa.select(knowledge_chunks).where(knowledge_chunks.c.current.is_(True))
            ).all()
        chunks = [
            Chunk(r.seq, ids[r.owner_id], r.title, r.text, embedders.from_bytes(r.embedding))
            for r in rows
        ]
        pii.check = check  # type: ignore[assignment]
        console.print(
            f"the teaching step would refuse {len(refused)} of {len(listed)} documents: "
            + ", ".join(f"{k} ({'/'.join(v)})" for k, v in sorted(refused.items()))
        )
        console.print(f"{len(listed)} documents, {len(chunks)} chunks, {len(questions)} questions")
        matrix = np.stack([c.vector for c in chunks])
        bm25 = bm25_ranker(chunks)

        def cosine(q: str) -> list[int]:
            scores = matrix @ embedder.embed([q])[0]
            return [chunks[i].seq for i in np.argsort(-scores)[:10]]

        def memwise(recipe: str) -> Callable[[str], list[int]]:
            def rank(q: str) -> list[int]:
                hits = mw.knowledge.search(ws.id, q, recipe=recipe, limit=10)  # type: ignore[arg-type]
                with mw.rt.db.read() as conn:
                    seqs = dict(
                        conn.execute(
                            sa.select(knowledge_chunks.c.id, knowledge_chunks.c.seq).where(
                                knowledge_chunks.c.id.in_([h.chunk_id for h in hits])
                            )
                        ).all()
                    )
                return [seqs[h.chunk_id] for h in hits]

            return rank

        if args.fit:
            variants = {
                f"k {k}, meaning ×{w}": fused_with(fusion.Fusion(k, (1.0, w)), memwise("hybrid"))
                for k in GRID_K
                for w in GRID_MEANING
            }
            fit = measure(variants, questions, chunks)
            mw.close()
            score = {
                v: float(np.mean(g["passage r@1"]) + np.mean(g["passage r@5"])) / 2
                for v, g in fit.items()
            }
            rows_out = [
                [v, *(f"{np.mean(fit[v][m]):.3f}" for m in METRICS), f"{score[v]:.4f}"]
                for v in sorted(fit, key=lambda v: -score[v])
            ]
            table(
                f"Fusion variants: {len(questions)} questions",
                ["variant", *METRICS, "objective"],
                rows_out,
            )
            console.print(f"best: {max(score, key=score.__getitem__)}")
            return 0
        readings = {
            "BM25": bm25,
            "MiniLM cosine (int8)": cosine,
            "memwise, lexical": memwise("lexical"),
            "memwise, default (hybrid)": memwise("hybrid"),
        }
        if fusion.Fusion() != knowledge.FUSION:
            readings["memwise, hybrid, plain RRF"] = fused_with(fusion.Fusion(), memwise("hybrid"))
        got = measure(readings, questions, chunks)
        kinds = [q.get("kind", "?") for q in questions]
        mw.close()
    rows_out = [[r, *(f"{np.mean(got[r][m]):.3f}" for m in METRICS)] for r in readings]
    table(f"Knowledge search: {len(questions)} questions", ["reading", *METRICS], rows_out)
    for kind in sorted(set(kinds)):
        keep = [i for i, k in enumerate(kinds) if k == kind]
        rows_out = [
            [r, *(f"{np.mean([got[r][m][i] for i in keep]):.3f}" for m in METRICS)]
            for r in readings
        ]
        table(f"{kind}: {len(keep)} questions", ["reading", *METRICS], rows_out)
    rng = random.Random(5)
    for base in ("BM25", "MiniLM cosine (int8)", "memwise, lexical"):
        rows_out = []
        for r in readings:
            if r == base:
                continue
            cells = []
            for m in METRICS:
                diff = np.array(got[r][m]) - np.array(got[base][m])
                n = len(diff)
                means = sorted(
                    float(diff[[rng.randrange(n) for _ in range(n)]].mean()) for _ in range(2000)
                )
                cells.append(f"{diff.mean():+.3f} [{means[50]:+.3f}, {means[1949]:+.3f}]")
            rows_out.append([r, *cells])
        table(f"Paired difference against {base} (95% interval)", ["reading", *METRICS], rows_out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
