"""The quote-and-grounding harness on labelled sets: how much of what a customer stated it
keeps, and how much of what they did not it discards, per category.

python bench/harness_bench.py [SET.json ...] [--show-errors]

Each case is one customer turn, the quote an extractor gives and the item it proposes, labelled
keep or discard (tests/data/harness_set_*.json; the file's "about" says how it was made and
used). The case goes through ``memwise._extraction.harness.verify`` as a fact.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

from _common import table
from memwise._extraction import harness
from memwise._extraction.types import Line, Proposal

DATA = Path(__file__).parent.parent / "tests" / "data"
AT = datetime(2026, 11, 29, 9, tzinfo=UTC)


def kept(case: dict[str, str]) -> bool:
    turn = [Line("t1", "customer", case["turn"], AT)]
    proposal = Proposal("fact", case["item"], [case["quote"]])
    return bool(harness.verify([proposal], [], turn).items)


def measure(path: Path, show_errors: bool) -> list[list[str]]:
    cases = json.loads(path.read_text())["cases"]
    right: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for case in cases:
        ok = kept(case) == (case["label"] == "keep")
        for key in (case["label"], case["cat"]):
            right[key][0] += ok
            right[key][1] += 1
        if show_errors and not ok:
            print(
                f"  {path.name} [{case['cat']}] {case['turn']!r} | {case['quote']!r}"
                f" → {case['item']!r}"
            )
    rows = []
    for key in ["keep", "discard", *sorted(k for k in right if k not in ("keep", "discard"))]:
        a, n = right[key]
        what = {"keep": "kept (of what was stated)", "discard": "discarded (of what was not)"}
        rows.append([path.stem, what.get(key, key), f"{a}/{n}", f"{a / n:.3f}"])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="*", type=Path)
    parser.add_argument("--show-errors", action="store_true")
    args = parser.parse_args()
    sets = args.sets or sorted(DATA.glob("harness_set_*.json"))
    rows = [row for path in sets for row in measure(path, args.show_errors)]
    table(
        "The quote-and-grounding harness on labelled sets", ["set", "cases", "right", "rate"], rows
    )


if __name__ == "__main__":
    main()
