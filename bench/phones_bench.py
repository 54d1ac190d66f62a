"""Telephone numbers in business text: found, and other numbers not taken for them.

    python bench/phones_bench.py [--set tools/datasets/phones_blind_1.json]

Each text of the set belongs to a business in one country (its timezone says which); every
text goes through ``memwise._safety.pii.find`` in a workspace of that timezone, as knowledge,
lessons and the question book do. A labelled number is *found* when a phone span the
detector reports covers at least 80 % of its characters; every reported phone span that
covers no labelled number is a *false alarm*. Aggregates only: the set stays blind.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import table
from memwise import Memwise
from memwise._safety import pii

ROOT = Path(__file__).parent.parent


def covered(span: tuple[int, int], by: tuple[int, int]) -> float:
    overlap = max(0, min(span[1], by[1]) - max(span[0], by[0]))
    return overlap / max(1, span[1] - span[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=ROOT / "tools/datasets/phones_blind_1.json")
    args = parser.parse_args(argv)
    texts = json.loads(args.set.read_text())["texts"]
    mw = Memwise.open("sqlite:///:memory:")
    spaces: dict[str, str] = {}
    c: Counter[str] = Counter()
    try:
        for t in texts:
            zone = t["timezone"]
            if zone not in spaces:
                spaces[zone] = mw.tenancy.create_workspace(f"Shop {zone}", zone)[0].id
            with mw.rt.db.read() as conn:
                found = [
                    f.span for f in pii.find(conn, spaces[zone], t["text"]) if f.kind == "phone"
                ]
            wanted, at = [], 0
            for phone in t["phones"]:
                start = t["text"].index(phone, at)
                wanted.append((start, start + len(phone)))
                at = start + len(phone)
            c["texts"] += 1
            c["phones"] += len(wanted)
            c["found"] += sum(any(covered(w, f) >= 0.8 for f in found) for w in wanted)
            alarms = sum(not any(covered(w, f) > 0 for w in wanted) for f in found)
            c["false alarms"] += alarms
            if not wanted:
                c["texts without a phone"] += 1
                c["of them with a false alarm"] += alarms > 0
    finally:
        mw.close()
    table(
        f"Telephone numbers in {args.set.name}",
        ["measure", "value"],
        [
            ["phone numbers found", f"{c['found'] / c['phones']:.3f} ({c['found']}/{c['phones']})"],
            ["false alarms (spans on no phone number)", str(c["false alarms"])],
            [
                "texts without a phone with a false alarm",
                f"{c['of them with a false alarm']}/{c['texts without a phone']}",
            ],
        ],
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
