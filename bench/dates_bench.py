"""Date resolution accuracy on the Recognizers-Text English parser specs.

    python bench/dates_bench.py PATH/TO/shared/bench/dates

Each case gives a span ("tomorrow", "next friday at 5pm") and a reference time; we resolve the
span and compare with the spec's future reading (day, and time when the spec has one).
Cases whose expected value follows a convention we chose differently are counted apart.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).parent))

from _common import table
from memwise._extraction.dates import resolve

UTC = ZoneInfo("UTC")
FILES = ("recognizers_en_DateParser.json", "recognizers_en_DateTimeParser.json")


def expected(result: dict) -> str | None:
    future = (result.get("Value") or {}).get("FutureResolution") or {}
    return future.get("date") or future.get("dateTime")


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("../shared/bench/dates")
    rows = []
    misses: Counter[str] = Counter()
    for name in FILES:
        cases = json.loads((root / name).read_text(encoding="utf-8-sig"))
        total = day_ok = full_ok = 0
        for case in cases:
            results = case.get("Results") or []
            ref = (case.get("Context") or {}).get("ReferenceDateTime")
            if not results or not ref or not expected(results[0]):
                continue
            want = expected(results[0]) or ""
            said = datetime.fromisoformat(ref).replace(tzinfo=UTC)
            got = resolve(results[0]["Text"], said, UTC)
            total += 1
            if got and got.value[:10] == want[:10]:
                day_ok += 1
                if len(want) <= 10 or (got.has_time and got.value[11:16] == want[11:16]):
                    full_ok += 1
                    continue
            misses[results[0]["Text"].lower()] += 1
        rows.append(
            [
                name.removeprefix("recognizers_en_").removesuffix(".json"),
                str(total),
                f"{day_ok / total:.1%}",
                f"{full_ok / total:.1%}",
            ]
        )
    table(
        "Date resolution (future reading, reference times as given)",
        ["spec", "cases", "right day", "right day and time"],
        rows,
    )
    print("most frequent misses:", ", ".join(f"{k!r}" for k, _ in misses.most_common(25)))


if __name__ == "__main__":
    main()
