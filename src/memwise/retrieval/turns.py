"""Recall over a contact's past turns: which earlier turns answer this question?

No model at query time beyond an optional embedder. A turn is scored as

    lexical(turn + its neighbours) + c · lexical(its conversation)      (BM25, normalised)
    + d · meaning(turn + its neighbours)                                  (when vectors exist)

and multiplied by a speaker boost when the question names exactly one participant, whose
name then leaves the query (it would otherwise match every line that names them). The
neighbour terms matter because an answer is often split across a question and its reply;
the conversation term because the turns that answer a question cluster in the session that
was about it. Words are compared at their full Snowball stem ("adopted" meets "adoption"),
which conversational text needs more than the light stemmer knowledge search uses. Each
weight was chosen on LoCoMo; bench/README.md lists every variant tried.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from memwise.retrieval import lexical


@dataclass(frozen=True)
class TurnDoc:
    id: str
    conversation_id: str
    speaker: str  # the participant's name (or role) as a question would name them
    text: str
    customer: bool = True  # the contact's own words (else the assistant's, a staff user's)


@dataclass(frozen=True)
class TurnRecallConfig:
    neighbour_weight: float = 0.5  # the neighbours' words, at weight w / distance
    window: int = 2  # neighbours on each side, inside the same conversation
    conversation_weight: float = 0.7  # the conversation's own lexical score
    speaker_boost: float = 0.6  # ×(1 + boost) for turns of the one participant named
    dense_weight: float = 0.6  # meaning (cosine, normalised), when vectors are given
    dense_neighbour_weight: float = 0.5  # neighbours' vectors added at w / distance
    k1: float = 1.2
    b: float = 0.5
    stemmer: Literal["snowball", "light"] = "snowball"
    other_weight: float = 1.0  # ×w for turns not in the contact's own words (1: equal)
    session_cap: int = 0  # at most this many turns of one conversation in the top k (0: any)


class _BM25:
    def __init__(self, docs: Sequence[Mapping[str, float]], k1: float, b: float) -> None:
        self.n = len(docs)
        self.lengths = np.array([float(sum(d.values())) for d in docs], dtype=float)
        average = float(self.lengths.mean()) if self.n else 1.0
        self.norm = k1 * (1 - b + b * self.lengths / (average or 1.0))
        self.k1 = k1
        df: Counter[str] = Counter()
        for d in docs:
            df.update(d.keys())
        self.idf = {t: math.log(1 + (self.n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self.postings: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        grouped: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for i, d in enumerate(docs):
            for t, f in d.items():
                grouped[t].append((i, f))
        for t, pairs in grouped.items():
            idx = np.array([p[0] for p in pairs], dtype=np.int64)
            tf = np.array([p[1] for p in pairs], dtype=float)
            self.postings[t] = (idx, tf)

    def scores(self, query: Mapping[str, float]) -> np.ndarray:
        out = np.zeros(self.n)
        for term, weight in query.items():
            found = self.postings.get(term)
            if found is None:
                continue
            idx, tf = found
            out[idx] += weight * self.idf[term] * tf * (self.k1 + 1) / (tf + self.norm[idx])
        return out


def _unit_range(x: np.ndarray) -> np.ndarray:
    span = float(x.max() - x.min()) if x.size else 0.0
    return (x - x.min()) / span if span else np.zeros_like(x)


class TurnIndex:
    """An in-memory index of one contact's turns (built once, searched many times)."""

    def __init__(
        self,
        docs: Sequence[TurnDoc],
        vectors: np.ndarray | None = None,
        config: TurnRecallConfig | None = None,
    ) -> None:
        self.docs = list(docs)
        self.config = c = config or TurnRecallConfig()
        self.terms = lexical.full_terms if c.stemmer == "snowball" else lexical.terms
        own = [Counter(self.terms(d.text)) for d in self.docs]
        spans = self._spans()
        expanded = []
        for i, counts in enumerate(own):
            doc: dict[str, float] = dict(counts)
            for j, distance in self._neighbours(i, spans):
                for term, f in own[j].items():
                    doc[term] = doc.get(term, 0.0) + c.neighbour_weight / distance * f
            expanded.append(doc)
        self.turns = _BM25(expanded, c.k1, c.b)
        conversation_ids = sorted({d.conversation_id for d in self.docs})
        position = {cid: n for n, cid in enumerate(conversation_ids)}
        self.conversation_of = np.array([position[d.conversation_id] for d in self.docs])
        merged: list[Counter[str]] = [Counter() for _ in conversation_ids]
        for i, counts in enumerate(own):
            merged[self.conversation_of[i]].update(counts)
        self.conversations = _BM25(merged, c.k1, 0.75)
        self.speaker_of = np.array([d.speaker for d in self.docs], dtype=object)
        self.customer = np.array([d.customer for d in self.docs], dtype=bool)
        self.speakers = {d.speaker for d in self.docs if d.speaker}
        self.speaker_terms = {s: set(self.terms(s)) for s in self.speakers}
        self.vectors = self._smooth(vectors, spans) if vectors is not None else None

    def _spans(self) -> list[tuple[int, int]]:
        """For each turn, the [start, end) of its conversation's run in ``docs``."""
        spans: list[tuple[int, int]] = []
        start = 0
        for i in range(1, len(self.docs) + 1):
            if (
                i == len(self.docs)
                or self.docs[i].conversation_id != self.docs[start].conversation_id
            ):
                spans += [(start, i)] * (i - start)
                start = i
        return spans

    def _neighbours(self, i: int, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
        lo, hi = spans[i]
        w = self.config.window
        return [(j, abs(i - j)) for j in range(max(lo, i - w), min(hi, i + w + 1)) if j != i]

    def _smooth(self, vectors: np.ndarray, spans: list[tuple[int, int]]) -> np.ndarray:
        smoothed = np.array(vectors, dtype=np.float32, copy=True)
        for i in range(len(self.docs)):
            for j, distance in self._neighbours(i, spans):
                smoothed[i] += self.config.dense_neighbour_weight / distance * vectors[j]
        norms = np.linalg.norm(smoothed, axis=1, keepdims=True)
        return smoothed / np.where(norms == 0, 1, norms)

    def named(self, question: str) -> set[str]:
        """The participants a question names (by every word of their name)."""
        words = set(self.terms(question))
        return {s for s, t in self.speaker_terms.items() if t and t <= words}

    def search(
        self, question: str, k: int = 10, query_vector: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """The ``k`` best turns as (position in docs, score), best first."""
        if not self.docs:
            return []
        c = self.config
        query = Counter(self.terms(question))
        named = self.named(question)
        if len(named) == 1:
            for term in self.speaker_terms[next(iter(named))]:
                query.pop(term, None)
        lexical_scores = self.turns.scores(query)
        top = float(lexical_scores.max())
        score = lexical_scores / top if top > 0 else lexical_scores
        if c.conversation_weight:
            conv = self.conversations.scores(query)
            if conv.max() > 0:
                score = score + c.conversation_weight * (conv / conv.max())[self.conversation_of]
        if self.vectors is not None and query_vector is not None and c.dense_weight:
            score = score + c.dense_weight * _unit_range(self.vectors @ query_vector)
        if len(named) == 1 and c.speaker_boost:
            (who,) = named
            score = np.where(self.speaker_of == who, score * (1.0 + c.speaker_boost), score)
        if c.other_weight != 1.0:
            score = np.where(self.customer, score, score * c.other_weight)
        k = max(1, min(k, len(self.docs)))
        if c.session_cap:
            return self._diverse(score, k, c.session_cap)
        best = np.argpartition(-score, k - 1)[:k]
        best = best[np.argsort(-score[best], kind="stable")]
        return [(int(i), float(score[i])) for i in best if score[i] > 0]

    def _diverse(self, score: np.ndarray, k: int, cap: int) -> list[tuple[int, float]]:
        """The best turns with at most ``cap`` from one conversation, so that a question
        whose answer is spread over sessions sees each of them."""
        taken: Counter[int] = Counter()
        out: list[tuple[int, float]] = []
        for i in np.argsort(-score, kind="stable"):
            if score[i] <= 0 or len(out) == k:
                break
            conv = int(self.conversation_of[i])
            if taken[conv] < cap:
                taken[conv] += 1
                out.append((int(i), float(score[i])))
        return out
