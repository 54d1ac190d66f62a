"""Dates said in German, French and Spanish, resolved by the date module.

    python bench/dates_multi.py [--set tools/datasets/language_multi_blind_1.json]

For each dated fact of the set (its day, and its time where it has one, labelled by the
hand that wrote the conversation), the date wordings dateparser's search finds in the
customer's turn, in the turn's language, are resolved as said at the turn's time in the
conversation's timezone — each wording alone, and the span from the first to the last
(a day and a time said apart: "am Freitag, den 13. März um 14 Uhr"). A fact's day is right
when one of them resolves to it, its time when one resolves to both. Two readings side by
side on the same wordings: as English (what a configured model's dates got before the
resolver took a language) and in the turn's own language. Aggregates only.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import dateparser

sys.path.insert(0, str(Path(__file__).parent))

from _common import table
from memwise._extraction.dates import resolve
from memwise._text import dates as text_dates

ROOT = Path(__file__).parent.parent
DEFAULT = ROOT / "tools" / "datasets" / "language_multi_blind_1.json"


def phrases(turn: str, language: str) -> list[str]:
    found = text_dates.candidates(turn, language)
    at = [(turn.find(p), p) for p in found if turn.find(p) >= 0]
    if len(at) > 1:
        start, end = min(a for a, _ in at), max(a + len(p) for a, p in at)
        found.append(turn[start:end])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=DEFAULT)
    args = parser.parse_args()
    conversations = json.loads(args.set.read_text())["conversations"]
    c: Counter[str] = Counter()
    for conv in conversations:
        lang, zone = conv["lang"], ZoneInfo(conv["timezone"])
        for f in conv.get("facts", []):
            if not f.get("when"):
                continue
            turn = conv["turns"][f["turn"]]
            at = datetime.fromisoformat(turn["at"].replace("Z", "+00:00"))
            want_day, want_time = f["when"]["date"], f["when"].get("time")
            c[f"{lang} dated"] += 1
            c[f"{lang} timed"] += bool(want_time)
            found = phrases(turn["text"], lang)
            c[f"{lang} with a wording"] += bool(found)
            if f.get("said"):  # the library out of the box, on the words that say it
                local = at.astimezone(zone).replace(tzinfo=None)
                settings = {"RELATIVE_BASE": local, "PREFER_DATES_FROM": "future"}
                plain = dateparser.parse(f["said"], languages=[lang], settings=settings)
                value = plain.isoformat() if plain is not None else ""
                c[f"{lang} plain said day"] += value[:10] == want_day
                c[f"{lang} plain said time"] += bool(want_time) and value[:16] == (
                    f"{want_day}T{want_time}"
                )
            for reading in ("en", lang):
                got = [resolve(p, at, zone, turn["text"], reading) for p in found]
                values = [g.value for g in got if g is not None]
                c[f"{lang} {reading == 'en'} day"] += any(v[:10] == want_day for v in values)
                if want_time:
                    full = f"{want_day}T{want_time}"
                    c[f"{lang} {reading == 'en'} time"] += any(v[:16] == full for v in values)
                if f.get("said"):  # the words that say it, as a model quotes them
                    one = resolve(f["said"], at, zone, turn["text"], reading)
                    value = one.value if one is not None else ""
                    c[f"{lang} {reading == 'en'} said day"] += value[:10] == want_day
                    if want_time:
                        c[f"{lang} {reading == 'en'} said time"] += value[:16] == full
    rows = []
    for lang in ("de", "fr", "es"):
        n, t = c[f"{lang} dated"], c[f"{lang} timed"]
        rows.append(
            [
                lang,
                str(n),
                f"{c[f'{lang} with a wording']}",
                f"{c[f'{lang} True day'] / n:.2f} ({c[f'{lang} True day']})",
                f"{c[f'{lang} False day'] / n:.2f} ({c[f'{lang} False day']})",
                f"{c[f'{lang} True time']}/{t}",
                f"{c[f'{lang} False time']}/{t}",
            ]
        )
    if c["de True said day"] + c["de False said day"] + c["fr False said day"]:
        table(
            f"Dates in {args.set.name}: the words that say each one, resolved alone",
            [
                "language",
                "day: dateparser",
                "as English",
                "in English words",
                "time: dateparser",
                "as English",
                "in English words",
            ],
            [
                [
                    lang,
                    f"{c[f'{lang} plain said day'] / c[f'{lang} dated']:.2f}",
                    f"{c[f'{lang} True said day'] / c[f'{lang} dated']:.2f}",
                    f"{c[f'{lang} False said day'] / c[f'{lang} dated']:.2f}",
                    f"{c[f'{lang} plain said time']}/{c[f'{lang} timed']}",
                    f"{c[f'{lang} True said time']}/{c[f'{lang} timed']}",
                    f"{c[f'{lang} False said time']}/{c[f'{lang} timed']}",
                ]
                for lang in ("de", "fr", "es")
            ],
        )
    table(
        f"Dates in {args.set.name}: the day (and time) of each dated fact",
        [
            "language",
            "dated",
            "a wording found",
            "day, as English",
            "day, own language",
            "time, as English",
            "time, own language",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
