"""Train the write boundary's learned classifier (memwise/_safety/boundary_model.json).

python tools/train_boundary.py [--threshold T] [--budget 0.025] [--l2 1e-5] [--check]

Trains a multinomial logistic regression by full-batch gradient descent (deterministic:
the same files give the same weights) on the TRAINING sets below, in the normal form the
rules read (what memwise hands the classifier), prunes weights too small to change a
decision, and writes the model with the list of files it was trained on. The held-out sets
the bench reports (HELD_OUT) are never read here.

The threshold (refuse when P(genuine) is below it) is chosen by cross-validation on the
training sets alone, one set left out at a time (each set was written by its own hand, so a
left-out set is the nearest thing to a new writer): every left-out set is read the way
memwise reads an item, the rules first and the classifier on what they pass, and the
threshold is the highest whose pooled false refusal of genuine items, the rules' own
included, stays within ``--budget`` (2.5 %: under the 3 % goal, with room for a new set to
be harder). ``--threshold`` skips the search. ``--check`` retrains with the shipped
threshold and fails when the shipped file differs (the model is reproducible).
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from memwise._safety.boundary import classify, normal_form  # noqa: E402
from memwise._safety.learned import MODEL_FILE, features  # noqa: E402

DATA = ROOT / "tests" / "data"
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
)
HELD_OUT = (
    "boundary_holdout7.json",
    "boundary_holdout8.json",
    "boundary_holdout9.json",
    "boundary_holdout10.json",
)
CLASSES = ("genuine", "absence", "operational", "instruction", "entitlement")
EPOCHS = 3000
OUT = ROOT / "src" / "memwise" / "_safety" / MODEL_FILE


def load(names: tuple[str, ...]) -> list[tuple[str, str]]:
    items = []
    for name in names:
        assert name not in HELD_OUT, "a held-out set is never trained on"
        path = DATA / name
        if path.exists():
            items += [(i["text"], i["class"]) for i in json.loads(path.read_text())["items"]]
    return items


def train(
    items: list[tuple[str, str]], l2: float, epochs: int = EPOCHS, lr: float = 8.0
) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Weights and biases over the items' features, by full-batch gradient descent on the
    sparse feature rows (each row scaled to unit length, as :class:`learned.Model` reads)."""
    vocab: dict[str, int] = {}
    rows: list[dict[int, int]] = []
    for text, _ in items:
        counts: dict[int, int] = {}
        # the text as memwise hands it to the classifier: in the rules' normal form
        for f in features(normal_form(text)):
            j = vocab.setdefault(f, len(vocab))
            counts[j] = counts.get(j, 0) + 1
        if not counts:
            raise SystemExit(f"no features in {text!r}: remove it from its set")
        rows.append(counts)
    cols = np.fromiter((j for r in rows for j in r), dtype=np.int64)
    vals = np.fromiter((n for r in rows for n in r.values()), dtype=np.float64)
    starts = np.concatenate([[0], np.cumsum([len(r) for r in rows])[:-1]])
    row_of = np.repeat(np.arange(len(rows)), [len(r) for r in rows])
    norms = np.sqrt(np.bincount(row_of, weights=vals * vals, minlength=len(rows)))
    vals = vals / np.maximum(1.0, norms)[row_of]
    y = np.eye(len(CLASSES))[[CLASSES.index(c) for _, c in items]]
    w = np.zeros((len(vocab), len(CLASSES)))
    b = np.zeros(len(CLASSES))
    for _ in range(epochs):
        z = np.add.reduceat(w[cols] * vals[:, None], starts, axis=0) + b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - y) / len(items)
        part = g[row_of] * vals[:, None]
        size = len(vocab)
        gw = np.stack(
            [np.bincount(cols, weights=part[:, k], minlength=size) for k in range(len(CLASSES))],
            axis=1,
        )
        w -= lr * (gw + l2 * w)
        b -= lr * g.sum(axis=0)
    return list(vocab), w, b


def p_genuine(names: list[str], w: np.ndarray, b: np.ndarray, text: str) -> float:
    """P(genuine) of one text under freshly trained weights, read as the shipped model is."""
    at = {f: i for i, f in enumerate(names)}
    counts: dict[int, int] = {}
    for f in features(normal_form(text)):
        if f in at:
            counts[at[f]] = counts.get(at[f], 0) + 1
    z = b.copy()
    if counts:
        norm = max(1.0, float(np.sqrt(sum(n * n for n in counts.values()))))
        for j, n in counts.items():
            z = z + w[j] * n / norm
    z = np.exp(z - z.max())
    return float(z[CLASSES.index("genuine")] / z.sum())


def fold(args: tuple[str, float]) -> list[tuple[str, bool, float]]:
    """Leave one set out: train on the others and read the left-out set the way memwise
    does, the rules first. Per item: its class, whether the rules alone refuse it, and the
    classifier's P(genuine)."""
    left_out, l2 = args
    names, w, b = train(load(tuple(n for n in TRAINING if n != left_out)), l2)
    return [
        (cls, classify(text, second_look=False) is not None, p_genuine(names, w, b, text))
        for text, cls in load((left_out,))
    ]


def choose_threshold(
    scored: list[tuple[str, bool, float]], budget: float
) -> tuple[float, float, float]:
    """The highest threshold (the most refusals) whose pooled out-of-fold false refusal of
    genuine items, the rules' own included, stays within ``budget``; with its refusal."""
    best = (0.05, 0.0, 0.0)
    for step in range(5, 61):
        t = step / 100
        genuine = [r or p < t for c, r, p in scored if c == "genuine"]
        forbidden = [r or p < t for c, r, p in scored if c != "genuine"]
        false = sum(genuine) / len(genuine)
        if false <= budget:
            best = (t, sum(forbidden) / len(forbidden), false)
    return best


def model_json(
    names: list[str], w: np.ndarray, b: np.ndarray, threshold: float, about: dict[str, object]
) -> str:
    keep = np.abs(w).max(axis=1) >= 0.01  # smaller weights never move a decision
    weights = {f: [round(float(v), 4) for v in w[i]] for i, f in enumerate(names) if keep[i]}
    return json.dumps(
        {
            "classes": list(CLASSES),
            "threshold": threshold,
            "bias": [round(float(v), 4) for v in b],
            "about": about,
            "weights": dict(sorted(weights.items())),
        },
        separators=(",", ":"),
        ensure_ascii=False,
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--threshold", type=float, default=None)
    ap.add_argument("--budget", type=float, default=0.025)
    ap.add_argument("--l2", type=float, default=1e-5)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    used = tuple(n for n in TRAINING if (DATA / n).exists())
    about: dict[str, object] = {"trained_on": list(used), "l2": a.l2, "epochs": EPOCHS}
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
            for name, rows in zip(used, pool.map(fold, [(n, a.l2) for n in used]), strict=True):
                print(f"  {name} left out: {len(rows)} items read", flush=True)
                scored += rows
        threshold, refused, false = choose_threshold(scored, a.budget)
        about["threshold_chosen_by"] = (
            f"leave-one-set-out cross-validation on the training sets: at {threshold:.2f}, "
            f"{refused:.3f} of forbidden items refused and {false:.3f} of genuine ones falsely "
            f"refused (rules and classifier, out of fold; budget {a.budget})"
        )
        print(about["threshold_chosen_by"])
    items = load(used)
    about["items"] = len(items)
    names, w, b = train(items, a.l2)
    text = model_json(names, w, b, threshold, about)
    if a.check:
        same = OUT.exists() and OUT.read_text() == text
        print("the shipped model is reproducible" if same else "the shipped model differs")
        raise SystemExit(0 if same else 1)
    OUT.write_text(text)
    print(f"{len(items)} items, {len(json.loads(text)['weights'])} features → {OUT}")


if __name__ == "__main__":
    main()
