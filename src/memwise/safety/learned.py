"""The write boundary's second look: a learned text classifier over word, word-pair and
character features and the text's meaning (the shipped MiniLM's sentence vector), for
phrasings the concept rules of :mod:`memwise.safety.boundary` do not name.

It is a multinomial logistic regression (genuine, absence, operational, instruction,
entitlement) trained with scikit-learn by ``tools/train_boundary.py`` on the labelled sets it
lists in the model file; the held-out sets it is reported on (``bench/boundary_bench.py``,
``bench/honesty_bench.py``) are not among them. Inference is a few dot products over the
stored weights; the sentence vector costs one embedding (~5 ms). The rules run first; this
only ever adds refusals. Without the model file or the shipped embedder it fails closed.
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from collections.abc import Sequence
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
    # per class, the weights of the text's unit sentence vector; the embedder that made the
    # vectors it was trained on (its id): none, a model of words alone
    dense: tuple[tuple[float, ...], ...] = ()
    embedder: str | None = None

    def probabilities(self, text: str, vector: Sequence[float] | None = None) -> dict[str, float]:
        """The classes' probabilities; ``vector``: the text's sentence vector, which a model
        with meaning weights needs (``ValueError`` without it)."""
        counts: dict[str, int] = {}
        for f in features(text):
            if f in self.weights:
                counts[f] = counts.get(f, 0) + 1
        norm = math.sqrt(sum(n * n for n in counts.values())) or 1.0
        z = list(self.bias)
        for f, n in counts.items():
            for k, w in enumerate(self.weights[f]):
                z[k] += w * n / norm
        if self.dense:
            if vector is None or len(vector) != len(self.dense[0]):
                raise ValueError("this model reads meaning: it needs the text's sentence vector")
            unit = math.sqrt(sum(v * v for v in vector)) or 1.0
            for k, row in enumerate(self.dense):
                z[k] += sum(w * v for w, v in zip(row, vector, strict=True)) / unit
        top = max(z)
        e = [math.exp(v - top) for v in z]
        total = sum(e)
        return {c: v / total for c, v in zip(self.classes, e, strict=True)}

    def verdict(self, text: str, vector: Sequence[float] | None = None) -> tuple[str, float] | None:
        """(the forbidden class, P(genuine)) when the text is refused, else None."""
        p = self.probabilities(text, vector)
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
            raw = json.loads(resources.files("memwise.safety").joinpath(MODEL_FILE).read_text())
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
    dense = tuple(tuple(float(v) for v in row) for row in raw.get("dense") or ())
    if dense and (len(dense) != len(classes) or len({len(row) for row in dense}) != 1):
        raise ValueError("the meaning weights do not match the classes")
    embedder = str(raw["embedder"]) if dense else None
    about = dict(raw.get("about") or {})
    return Model(classes, weights, bias, threshold, about, dense, embedder)


def meaning(model: Model, text: str) -> list[float] | None:
    """The text's sentence vector by the embedder the model was trained with (the shipped
    MiniLM), or None when that embedder cannot be had (a broken install: the caller holds
    what needs it)."""
    from memwise.retrieval import embedders  # the write boundary's one use of the embedder

    found = embedders.shipped()
    if found is None or found.id != model.embedder:
        return None
    return [float(v) for v in found.embed([text])[0]]
