"""Reciprocal rank fusion of several rankings."""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def rrf(
    rankings: Sequence[Sequence[Hashable]], k: int = 60, weights: Sequence[float] | None = None
) -> dict[Hashable, float]:
    """Fused score per id: sum over rankings of weight / (k + rank)."""
    fused: dict[Hashable, float] = {}
    for i, ranking in enumerate(rankings):
        w = weights[i] if weights else 1.0
        for rank, item in enumerate(ranking, start=1):
            fused[item] = fused.get(item, 0.0) + w / (k + rank)
    return fused
