"""The write boundary's second look: a small learned text classifier over word, word-pair
and character features, for phrasings the concept rules of :mod:`memwise.safety.boundary`
do not name.

It is a multinomial logistic regression (genuine, absence, operational, instruction,
entitlement) trained by ``scripts/train_boundary.py`` on the labelled sets it lists in the
model file; the held-out set it is reported on (``bench/boundary_bench.py``) is not among
them. Inference is plain Python over the stored weights: no numpy, no model download,
a few microseconds per item. The rules run first; this only ever adds refusals.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

MODEL_FILE = "boundary_model.json"
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|\d+|[#€$£%]")
_APOS = str.maketrans({"’": "'", "‘": "'", "`": "'", "´": "'"})


def features(text: str) -> list[str]:
    """The features of one text: words (numbers as one token), word pairs with the edges,
    and the character 4-grams of each word."""
    words = ["<num>" if w.isdigit() else w for w in _WORD.findall(text.lower().translate(_APOS))]
    found = ["w:" + w for w in words]
    found += [f"b:{a}_{b}" for a, b in zip(["<s>", *words], [*words, "</s>"], strict=True)]
    for w in words:
        padded = f" {w} "
        found += ["c:" + padded[i : i + 4] for i in range(len(padded) - 3)]
    return found


@dataclass(frozen=True)
class Model:
    classes: tuple[str, ...]
    weights: dict[str, list[float]]
    bias: list[float]
    threshold: float  # refuse when P(genuine) is below this
    about: dict[str, Any]

    def probabilities(self, text: str) -> dict[str, float]:
        counts: dict[str, int] = {}
        for f in features(text):
            if f in self.weights:
                counts[f] = counts.get(f, 0) + 1
        norm = math.sqrt(sum(n * n for n in counts.values())) or 1.0
        z = list(self.bias)
        for f, n in counts.items():
            for k, w in enumerate(self.weights[f]):
                z[k] += w * n / norm
        top = max(z)
        e = [math.exp(v - top) for v in z]
        total = sum(e)
        return {c: v / total for c, v in zip(self.classes, e, strict=True)}

    def verdict(self, text: str) -> tuple[str, float] | None:
        """(the forbidden class, P(genuine)) when the text is refused, else None."""
        p = self.probabilities(text)
        if p["genuine"] >= self.threshold:
            return None
        kind = max((c for c in self.classes if c != "genuine"), key=lambda c: p[c])
        return kind, p["genuine"]


@cache
def model() -> Model | None:
    """The shipped model, or None when the file is missing (the rules alone then decide)."""
    try:
        raw = json.loads(resources.files("memwise.safety").joinpath(MODEL_FILE).read_text())
    except (FileNotFoundError, ValueError):
        return None
    return Model(
        classes=tuple(raw["classes"]),
        weights={f: list(w) for f, w in raw["weights"].items()},
        bias=list(raw["bias"]),
        threshold=float(raw["threshold"]),
        about=dict(raw.get("about") or {}),
    )
