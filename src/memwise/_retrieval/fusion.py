"""Reciprocal rank fusion of several rankings."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Fusion:
    """How rankings are fused: ``k`` damps the top ranks' lead, ``weights`` one per ranking."""

    k: int = 60
    weights: tuple[float, ...] = (1.0, 1.0)

    def __call__(self, rankings: Sequence[Sequence[Hashable]]) -> dict[Hashable, float]:
        return rrf(rankings, self.k, self.weights[: len(rankings)])


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
