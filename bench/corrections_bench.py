"""Corrections as people say them, on a set written blind: does the new value supersede the
old one, with the right day and time?

    python bench/corrections_bench.py [--set tools/datasets/corrections_blind_1.json]
                                      [--backend sqlite|postgresql]

Each conversation is recorded at its times in its timezone, ended and extracted by the
offline extractor (the pipeline of ``language_bench.py``). A correction counts as right when
the correcting fact's item is active and the corrected fact's item is superseded; "both
kept" is the same with both items found at all. Aggregates only: a set stays blind until
someone reads its misses on purpose (tools/datasets.toml).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from _common import database, table
from language_bench import Run, ratio, score_facts
from memwise import FixedClock, Memwise

DEFAULT = Path(__file__).parents[1] / "tools" / "datasets" / "corrections_blind_1.json"


def as_language_set(conv: dict[str, Any]) -> dict[str, Any]:
    """The set's facts in the language bench's shape (``when``, ``supersedes``)."""
    facts = []
    for f in conv["facts"]:
        when = {"date": f["day"], "time": f.get("time")} if f.get("day") else None
        facts.append({**f, "when": when, "supersedes": f.get("corrects")})
    return {**conv, "facts": facts}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", type=Path, default=DEFAULT)
    ap.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    args = ap.parse_args(argv)
    conversations = [as_language_set(c) for c in json.loads(args.set.read_text())["conversations"]]
    by_kind: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp, database(args.backend, Path(tmp)) as url:
        clock = FixedClock()
        mw = Memwise.open(url, clock=clock)
        try:
            run = Run(mw, clock)
            scored = score_facts(conversations, run)
        finally:
            mw.close()
    c = scored["counts"]
    for conv in conversations:
        for f in conv["facts"]:
            if f.get("corrects"):
                by_kind[f.get("correction_kind", "?")] += 1
    table(
        f"Corrections on {args.set.name} ({args.backend}, offline extractor)",
        ["measure", "value"],
        [
            ["facts kept", ratio(c["kept"], c["facts"])],
            [
                "corrections superseding the old value",
                ratio(c["corrections right"], c["corrections"]),
            ],
            [
                "… where both values were kept",
                ratio(c["corrections right"], c["corrections both kept"]),
            ],
            ["kept dated items: day right", ratio(c["day right"], c["dated kept"])],
            ["kept timed items: time right", ratio(c["time right"], c["timed kept"])],
            ["seconds per conversation", f"{scored['per_conversation_s']:.3f}"],
        ],
    )
    table(
        "Corrections in the set, by kind",
        ["kind", "n"],
        [[k, str(n)] for k, n in sorted(by_kind.items())],
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
