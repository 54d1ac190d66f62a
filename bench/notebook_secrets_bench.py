"""Notebook secret refusal: refusal rate on secret-bearing rules, false refusals on benign ones.

python bench/notebook_secrets_bench.py [tests/data/notebook_rules.json ...]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import table
from memwise._safety import secrets

DEFAULT = [
    Path(__file__).parent.parent / "tests" / "data" / n
    for n in ("notebook_rules.json", "notebook_rules_holdout.json")
]


def main() -> None:
    paths = [Path(p) for p in sys.argv[1:]] or DEFAULT
    rows = []
    for path in paths:
        data = json.loads(path.read_text())
        t0 = time.perf_counter()
        refused = [t for t in data["secret"] if secrets.find(t)]
        false = [t for t in data["benign"] if secrets.find(t)]
        took = (time.perf_counter() - t0) / (len(data["secret"]) + len(data["benign"]))
        rows.append(
            [
                path.name,
                str(len(data["secret"])),
                f"{len(refused) / len(data['secret']):.1%}",
                str(len(data["benign"])),
                f"{len(false) / len(data['benign']):.1%}",
                f"{took * 1e6:.0f}",
            ]
        )
        for t in sorted(set(data["secret"]) - set(refused)):
            print("missed:", t)
        for t in false:
            print("false refusal:", t)
    table(
        "Notebook secret refusal",
        ["set", "secret rules", "refused", "benign rules", "falsely refused", "µs per rule"],
        rows,
    )


if __name__ == "__main__":
    main()
