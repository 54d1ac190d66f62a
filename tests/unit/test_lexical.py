"""Words and BM25: the shortcuts give the same answers as the plain forms."""

from __future__ import annotations

import math
import random

from memwise._text import lexical

WORDS = [
    "flies",
    "fly",
    "flying",
    "studied",
    "studies",
    "study",
    "boxes",
    "box",
    "running",
    "runs",
    "ran",
    "the",
    "its",
    "happily",
    "happy",
    "cats",
    "Über",
    "über",
    "naïve",
    "x",
    "y",
    "a1",
    "b_2",
    "3rd",
    "don't",
    "co-op",
]


def test_present_finds_what_the_term_sets_would() -> None:
    rng = random.Random(7)
    for _ in range(5000):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 12)))
        text = text.replace(" ", rng.choice([" ", ",", "-", "_", "'", "é", "\n"]))
        query = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
        wanted = frozenset(lexical.terms(query))
        assert lexical.present(wanted, text) == wanted & lexical.term_set(text), (text, query)


def test_present_finds_the_same_in_long_texts() -> None:
    """Past SHORT_TEXT characters the text is scanned rather than its term set cached."""
    rng = random.Random(11)
    filler = " ".join(["lorem"] * (lexical.SHORT_TEXT // 6 + 1))
    for _ in range(500):
        words = [rng.choice(WORDS) for _ in range(rng.randint(0, 12))]
        text = filler + " " + " ".join(words).replace(" ", rng.choice([" ", ",", "_", "'", "\n"]))
        assert len(text) > lexical.SHORT_TEXT
        query = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
        wanted = frozenset(lexical.terms(query))
        assert lexical.present(wanted, text) == wanted & lexical.term_set(text), (words, query)


def _plain_bm25(query: str, documents: list[str], k1: float = 1.2, b: float = 0.75) -> list[float]:
    """BM25 as written in the textbooks: every document scored against every term."""
    q = set(lexical.terms(query))
    docs = [lexical.term_counts(d) for d in documents]
    n = len(docs)
    avg = sum(sum(d.values()) for d in docs) / n or 1.0
    out = []
    for d in docs:
        s = 0.0
        for t in q:
            if f := d.get(t, 0):
                df = sum(1 for e in docs if t in e)
                idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
                s += idf * f * (k1 + 1) / (f + k1 * (1 - b + b * sum(d.values()) / avg))
        out.append(s)
    return out


def test_the_index_scores_as_bm25_over_the_same_documents() -> None:
    docs = ["the boiler visit on friday", "boiler boiler repair", "invoice copy", ""]
    index = lexical.Index(docs)
    scores = _plain_bm25("boiler friday", docs)
    assert scores[0] > scores[1] > 0 and scores[2] == scores[3] == 0
    found = index.scores("boiler friday")
    assert found.keys() == {0, 1}
    assert all(math.isclose(found[n], scores[n]) for n in found)
    assert index.scores("the") == {} and lexical.Index([]).scores("x") == {}
