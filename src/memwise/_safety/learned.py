"""The write boundary's second look: a small learned text classifier over word, word-pair
and character features, for phrasings the concept rules of :mod:`memwise._safety.boundary`
do not name.

It is a multinomial logistic regression (genuine, absence, operational, instruction,
entitlement) trained by ``tools/train_boundary.py`` on the labelled sets it lists in the
model file; the held-out set it is reported on (``bench/boundary_bench.py``) is not among
them. Inference is plain Python over the stored weights: no numpy, no model download,
tens of microseconds per item. The rules run first; this only ever adds refusals.
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from dataclasses import dataclass
from importlib import resources
from typing import Any

MODEL_FILE = "boundary_model.json"
log = logging.getLogger("memwise.boundary")
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


class _Loader:
    """The shipped model, loaded once. It fails closed: while it cannot be loaded (missing,
    unreadable, not the shape this code reads) ``model()`` is None, the write boundary holds
    what would need it (``boundary.classify`` raises ``Unavailable``: the extraction job
    waits and retries), health says so, an error is logged at most once a minute, and the
    load is tried again every minute (one failure never turns it off for the process)."""

    RETRY_S = 60.0

    def __init__(self) -> None:
        self.cache_clear()

    def cache_clear(self) -> None:
        self._model: Model | None = None
        self._failed_at: float | None = None
        self._logged_at = -math.inf
        self.error: str | None = None

    @property
    def status(self) -> str:
        """loaded, unavailable, or not loaded yet."""
        if self._model is not None:
            return "loaded"
        return "unavailable" if self._failed_at is not None else "not loaded yet"

    def __call__(self) -> Model | None:
        if self._model is not None:
            return self._model
        now = time.monotonic()
        if self._failed_at is not None and now - self._failed_at < self.RETRY_S:
            return None
        try:
            raw = json.loads(resources.files("memwise._safety").joinpath(MODEL_FILE).read_text())
            self._model, self._failed_at, self.error = _checked(raw), None, None
        except Exception as exc:  # held, said, logged and tried again: never fails open
            self._failed_at = now
            self.error = type(exc).__name__
            if now - self._logged_at >= self.RETRY_S:
                self._logged_at = now
                log.error(
                    "the write boundary's learned classifier cannot be loaded (%s: %s); "
                    "facts and preferences are held until it loads",
                    type(exc).__name__,
                    str(exc)[:200],
                )
        return self._model


model = _Loader()


def _checked(raw: Any) -> Model:
    classes = tuple(str(c) for c in raw["classes"])
    if "genuine" not in classes or len(classes) < 2:
        raise ValueError("the model names no genuine class")
    bias = [float(v) for v in raw["bias"]]
    weights = {str(f): [float(v) for v in w] for f, w in raw["weights"].items()}
    if len(bias) != len(classes) or any(len(w) != len(classes) for w in weights.values()):
        raise ValueError("the weights do not match the classes")
    threshold = float(raw["threshold"])
    if not 0.0 < threshold < 1.0:
        raise ValueError("the threshold is not a probability")
    return Model(classes, weights, bias, threshold, dict(raw.get("about") or {}))
