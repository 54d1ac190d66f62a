"""Record recall on businesses' records: the rules for a business's replies, before and after.

    python bench/recall_business.py tests/data/recall_business_3.json [--embedder none|local] \
        [--public PATH/locomo10.json PATH/longmemeval_oracle.json]
    python bench/recall_business.py --grid PATH/locomo10.json PATH/longmemeval_oracle.json

LoCoMo and LongMemEval are personal chats: what the user said is the evidence, and a chat
assistant's long replies are elaboration. In a business's records the reply holds the answer
(a price, a time, a reference) and the customer asks in the first person about their own
things ("when does my contract finish?"). Four readings of the ranking, side by side on the
same turns and the same metric (recall@10, per kind of question):

- plain BM25 over every turn;
- before: the ranking chosen on LoCoMo and LongMemEval alone (every turn of the other side
  longer than twice the customer's typical turn damped, no answer lift, no reminding);
- floor 40 + remind: a turn is never long under 40 words, and a question asking to be
  reminded of something boosts and damps neither side;
- shipped: the floor at 60 words, and the other side's reply to a turn asking something
  ranking at least at 0.8 of it when it is at most 100 words (chosen by ``--grid``).

With ``--embedder local`` each reading also runs with the local MiniLM (sentence vectors and
word pieces, as ``History`` ranks with ``MEMWISE_EMBEDDER=local``). ``--public`` adds the
lexical readings on the public halves none of them was chosen on (LoCoMo 5–9, LongMemEval's
odd questions).

``--grid`` prints the 40 variants the shipped settings were chosen from: answer share 0 / 0.5
/ 0.8 × its cap 60 / 100 words × a neighbour rule not kept (a turn over 20 words taking its
neighbours' words at ×20/length) × the floor 40 / 60 × the voice boost 0.6 / 0.3, scored by
the mean of three parts, each a third: LoCoMo 0–4 recall@10, LongMemEval's even questions'
turn recall@10, and the mean recall@10 over the three written sets of business records used
for tuning (recall_heldout_1, recall_remind_1, recall_business_2). recall_business_3 was
written by another hand afterwards, and measured once with every reading above in one run.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from memwise.retrieval import turns
from memwise.retrieval.turns import TurnIndex, TurnRecallConfig
from recall_generalise import (
    PLAIN,
    indexed,
    locomo_samples,
    longmemeval_metrics,
    longmemeval_samples,
    share_at_10,
)
from recall_heldout import Meaning, embedded, records, shares

NEVER = re.compile(r"(?!)")  # matches nothing: a rule switched off
READINGS: dict[str, tuple[dict[str, Any] | None, bool]] = {  # changes, reminding read
    "plain BM25": (None, False),
    "before (LoCoMo and LongMemEval alone)": ({"long_floor": 0.0, "answer_share": 0.0}, False),
    "floor 40 + remind": ({"long_floor": 40.0, "answer_share": 0.0}, True),
    "shipped": ({}, True),
}
TUNING_SETS = ("recall_heldout_1", "recall_remind_1", "recall_business_2")
DATA = Path(__file__).parents[1] / "tests" / "data"


def config(changes: dict[str, Any] | None, dense: bool) -> TurnRecallConfig:
    if changes is None:
        return PLAIN
    return replace(TurnRecallConfig(dense_weight=1.0 if dense else 0.0), **changes)


def written_recall(
    data: list[Any], cfg: TurnRecallConfig, meaning: Meaning | None = None
) -> dict[str, float]:
    """Recall@10 over a written set, overall and per kind of question."""
    kinds = [q.kind for _, asked in data for q in asked]
    got: dict[str, list[float]] = {}
    for kind, share in zip(kinds, shares(data, cfg, meaning), strict=True):
        got.setdefault("all", []).append(share)
        got.setdefault(kind, []).append(share)
    return {k: sum(v) / len(v) for k, v in got.items()}


def compare(args: argparse.Namespace) -> None:
    data = records(args.set)
    meaning = embedded(data) if args.embedder == "local" else None
    kinds = list(written_recall(data, PLAIN))
    print(f"{args.set.name}: {sum(len(a) for _, a in data)} questions, recall@10\n")
    head = " / ".join(kinds)
    print(f"| reading | lexical: {head} |" + (f" local embedder: {head} |" if meaning else ""))
    print("|---|---|" + ("---|" if meaning else ""))
    remind = turns._REMIND
    for name, (changes, reminding) in READINGS.items():
        turns._REMIND = remind if reminding else NEVER
        try:
            cells = [written_recall(data, config(changes, False))]
            if meaning is not None and changes is not None:
                cells.append(written_recall(data, config(changes, True), meaning))
        finally:
            turns._REMIND = remind
        row = " | ".join(" / ".join(f"{c[k]:.3f}" for k in kinds) for c in cells)
        print(f"| {name} | {row} |" + (" — |" if meaning is not None and changes is None else ""))
    if args.public:
        locomo, lme = args.public
        b = locomo_samples(locomo)[5:]
        odd = longmemeval_samples(lme)[1]
        print("\nlexical, on the halves none was chosen on")
        print("| reading | LoCoMo 5–9 recall@10 | LongMemEval odd: turn recall@10 | all@5 |")
        print("|---|---|---|---|")
        for name, (changes, reminding) in READINGS.items():
            turns._REMIND = remind if reminding else NEVER
            try:
                cfg = config(changes, False)
                m = longmemeval_metrics(odd, cfg)
                row = f"{share_at_10(indexed(b, cfg)):.3f} | {m['turn share@10']:.3f}"
                print(f"| {name} | {row} | {m['turn all@5']:.3f} |", flush=True)
            finally:
                turns._REMIND = remind


def grid(locomo: Path, lme: Path) -> None:
    a = locomo_samples(locomo)[:5]
    even = longmemeval_samples(lme)[0]
    sets = [records(DATA / f"{name}.json") for name in TUNING_SETS]
    choices = {
        "answer_share": (0.0, 0.5, 0.8),
        "answer_cap": (60.0, 100.0),
        "neighbour_own": (0.0, 20.0),
        "long_floor": (40.0, 60.0),
        "voice_boost": (0.6, 0.3),
    }
    print("| objective | LoCoMo 0–4 | LongMemEval even | business sets | variant |")
    print("|---|---|---|---|---|")
    for values in itertools.product(*choices.values()):
        changes = dict(zip(choices, values, strict=True))
        if not changes["answer_share"] and changes["answer_cap"] != 60.0:
            continue  # the cap means nothing without the lift
        own = changes.pop("neighbour_own")
        cfg = config(changes, False)
        with _neighbour_own(own):
            la = share_at_10(indexed(a, cfg))
            le = longmemeval_metrics(even, cfg)["turn share@10"]
            business = sum(written_recall(s, cfg)["all"] for s in sets) / len(sets)
        changes["neighbour_own"] = own
        described = ", ".join(f"{k}={v}" for k, v in changes.items())
        print(
            f"| {(la + le + business) / 3:.4f} | {la:.3f} | {le:.3f} | {business:.3f} | "
            f"{described} |",
            flush=True,
        )


class _neighbour_own:
    """The neighbour rule not kept, put in for the grid alone: a turn longer than ``words``
    takes its neighbours' words at ×words/length."""

    def __init__(self, words: float) -> None:
        self.words = words
        self.original = TurnIndex._neighbours

    def __enter__(self) -> None:
        if not self.words:
            return
        words, original = self.words, self.original

        def neighbours(index: TurnIndex, i: int, spans: list[tuple[int, int]]) -> list:
            own = float(index.lengths[i])
            scale = words / own if own > words else 1.0
            return [(j, distance / scale) for j, distance in original(index, i, spans)]

        TurnIndex._neighbours = neighbours  # type: ignore[method-assign]

    def __exit__(self, *exc: object) -> None:
        TurnIndex._neighbours = self.original  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("set", type=Path, nargs="?", default=DATA / "recall_business_3.json")
    parser.add_argument("--embedder", choices=("none", "local"), default="none")
    parser.add_argument("--public", type=Path, nargs=2, metavar=("LOCOMO", "LONGMEMEVAL"))
    parser.add_argument("--grid", type=Path, nargs=2, metavar=("LOCOMO", "LONGMEMEVAL"))
    args = parser.parse_args(argv)
    if args.grid:
        grid(*args.grid)
    else:
        compare(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
