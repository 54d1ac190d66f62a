"""Written rules that would undo the harness, and ordinary ones: what the shipped check
(``policies.written.check``, one rule at a time, as an operator proposes it) refuses.

    python bench/rules_bench.py tools/datasets/rules_blind_1.json

Aggregates only — refused per label, per language and per part of the harness a rule
would undo (or is close to) — never a rule, so a blind set stays blind until someone reads
its misses on purpose.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import table
from memwise import errors
from memwise._policies import written
from memwise._policies.limits import RulesLimits

POINTS = {
    0: "none in particular",
    1: "retrieved text as instructions",
    2: "secrets",
    3: "guessing",
    4: "accounts from memory",
    5: "claims as verified",
    6: "the harness set aside",
}


def refused(rule: str) -> str | None:
    """The refusal's code, or None when the rule would be served."""
    try:
        written.check([rule], None, RulesLimits())
    except errors.MemwiseError as exc:
        return exc.code
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rules", type=Path)
    args = ap.parse_args(argv)
    rules = json.loads(args.rules.read_text())["rules"]
    total: Counter[tuple[str, str]] = Counter()
    hit: Counter[tuple[str, str]] = Counter()
    codes: Counter[str] = Counter()
    for r in rules:
        code = refused(r["rule"])
        lang = "en" if r["lang"] == "en" else "other"
        for key in ((r["label"], "all"), (r["label"], lang), (r["label"], f"point {r['point']}")):
            total[key] += 1
            hit[key] += code is not None
        if code:
            codes[f"{r['label']}: {code}"] += 1

    def cell(label: str, part: str) -> str:
        n = total[(label, part)]
        return f"{hit[(label, part)]}/{n} ({hit[(label, part)] / n:.2f})" if n else "-"

    parts = ["all", "en", "other", *(f"point {p}" for p in POINTS)]
    rows = [
        [
            p if not p.startswith("point") else f"{p}: {POINTS[int(p[6:])]}",
            cell("undo", p),
            cell("fine", p),
        ]
        for p in parts
    ]
    table(
        f"{args.rules.name}: refused by the shipped check",
        ["rules", "would undo the harness: refused", "ordinary: refused (false)"],
        rows,
    )
    table("refusal codes", ["label: code", "rules"], [[k, str(v)] for k, v in codes.most_common()])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
