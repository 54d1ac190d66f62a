"""Recall over a contact's past turns: which earlier turns answer this question?

No model at query time beyond an optional embedder. A turn is scored as

    lexical(turn + its keys + its neighbours)    (BM25, normalised)
    + d · meaning(turn + its neighbours)         (when vectors exist)

then multiplied by what the question says about who and when:

- a speaker boost when it names exactly one participant (whose name then leaves the query:
  it would otherwise match every line that names them), or, naming none, a boost for the
  customer's turns when it speaks in the first person ("what did I order?") and for the
  other side's when only in the second ("what did you recommend?");
- a boost for turns said in a period it names ("last month", "in March"), and a lean
  towards later turns when it asks for the present state ("what is my current address?");
- for the other side's *long* turns (a chat assistant's essays), a damping by length: the
  customer's words are what a record of a customer is about. Long is relative to how the
  customer writes here (1.5 × their median turn), so a dialogue between equals keeps both.

The neighbour terms matter because an answer is often split across a question and its reply
(a long neighbour lends only a short turn's worth of words); a turn's keys are the memory
items quoting it, so it is found by what was kept from it. Words are compared
at their full Snowball stem ("adopted" meets "adoption"). The weights were learned, and
reported on sets they were not chosen on (``TurnRecallConfig``; bench/README.md).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

import numpy as np

from memwise._extraction.dates import MONTHS, WEEKDAYS
from memwise._retrieval import late, postings, when
from memwise._text import lexical


@dataclass(frozen=True)
class TurnDoc:
    id: str
    conversation_id: str
    speaker: str  # the participant's name (or role) as a question would name them
    text: str
    customer: bool = True  # the contact's own words (else the assistant's, a staff user's)
    at: datetime | None = None  # when it was said
    keys: str = ""  # more words to find it by: what memory kept from it


@dataclass(frozen=True)
class TurnRecallConfig:
    """The ranking's settings. The nine weights were learned (coordinate ascent over a small
    grid each, the mean of r@1 and r@5, bench/recall_ablation.py) on eight sets of
    businesses' records and reported on sets none of them was chosen on: a blind set of
    businesses' records written after the fit and questions of LongMemEval_S no earlier run
    had taken (bench/README.md). The neighbours' words and vectors weigh at most a half by
    design: a turn's own words and meaning outweigh what it lends its neighbour (at 1, the
    two turns of a two-turn conversation share one vector). The window, k1, b, the
    stemmer, the long floor and the key weight were set by hand earlier. Three features that
    did not earn on blind data (the conversation's own score, the reply lifted to its
    question, spreading a gathering question over sessions) were retired."""

    neighbour_weight: float = 0.5  # the neighbours' words, at weight w / distance
    window: int = 2  # neighbours on each side, inside the same conversation
    speaker_boost: float = 0.3  # ×(1 + boost) for turns of the one participant named
    voice_boost: float = 0.3  # ×(1 + boost) for the customer's turns when a question says
    # "I"/"my" (a customer asking about themself), for the other side's when it says "you"
    long_ratio: float = 1.5  # a turn is long past ratio × the customer's typical length: a
    # long turn of the other side scores × long/length, and lends only `long` words as context
    long_floor: float = 60.0  # and a turn is never long under this many content words (stop
    # words left out): a business's reply stating prices, times and references is no essay
    key_weight: float = 0.5  # the words of a turn's keys (what memory kept), against its own 1
    period_boost: float = 1.0  # ×(1 + boost) for turns said in the period a question names
    newest_boost: float = 1.0  # up to ×(1 + boost) for later turns, when the newest is wanted
    dense_weight: float = 2.0  # meaning (cosine, normalised), when vectors are given
    dense_neighbour_weight: float = 0.5  # neighbours' vectors added at w / distance
    late_weight: float = 1.0  # word-piece matching (late interaction, 0 to 1) added to the
    # best turns' scores (each over the best one's), when word-piece vectors are given
    late_depth: int = 100  # how many of the best turns late interaction reorders
    k1: float = 1.2
    b: float = 0.75
    stemmer: Literal["snowball", "light"] = "snowball"


_FIRST = re.compile(r"\b(i|me|my|mine|myself|we|our|us)\b|\bi'", re.IGNORECASE)
_CAPITALISED = re.compile(r"\b[A-Z][^\W_]*")
# a sentence's first word, whose capital says nothing of a name
_SENTENCE_START = re.compile(r"(?:^|[.?!:;]\s+|[\"\u201c(]\s*)([A-Z][^\W_]*)")
_CALENDAR = frozenset(MONTHS + WEEKDAYS)
# a surname after a title: staff naming a customer the way they address them
_TITLED = re.compile(r"\b(?:Mr|Mrs|Ms|Miss|Mx|Dr)\.?\s+([A-Z][^\W_]*)")
_POSSESSIVE = re.compile(r"['\u2019]s\b")
_SECOND = re.compile(r"\b(you|your|yours|yourself)\b", re.IGNORECASE)
# what the other side does in a conversation (recommend, quote, book, promise…), as
# regular-expression alternatives: after "did you" and as "you …" alike
_DEEDS = (
    "recommend|suggest|say|tell|quote|book|offer|send|promise|mention|advise|propose|"
    "write|give|make|pick|choose|arrange|explain|list|describe|name|plan|schedule|"
    "reserve|show|share|provide|put|estimate|charge|refund|cancel|change|fix|sort|add|"
    "include|calculate|use|create|draft|outline|design|set|take"
)
_DONE = (
    "recommended|suggested|said|told|quoted|booked|offered|sent|promised|mentioned|"
    "advised|proposed|wrote|written|gave|given|made|picked|chose|chosen|arranged|"
    "explained|listed|described|named|planned|scheduled|reserved|showed|shown|shared|"
    "provided|put|estimated|charged|refunded|cancelled|canceled|changed|fixed|sorted|"
    "added|included|calculated|used|created|drafted|outlined|designed|set|took|taken"
)
_APOS = "['\u2019]"
# asking to be reminded of something: what follows names it, not who said it
_REMIND = re.compile(
    r"\bremind\s+(?:me|us)\b|\b(?:do|did|can|could)\s+you\s+(?:still\s+)?(?:remember|recall)\b"
    r"|\byou\s+(?:remember|remembered|recall)\b",
    re.IGNORECASE,
)
# the customer doing or saying something ("…what I ordered", "…where we decided to go")
_FIRST_DOING = re.compile(r"\b(?:i|we)\b(?!-)", re.IGNORECASE)  # not "I-95"
_SENTENCE_END = re.compile(r"[.?!](?:\s|$)")
# "you" having done one of those, or "your" advice: a question about what the other side
# said or did, whatever "I" or "me" it also holds ("what was the move you made after…?",
# "can you remind me which lamp you recommended to me?", "didn't you say…?")
_YOU_DID = re.compile(
    rf"\b(?:did|have|had|were|was)(?:n{_APOS}?t)?\s+you\s+(?:\w+\s+){{0,2}}?"
    rf"(?:{_DEEDS}|{_DONE})\b"
    rf"|(?<!to )\byou(?:{_APOS}ve|{_APOS}d|\s+had|\s+have|\s+just|\s+already|\s+first)?\s+"
    rf"(?:{_DONE}|came up with)\b"
    r"|\byour\s+(?:\w+\s+)?(?:recommendation|suggestion|advice|answer|reply|response|offer|"
    r"quote|idea|tip|explanation|instruction|email|message|note|estimate|colleague)s?\b",
    re.IGNORECASE,
)
# staff saying they did one of those deeds ("what did we quote him?", "I've booked her…")
_WE_DID = re.compile(
    rf"\bdid(?:n{_APOS}?t)?\s+(?:i|we)\s+(?:\w+\s+){{0,2}}?(?:{_DEEDS})\b"
    rf"|\b(?:i|we)(?:{_APOS}ve|{_APOS}d|\s+have|\s+had|\s+just|\s+already)?\s+(?:{_DONE})\b",
    re.IGNORECASE,
)


def _voice(question: str) -> bool | None:
    """True when a question is in the first person (asked by the customer about themself),
    False when in the second (about what the other side said or did: only "you", or "you"
    having done something), else None — as when it asks to be reminded of something and
    says nobody's doing ("can you remind me of our flight times?": either side may have
    said them)."""
    if _YOU_DID.search(question):
        return False
    if _reminded(question):
        return None
    if _FIRST.search(question):
        return True
    if _SECOND.search(question):
        return False
    return None


def _reminded(question: str) -> bool:
    """Whether a question asks to be reminded of something without saying the customer
    did or said it: the other side's long turns may hold it."""
    asked = _REMIND.search(question)
    if asked is None:
        return False
    end = _SENTENCE_END.search(question, asked.end())  # what follows in the same sentence
    return not _FIRST_DOING.search(question, asked.end(), end.start() if end else len(question))


def _unit_range(x: np.ndarray) -> np.ndarray:
    span = float(x.max() - x.min()) if x.size else 0.0
    return (x - x.min()) / span if span else np.zeros_like(x)


class TurnIndex:
    """An in-memory index of one contact's turns (built once, searched many times).
    ``terms``: the turns' term counts when already read (a kept conversation's, joined);
    ``tokens``: each turn's word-piece vectors (or None), or them already side by side."""

    def __init__(
        self,
        docs: Sequence[TurnDoc],
        vectors: np.ndarray | None = None,
        config: TurnRecallConfig | None = None,
        tokens: Sequence[late.TokenVectors | None] | late.Pieces | None = None,
        terms: postings.Rows | None = None,
    ) -> None:
        self.docs = list(docs)
        n = len(self.docs)
        if isinstance(tokens, late.Pieces):
            self.pieces: late.Pieces | None = tokens
        else:
            self.pieces = late.Pieces(tokens) if tokens is not None else None
        if (self.pieces is not None and self.pieces.n != n) or (terms and terms.n != n):
            raise ValueError("one word-piece vector set (or None) and term row per turn is needed")
        self.config = c = config or TurnRecallConfig()
        self.terms = lexical.full_terms if c.stemmer == "snowball" else lexical.terms
        own = terms if terms is not None else postings.Rows.of((d.text for d in docs), self.terms)
        keyed = np.array([i for i, d in enumerate(self.docs) if d.keys and c.key_weight], int)
        keys = postings.Rows.of((docs[i].keys for i in keyed), self.terms)
        rows = postings.Rows.join([own, keys]) if keyed.size else own
        vocab = {t: j for j, t in enumerate(rows.vocab)}
        self.lengths = own.lengths()
        self.long = self._long_from(c.long_ratio)
        conv = np.array([d.conversation_id for d in self.docs], dtype=object)
        # each turn's conversation's run in docs: [lo, hi)
        new_run = np.ones(n, dtype=bool)
        new_run[1:] = conv[1:] != conv[:-1]
        run = np.cumsum(new_run) - 1
        starts = np.flatnonzero(new_run)
        self._lo, self._hi = starts[run], np.append(starts[1:], n)[run]
        everyone = np.arange(n)
        # a turn's document: its words, its neighbours' at w / distance (a long neighbour
        # lending only `long` words), its keys' at the key weight
        sources, into, weights = [everyone], [everyone], [np.ones(n)]
        for i, j, distance in self._neighbours() if c.neighbour_weight else ():
            share = c.neighbour_weight / distance
            length = self.lengths[j]
            sources.append(j)
            into.append(i)
            weights.append(share * np.minimum(1.0, self.long / np.maximum(length, 1.0)))
        sources.append(n + np.arange(len(keyed)))
        into.append(keyed)
        weights.append(np.full(len(keyed), c.key_weight))
        found = rows.gather(*(np.concatenate(x) for x in (sources, into, weights)))
        self.turns = postings.BM25(*postings.summed(*found, len(vocab)), n, vocab, c.k1, c.b)
        self.speaker_of = np.array([d.speaker for d in self.docs], dtype=object)
        self.customer = np.array([d.customer for d in self.docs], dtype=bool)
        self.speakers = {d.speaker for d in self.docs if d.speaker}
        self.speaker_terms = {s: set(self.terms(s)) for s in self.speakers}
        self.name_words = {w for s in self.speakers for w in s.lower().split()}
        firsts = {s: w[0].lower() for s in self.speakers if len(w := s.split()) > 1}
        shared = Counter(firsts.values())
        self.first_names = {s: f for s, f in firsts.items() if shared[f] == 1}
        lasts = {s: w[-1].lower() for s in self.speakers if len(w := s.split()) > 1}
        shared = Counter(lasts.values())
        self.last_names = {s: f for s, f in lasts.items() if shared[f] == 1}
        self.vectors = self._smooth(vectors) if vectors is not None else None
        self.times = np.array(
            [d.at.timestamp() if d.at is not None else np.nan for d in self.docs], dtype=float
        )

    def _long_from(self, ratio: float) -> float:
        """How many words make a turn long here: ``ratio`` times the median length of the
        customer's turns (of every turn, when none is the customer's); infinite when off."""
        if not ratio or not self.docs:
            return math.inf
        own = self.lengths[[d.customer for d in self.docs]]
        typical = float(np.median(own if own.size else self.lengths))
        return max(1.0, ratio * typical, self.config.long_floor)

    def _neighbours(self) -> list[tuple[np.ndarray, np.ndarray, int]]:
        """(turns, their neighbours, distance) for each distance in the window, inside the
        same conversation."""
        out = []
        everyone = np.arange(len(self.docs))
        for offset in range(-self.config.window, self.config.window + 1):
            j = everyone + offset
            inside = (j >= self._lo) & (j < self._hi) & (offset != 0)
            out.append((everyone[inside], j[inside], abs(offset)))
        return [x for x in out if x[0].size]

    def _smooth(self, vectors: np.ndarray) -> np.ndarray:
        raw = np.asarray(vectors, dtype=np.float32)
        smoothed = raw.copy()
        for i, j, distance in self._neighbours():
            smoothed[i] += self.config.dense_neighbour_weight / distance * raw[j]
        norms = np.linalg.norm(smoothed, axis=1, keepdims=True)
        return smoothed / np.where(norms == 0, 1, norms)

    def named(self, question: str) -> set[str]:
        """The participants a question names: by every word of their name, or else by their
        first name written with a capital ("What did Dana buy?" of Dana Whitfield) when no
        other participant has it — not where a capital says nothing of a name: a sentence's
        first word ("Mark my order urgent…" of Mark Olsen; but "Mark's order…" names him),
        a month or a day ("What did I order in May?" of May Chen); or by a surname only they
        have after a title ("Mrs Okafor")."""
        words = set(self.terms(question))
        whole = {s for s, t in self.speaker_terms.items() if t and t <= words}
        if whole:
            return whole
        starts = {  # a sentence's first word, unless it owns something ("Dana's order")
            m.start(1)
            for m in _SENTENCE_START.finditer(question)
            if not _POSSESSIVE.match(question, m.end(1))
        }
        capitals = {
            word
            for m in _CAPITALISED.finditer(question)
            if m.start() not in starts and (word := m.group().lower()) not in _CALENDAR
        }
        found = {s for s, first in self.first_names.items() if first in capitals}
        titled = {m.group(1).lower() for m in _TITLED.finditer(question)}  # "Mrs Okafor"
        return found | {s for s, last in self.last_names.items() if last in titled}

    def search(
        self,
        question: str,
        k: int = 10,
        query_vector: np.ndarray | None = None,
        now: datetime | None = None,
        by_customer: bool = True,
        query_tokens: late.TokenVectors | None = None,
    ) -> list[tuple[int, float]]:
        """The ``k`` best turns as (position in docs, score), best first; ``now`` is when the
        question is asked (for "last month", "three weeks ago"); ``by_customer``: whether the
        customer asks (their "I" is the customer) or the staff (their "I" is the other side);
        ``query_tokens``: the question's word-piece vectors, for late interaction.
        """
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
        if self.vectors is not None and query_vector is not None and c.dense_weight:
            score = score + c.dense_weight * _unit_range(self.vectors @ query_vector)
        about_other_side = False  # the question asks what the business's side said
        # staff asking what they themselves did for a customer they name ("what did we quote
        # Sean Reilly?"): the business's turns, not the named customer's
        ours = (
            not by_customer
            and len(named) == 1
            and bool(self.customer[self.speaker_of == next(iter(named))].any())
            and _WE_DID.search(question) is not None
        )
        if ours:
            about_other_side = True
            if c.voice_boost:
                score = np.where(self.customer, score, score * (1.0 + c.voice_boost))
        elif len(named) == 1 and c.speaker_boost:
            (who,) = named
            score = np.where(self.speaker_of == who, score * (1.0 + c.speaker_boost), score)
            about_other_side = not self.customer[self.speaker_of == who].any()
        elif not named and (first := _voice(question)) is not None:
            side = first == by_customer  # the customer's turns, or the other side's
            about_other_side = not side
            if c.voice_boost:
                score = np.where(self.customer == side, score * (1.0 + c.voice_boost), score)
        if c.long_ratio and not about_other_side and not _reminded(question):
            # another's long turn is mostly its own elaboration: context, unless it is what
            # the question asks about ("what did you recommend?")
            damp = np.minimum(1.0, self.long / np.maximum(self.lengths, 1.0))
            score = np.where(self.customer, score, score * damp)
        score = self._timed(score, question, now)
        if query_tokens is not None and self.pieces is not None and c.late_weight:
            score = self._late(score, query_tokens)
        k = max(1, min(k, len(self.docs)))
        best = np.argpartition(-score, k - 1)[:k]
        best = best[np.argsort(-score[best], kind="stable")]
        return [(int(i), float(score[i])) for i in best if score[i] > 0]

    def _timed(self, score: np.ndarray, question: str, now: datetime | None) -> np.ndarray:
        """Turns said in the period the question names score higher; when it wants the
        newest state of something, later turns do."""
        c, known = self.config, ~np.isnan(self.times)
        if not known.any():
            return score
        if c.period_boost and now is not None and (p := when.period(question, now)):
            inside = known & (self.times >= p.start.timestamp()) & (self.times < p.end.timestamp())
            score = np.where(inside, score * (1.0 + c.period_boost), score)
        if c.newest_boost and when.wants_newest(question):
            first, last = np.nanmin(self.times), np.nanmax(self.times)
            if last > first:
                late = np.where(known, (self.times - first) / (last - first), 0.0)
                score = score * (1.0 + c.newest_boost * late)
        return score

    def _late(self, score: np.ndarray, query: late.TokenVectors) -> np.ndarray:
        """The best ``late_depth`` turns (of those scoring at all) gain late interaction's
        score, spread over 0 to 1 among those whose pieces the index holds, at
        ``late_weight`` of the best turn's score; a candidate without pieces (older than
        the index's piece budget) gains their mean, neither lifted nor sunk."""
        assert self.pieces is not None
        scoring = np.flatnonzero(score > 0)
        if not scoring.size:  # nothing shares a word or meaning: nothing to reorder
            return score
        depth = min(self.config.late_depth, scoring.size)
        candidates = scoring[np.argpartition(-score[scoring], depth - 1)[:depth]]
        has = self.pieces.count[candidates] > 0
        out = score / float(score.max())
        if not has.any():
            return out
        found = _unit_range(self.pieces.scores(query, candidates[has], self.name_words))
        gain = np.full(candidates.size, float(found.mean()), dtype=float)
        gain[has] = found
        out[candidates] += self.config.late_weight * gain
        return out
