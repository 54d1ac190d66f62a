"""Secrets and national identifiers in customer messages, on a blind set.

    python bench/secrets_bench.py [tools/datasets/secrets_blind_1.json]

For each message with a secret: is it found, and is the labelled value masked by what was
found (``secrets.redact`` leaves none of its digits or letters)? For each message without
one: is anything found (a false alarm)? Aggregates only: the set stays blind.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import table
from memwise._safety import secrets

SET = Path(__file__).parents[1] / "tools" / "datasets" / "secrets_blind_1.json"


def masked(text: str, value: str) -> bool:
    """Whether redaction leaves no run of four of the value's characters in the text."""
    kept = secrets.redact(text)
    core = re.sub(r"[\s.\-/]", "", value)
    plain = re.sub(r"[\s.\-/]", "", kept)
    return not any(core[i : i + 4] in plain for i in range(max(1, len(core) - 3)))


def main() -> None:
    cases = json.loads(Path(sys.argv[1] if len(sys.argv) > 1 else SET).read_text())["cases"]
    by_kind: Counter[str] = Counter()
    found_kind: Counter[str] = Counter()
    masked_kind: Counter[str] = Counter()
    alarms = negatives = 0
    for case in cases:
        hits = secrets.find(case["text"])
        if case["secret"]:
            by_kind[case["kind"]] += 1
            found_kind[case["kind"]] += bool(hits)
            masked_kind[case["kind"]] += bool(hits) and masked(case["text"], case["value"])
        else:
            negatives += 1
            alarms += bool(hits)
    rows = [
        [k, str(n), f"{found_kind[k] / n:.2f}", f"{masked_kind[k] / n:.2f}"]
        for k, n in sorted(by_kind.items())
    ]
    total = sum(by_kind.values())
    rows.append(
        [
            "all secrets",
            str(total),
            f"{sum(found_kind.values()) / total:.2f}",
            f"{sum(masked_kind.values()) / total:.2f}",
        ]
    )
    table(
        "Secrets found and masked (secrets_blind_1, blind)",
        ["kind", "cases", "found", "masked"],
        rows,
    )
    table(
        "False alarms on messages without a secret",
        ["messages", "with a finding", "share"],
        [[str(negatives), str(alarms), f"{alarms / negatives:.2f}"]],
    )


if __name__ == "__main__":
    main()
