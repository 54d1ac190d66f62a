"""Rank fusion as knowledge search uses it: each ranking votes 1 / (k + rank), weighted."""

from __future__ import annotations

import pytest

from memwise._retrieval import fusion
from memwise._services.knowledge import knowledge


def test_equal_weights_let_the_first_of_either_ranking_tie() -> None:
    fused = fusion.Fusion(k=60, weights=(1.0, 1.0))([["a", "b"], ["b", "a"]])
    assert fused["a"] == pytest.approx(fused["b"])


def test_the_meaning_ranking_outvotes_the_words_when_weighted_higher() -> None:
    words, meaning = ["lexical-match", "paraphrase"], ["paraphrase", "lexical-match"]
    fused = fusion.Fusion(k=30, weights=(1.0, 3.0))([words, meaning])
    assert max(fused, key=fused.__getitem__) == "paraphrase"
    # a passage only the words found still counts, below one both found
    only = fusion.Fusion(k=30, weights=(1.0, 3.0))([["x", "y"], ["y"]])
    assert only["y"] > only["x"] > 0


def test_k_damps_the_lead_of_the_top_ranks() -> None:
    near = fusion.Fusion(k=1, weights=(1.0,))([["a", "b"]])
    far = fusion.Fusion(k=100, weights=(1.0,))([["a", "b"]])
    assert near["a"] / near["b"] > far["a"] / far["b"] > 1.0


def test_one_ranking_alone_uses_the_first_weight() -> None:
    """Words alone (no embedder): the fusion reads one ranking and keeps its order."""
    fused = knowledge.FUSION([["a", "b", "c"]])
    assert sorted(fused, key=lambda s: -fused[s]) == ["a", "b", "c"]
    assert knowledge.FUSION.weights[1] > knowledge.FUSION.weights[0]  # meaning counts more
