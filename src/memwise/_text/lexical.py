"""Words, a light stemmer, and BM25 over a small in-memory set of documents."""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

import snowballstemmer

from memwise._text.scripts import spaced

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
STOPWORDS = frozenset(
    (
        "a an and are as at be but by can could did do does for from had has have he her hers him "
        "his how i if in into is it its just me my no nor not of on or our ours she so than that "
        "the their them then there these they this those to too us was we were what when where "
        "which who whom why will with would you your yours about again also am any been being "
        "both each few more most other own same some such only over under very up down out off "
        "once here all"
    ).split()
)
_SUFFIXES = ("ingly", "edly", "ings", "ing", "ied", "ies", "ed", "es", "ly", "s")


@lru_cache(maxsize=1 << 17)
def stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            base = word[: -len(suffix)]
            return base + "y" if suffix in ("ied", "ies") else base
    return word


def terms(text: str) -> list[str]:
    """Stemmed words without stopwords; text in scripts written without spaces as pairs of
    letters (``memwise._text.scripts``)."""
    return [stem(w) for w in _WORD.findall(spaced(text).lower()) if w not in STOPWORDS]


_SNOWBALL = snowballstemmer.stemmer("english")
_snowball_lock = threading.Lock()


@lru_cache(maxsize=1 << 17)
def snowball(word: str) -> str:
    """The Snowball (Porter2) English stem: "activities" → "activ", "adoption" → "adopt"."""
    with _snowball_lock:  # the stemmer object keeps state between calls
        return str(_SNOWBALL.stemWord(word))


def full_terms(text: str) -> list[str]:
    """Terms with the full Snowball stemmer, for conversational text (turn recall)."""
    words = (m.lower() for m in _WORD.findall(spaced(text)))
    return [snowball(w) for w in words if w not in STOPWORDS]


@lru_cache(maxsize=65536)
def term_counts(text: str) -> Counter[str]:
    """Term frequencies of an (immutable) text, cached; callers must not change the result."""
    return Counter(terms(text))


@lru_cache(maxsize=8192)  # ``present`` hands it texts of ≤ SHORT_TEXT chars: ≤ 32 MB held
def term_set(text: str) -> frozenset[str]:
    """The set of terms of an (immutable) text, cached: chunks are read again and again."""
    return frozenset(terms(text))


def _head(term: str) -> str:
    """What every word stemming to ``term`` begins with: the term, or for a term in -y all
    but its last letter ("flies" stems to "fly")."""
    return term[:-1] if term.endswith("y") and len(term) > 1 else term


SHORT_TEXT = 4_000  # characters: a text this short has its term set cached whole


def present(wanted: frozenset[str], text: str) -> frozenset[str]:
    """Which of the terms ``wanted`` occur in ``text`` (``wanted & term_set(text)``): a
    short text's term set is cached (a knowledge chunk is scored again on every question
    that finds it); a long one is searched for the words that could stem to the wanted terms
    instead of stemming every word (a long text, a few wanted terms)."""
    if len(text) <= SHORT_TEXT:
        return wanted & term_set(text)
    low = text.lower()
    maybe = frozenset(t for t in wanted if _head(t) in low)
    if not maybe:
        return maybe
    heads = tuple({_head(t) for t in maybe})
    return frozenset(
        t
        for w in frozenset(_WORD.findall(low))
        if w.startswith(heads) and w not in STOPWORDS and (t := stem(w)) in maybe
    )


@lru_cache(maxsize=16384)
def positions(text: str) -> tuple[tuple[int, str], ...]:
    """(character offset, term) for every non-stopword in ``text`` (cached: chunks repeat)."""
    return tuple(
        (m.start(), stem(w))
        for m in _WORD.finditer(text)
        if (w := m.group().lower()) not in STOPWORDS
    )


class Index:
    """BM25 over a fixed set of documents, built once: a query then touches only the documents
    that share one of its terms, not every document."""

    def __init__(self, documents: Sequence[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.size = len(documents)
        self._k1 = k1
        self._postings: dict[str, list[tuple[int, int]]] = {}
        lengths = []
        for n, d in enumerate(documents):
            counts = term_counts(d)
            lengths.append(sum(counts.values()))
            for t, f in counts.items():
                self._postings.setdefault(t, []).append((n, f))
        avg = (sum(lengths) / self.size if self.size else 0.0) or 1.0
        self._norm = [k1 * (1 - b + b * length / avg) for length in lengths]

    def scores(self, query: str) -> dict[int, float]:
        """{document position: BM25 score} for the documents sharing a term with ``query``."""
        out: dict[int, float] = {}
        n, k1 = self.size, self._k1
        for t in set(terms(query)):
            found = self._postings.get(t)
            if not found:
                continue
            df = len(found)
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            for d, f in found:
                out[d] = out.get(d, 0.0) + idf * f * (k1 + 1) / (f + self._norm[d])
        return out
