"""Instruction flagging on the injection sets: detection on attacks, false flags on benign text.

    python bench/injection_bench.py PATH/TO/shared/bench/injection

CyberSecEval's ``user_input`` and every BIPIA text attack are attacks; NotInject's prompts
are benign questions full of trigger words ("ignore", "bypass" …).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import table
from memwise._safety import instructions


def load(root: Path) -> dict[str, tuple[list[str], bool]]:
    cse = [
        c["user_input"]
        for c in json.loads((root / "cyberseceval_prompt_injection.json").read_text())
    ]
    bipia = [
        s
        for name in ("bipia_text_attack_train.json", "bipia_text_attack_test.json")
        for group in json.loads((root / name).read_text()).values()
        for s in group
    ]
    benign = [
        c["prompt"]
        for n in ("one", "two", "three")
        for c in json.loads((root / f"notinject_{n}.json").read_text())
    ]
    return {
        "CyberSecEval attacks": (cse, True),
        "BIPIA text attacks": (bipia, True),
        "NotInject benign": (benign, False),
    }


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("../shared/bench/injection")
    rows = []
    for name, (texts, attack) in load(root).items():
        flagged = [t for t in texts if instructions.scan(t)]
        kinds = Counter(f.kind for t in flagged for f in instructions.scan(t))
        rate = len(flagged) / len(texts)
        rows.append(
            [
                name,
                str(len(texts)),
                f"{rate:.1%}",
                "detection" if attack else "false flags",
                ", ".join(f"{k} {n}" for k, n in kinds.most_common(4)),
            ]
        )
    table("Instruction flagging", ["set", "strings", "flagged", "meaning", "top flags"], rows)


if __name__ == "__main__":
    main()
