"""Words, a light stemmer, and BM25 over a small in-memory set of documents."""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

import snowballstemmer

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
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


_SNOWBALL = snowballstemmer.stemmer("english")
_snowball_lock = threading.Lock()


@lru_cache(maxsize=1 << 17)
def snowball(word: str) -> str:
    """The Snowball (Porter2) English stem: "activities" → "activ", "adoption" → "adopt"."""
    with _snowball_lock:  # the stemmer object keeps state between calls
        return str(_SNOWBALL.stemWord(word))


def full_terms(text: str) -> list[str]:
    """Terms with the full Snowball stemmer, for conversational text (turn recall)."""
    return [snowball(w) for w in (m.lower() for m in _WORD.findall(text)) if w not in STOPWORDS]


@lru_cache(maxsize=65536)
def term_counts(text: str) -> Counter[str]:
    """Term frequencies of an (immutable) text, cached; callers must not change the result."""
    return Counter(terms(text))


@lru_cache(maxsize=65536)
def term_set(text: str) -> frozenset[str]:
    """The set of terms of an (immutable) text, cached: chunks are read again and again."""
    return frozenset(terms(text))


@lru_cache(maxsize=16384)
def positions(text: str) -> tuple[tuple[int, str], ...]:
    """(character offset, term) for every non-stopword in ``text`` (cached: chunks repeat)."""
    return tuple(
        (m.start(), stem(w))
        for m in _WORD.finditer(text)
        if (w := m.group().lower()) not in STOPWORDS
    )


def bm25(query: str, documents: Sequence[str], k1: float = 1.2, b: float = 0.75) -> list[float]:
    """BM25 score of each document for ``query`` (0 where no query term occurs)."""
    q = set(terms(query))
    if not q or not documents:
        return [0.0] * len(documents)
    docs = [term_counts(d) for d in documents]
    n = len(docs)
    avg = sum(sum(d.values()) for d in docs) / n or 1.0
    df = {t: sum(1 for d in docs if t in d) for t in q}
    scores = []
    for d in docs:
        length = sum(d.values())
        s = 0.0
        for t in q:
            f = d.get(t, 0)
            if f:
                idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                s += idf * f * (k1 + 1) / (f + k1 * (1 - b + b * length / avg))
        scores.append(s)
    return scores
