"""Train the write boundary's learned classifier (memwise/safety/boundary_model.json).

python tools/train_boundary.py [--threshold T] [--budget 0.02] [--c 10] [--check]

A multinomial logistic regression (scikit-learn, lbfgs: the same files give the same
weights) over two kinds of feature: the words, word pairs and character grams of
``learned.features`` (each row scaled to unit length, as :class:`learned.Model` reads them)
and the text's meaning, the shipped MiniLM's unit sentence vector. It is trained on the
TRAINING sets below (the boundary's labelled sets and the profile proposals of the honesty
tuning sets), in the normal form the rules read (what memwise hands the classifier), and
writes the model with the list of files it was trained on. The held-out sets the benches
report (HELD_OUT, and the honesty sets not listed here) are never read here.

The threshold (refuse when P(genuine) is below it) is chosen by cross-validation on the
training sets alone, one set left out at a time (each set was written by its own hand, so a
left-out set is the nearest thing to a new writer): every left-out set is read the way
memwise reads an item, the rules first and the classifier on what they pass, and the
threshold is the highest at which the classifier adds at most ``--budget`` (2 %) to the
pooled false refusal of genuine items (the rules' own comes on top: the honesty sets'
"does not want …" preferences are refused as absences by the rules). ``--threshold``
skips the search. ``--check`` retrains with the shipped
threshold and fails when the shipped file differs (the model is reproducible on one
machine; another CPU may round a vector differently).
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from memwise.retrieval import embedders  # noqa: E402
from memwise.safety.boundary import classify, normal_form  # noqa: E402
from memwise.safety.learned import MODEL_FILE, features  # noqa: E402

DATA = ROOT / "tests" / "data"
SETS = ROOT / "tools" / "datasets"
TRAINING = (
    "boundary_dev.json",
    "boundary_holdout.json",
    "boundary_holdout2.json",
    "boundary_holdout3.json",
    "boundary_train_a.json",
    "boundary_train_b.json",
    "boundary_holdout4.json",
    "boundary_holdout5.json",
    "boundary_holdout6.json",
    "boundary_train_c.json",
    "boundary_train_d.json",
    # tuning sets of the honesty issue (tools/datasets.toml): their fact and preference
    # proposals of the five classes (other people's facts, secrets and keys are read by
    # other parts of the boundary)
    "honesty_blind_1.json",
    "honesty_blind_2.json",
)
HELD_OUT = (
    "boundary_holdout7.json",
    "boundary_holdout8.json",
    "boundary_holdout9.json",
    "boundary_holdout10.json",
    "honesty_blind_3.json",
    "honesty_blind_4.json",
)
CLASSES = ("genuine", "absence", "operational", "instruction", "entitlement")
C = 10.0  # the inverse of the L2 penalty (chosen on the training sets, left out by set)
OUT = ROOT / "src" / "memwise" / "safety" / MODEL_FILE


def load(names: tuple[str, ...]) -> list[tuple[str, str]]:
    items: list[tuple[str, str]] = []
    for name in names:
        assert name not in HELD_OUT, "a held-out set is never trained on"
        if (DATA / name).exists():
            items += [
                (i["text"], i["class"]) for i in json.loads((DATA / name).read_text())["items"]
            ]
        elif (SETS / name).exists():
            for conv in json.loads((SETS / name).read_text())["conversations"]:
                items += [
                    (p["text"], p["label"])
                    for p in conv["proposals"]
                    if p["label"] in CLASSES and p["kind"] in ("fact", "preference")
                ]
    return items


_vectors: dict[str, np.ndarray] = {}


def meaning(texts: list[str]) -> np.ndarray:
    """The texts' unit sentence vectors by the shipped MiniLM (remembered)."""
    embedder = embedders.shipped()
    if embedder is None:
        raise SystemExit("the shipped embedder cannot be loaded: the model reads meaning")
    missing = [t for t in dict.fromkeys(texts) if t not in _vectors]
    for i in range(0, len(missing), 256):
        part = missing[i : i + 256]
        v = np.asarray(embedder.embed(part), dtype=np.float64)
        v /= np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
        _vectors.update(zip(part, v, strict=True))
    return np.vstack([_vectors[t] for t in texts]) if texts else np.zeros((0, 384))


@dataclass
class Fit:
    names: list[str]  # the word features, in column order
    w: np.ndarray  # words × classes
    dense: np.ndarray  # classes × vector
    b: np.ndarray


def _rows(
    texts: list[str], at: dict[str, int], grow: bool
) -> tuple[list[int], list[int], list[float]]:
    rows, cols, vals = [], [], []
    for i, text in enumerate(texts):
        counts: dict[int, int] = {}
        for f in features(text):
            if f not in at and grow:
                at[f] = len(at)
            if f in at:
                counts[at[f]] = counts.get(at[f], 0) + 1
        norm = max(1.0, float(np.sqrt(sum(n * n for n in counts.values()))))
        for j, n in counts.items():
            rows.append(i), cols.append(j), vals.append(n / norm)
    return rows, cols, vals


def train(items: list[tuple[str, str]], c: float = C) -> Fit:
    """The fitted weights over the items' word features and meaning, in the normal form the
    rules read (what memwise hands the classifier)."""
    from scipy import sparse
    from sklearn.linear_model import LogisticRegression

    texts = [normal_form(t) for t, _ in items]
    at: dict[str, int] = {}
    rows, cols, vals = _rows(texts, at, grow=True)
    words = sparse.csr_matrix((vals, (rows, cols)), shape=(len(texts), len(at)))
    x = sparse.hstack([words, sparse.csr_matrix(meaning(texts))]).tocsr()
    fitted = LogisticRegression(C=c, max_iter=5000).fit(x, [k for _, k in items])
    order = [list(fitted.classes_).index(k) for k in CLASSES]
    coef, bias = fitted.coef_[order], fitted.intercept_[order]
    return Fit(list(at), coef[:, : len(at)].T, coef[:, len(at) :], bias)


def p_genuine(fit: Fit, text: str) -> float:
    """P(genuine) of one text under freshly trained weights, read as the shipped model is."""
    t = normal_form(text)
    at = {f: i for i, f in enumerate(fit.names)}
    _, cols, vals = _rows([t], at, grow=False)
    z = fit.b + fit.dense @ meaning([t])[0]
    for j, v in zip(cols, vals, strict=True):
        z = z + fit.w[j] * v
    z = np.exp(z - z.max())
    return float(z[CLASSES.index("genuine")] / z.sum())


def fold(args: tuple[str, float]) -> list[tuple[str, bool, float]]:
    """Leave one set out: train on the others and read the left-out set the way memwise
    does, the rules first. Per item: its class, whether the rules alone refuse it, and the
    classifier's P(genuine)."""
    left_out, c = args
    fit = train(load(tuple(n for n in TRAINING if n != left_out)), c)
    return [
        (cls, classify(text, second_look=False) is not None, p_genuine(fit, text))
        for text, cls in load((left_out,))
    ]


def choose_threshold(
    scored: list[tuple[str, bool, float]], budget: float
) -> tuple[float, float, float]:
    """The highest threshold (the most refusals) whose pooled out-of-fold false refusal of
    genuine items the rules pass stays within ``budget`` (what the classifier adds to the
    rules' own); with the refusal of forbidden items and the false refusal, rules included."""
    best = (0.05, 0.0, 0.0)
    passed = [p for c, r, p in scored if c == "genuine" and not r]
    for step in range(5, 61):
        t = step / 100
        genuine = [r or p < t for c, r, p in scored if c == "genuine"]
        forbidden = [r or p < t for c, r, p in scored if c != "genuine"]
        added = sum(p < t for p in passed) / len(genuine)
        if added <= budget:
            best = (t, sum(forbidden) / len(forbidden), sum(genuine) / len(genuine))
    return best


def model_json(fit: Fit, threshold: float, about: dict[str, object]) -> str:
    keep = np.abs(fit.w).max(axis=1) >= 0.01  # smaller weights never move a decision
    weights = {
        f: [round(float(v), 4) for v in fit.w[i]] for i, f in enumerate(fit.names) if keep[i]
    }
    embedder = embedders.shipped()
    return json.dumps(
        {
            "classes": list(CLASSES),
            "threshold": threshold,
            "bias": [round(float(v), 4) for v in fit.b],
            "about": about,
            "embedder": embedder.id if embedder is not None else None,
            "dense": [[round(float(v), 5) for v in row] for row in fit.dense],
            "weights": dict(sorted(weights.items())),
        },
        separators=(",", ":"),
        ensure_ascii=False,
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--threshold", type=float, default=None)
    ap.add_argument("--budget", type=float, default=0.02)
    ap.add_argument("--c", type=float, default=C)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    used = tuple(n for n in TRAINING if (DATA / n).exists() or (SETS / n).exists())
    about: dict[str, object] = {"trained_on": list(used), "c": a.c, "by": "scikit-learn"}
    threshold = a.threshold
    if a.check and threshold is None and OUT.exists():  # the shipped choice, not a new search
        shipped = json.loads(OUT.read_text())
        threshold = float(shipped["threshold"])
        if "threshold_chosen_by" in shipped["about"]:
            about["threshold_chosen_by"] = shipped["about"]["threshold_chosen_by"]
    if threshold is None:
        print(f"choosing the threshold: {len(used)} trainings, one set left out each", flush=True)
        with ProcessPoolExecutor(max_workers=2) as pool:
            scored = []
            for name, rows in zip(used, pool.map(fold, [(n, a.c) for n in used]), strict=True):
                print(f"  {name} left out: {len(rows)} items read", flush=True)
                scored += rows
        threshold, refused, false = choose_threshold(scored, a.budget)
        about["threshold_chosen_by"] = (
            f"leave-one-set-out cross-validation on the training sets: at {threshold:.2f}, "
            f"{refused:.3f} of forbidden items refused and {false:.3f} of genuine ones falsely "
            f"refused (rules and classifier, out of fold; the classifier's own added at most "
            f"{a.budget})"
        )
        print(about["threshold_chosen_by"])
    items = load(used)
    about["items"] = len(items)
    fit = train(items, a.c)
    text = model_json(fit, threshold, about)
    if a.check:
        same = OUT.exists() and OUT.read_text() == text
        print("the shipped model is reproducible" if same else "the shipped model differs")
        raise SystemExit(0 if same else 1)
    OUT.write_text(text)
    print(f"{len(items)} items, {len(json.loads(text)['weights'])} word features → {OUT}")


if __name__ == "__main__":
    main()
