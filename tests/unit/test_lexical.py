"""Words and BM25: the shortcuts give the same answers as the plain forms."""

from __future__ import annotations

import random

from memwise.retrieval import lexical

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


def test_the_index_scores_as_bm25_over_the_same_documents() -> None:
    docs = ["the boiler visit on friday", "boiler boiler repair", "invoice copy", ""]
    index = lexical.Index(docs)
    scores = lexical.bm25("boiler friday", docs)
    assert scores[0] > scores[1] > 0 and scores[2] == scores[3] == 0
    assert index.scores("boiler friday") == {0: scores[0], 1: scores[1]}
    assert index.scores("the") == {} and lexical.bm25("x", []) == []
