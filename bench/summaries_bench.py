"""Session summaries on a set written blind: decisions and open points kept, forbidden
content, length — memwise's offline summariser against two plain baselines on the same data.

    python bench/summaries_bench.py [--set tools/datasets/summaries_blind_2.json] [--no-embedder]

Per conversation the set gives the turns, the decisions, the open points (each with words
any correct sentence about it must hold, and its resolved date), strings no summary may
hold, and a reference summary written by hand. A decision or open point counts as kept when
the summary holds all its words; its date as kept when the summary names that day (the day
and the month, or the ISO date). Baselines, same data, same scoring:

- ``asked-about``: the note memwise wrote before summaries ("Asked about: <first question>;
  last open question: …"), the customer's questions copied;
- ``lead-3``: the first three sentences the customer wrote, copied;
- ``reference``: the hand-written summary itself (a ceiling for the scoring).

Aggregates only: a set stays blind until someone reads its misses on purpose
(tools/datasets.toml).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import date, datetime
from pathlib import Path
from statistics import mean
from typing import Any
from zoneinfo import ZoneInfo

from _common import table
from memwise._extraction import summary
from memwise._extraction.types import Line
from memwise._retrieval import embedders
from memwise._text import parse

DEFAULT = Path(__file__).parents[1] / "tools" / "datasets" / "summaries_blind_2.json"


def transcript(conv: dict[str, Any]) -> list[Line]:
    return [
        Line(f"t{n}", t["role"], t["text"], datetime.fromisoformat(t["at"].replace("Z", "+00:00")))
        for n, t in enumerate(conv["turns"])
    ]


def names_day(text: str, iso: str) -> bool:
    day = date.fromisoformat(iso)
    low = text.lower()
    month, short = day.strftime("%B").lower(), day.strftime("%b").lower()
    for m in (month, short):
        for form in (f"{day.day} {m}", f"{m} {day.day}", f"{m} {day.day}th", f"{day.day}th {m}"):
            if form in low:
                return True
    return iso in text


def score(text: str, conv: dict[str, Any]) -> dict[str, Any]:
    low = text.lower()

    def kept(points: list[dict[str, Any]]) -> tuple[int, int, int]:
        words = sum(all(w.lower() in low for w in p["must_contain"]) for p in points)
        dated = [p for p in points if p.get("date")]
        days = sum(names_day(text, p["date"]) for p in dated)
        return words, days, len(dated)

    dw, dd, dn = kept(conv["decisions"])
    ow, od, on = kept(conv["open"])
    forbidden = sum(f.lower() in low for f in conv["forbidden"])
    sentences = len(parse.sentences(text)) if text.strip() else 0
    return {
        "decisions": (dw, len(conv["decisions"]), dd, dn),
        "open": (ow, len(conv["open"]), od, on),
        "forbidden": forbidden,
        "chars": len(text),
        "sentences": sentences,
        "stored": bool(text.strip()),
    }


def spread(values: list[int], form: str) -> str:
    return f"{mean(values):{form}} (max {max(values)})"


def asked_about(conv: dict[str, Any]) -> str:
    lines = transcript(conv)
    questions = [
        s
        for line in lines
        if line.role == "customer"
        for s in parse.sentences(line.text)
        if s.strip().endswith("?")
    ]
    if not questions:  # the note memwise wrote before summaries, as it was
        return ""
    text = f"Asked about: {questions[0].rstrip('?')}"
    if len(questions) > 1:
        text += f"; last open question: {questions[-1].rstrip('?')}"
    return text[:480]


def lead3(conv: dict[str, Any]) -> str:
    out: list[str] = []
    for t in conv["turns"]:
        if t["role"] == "customer":
            out += [s.strip() for s in parse.sentences(t["text"]) if s.strip()]
    return " ".join(out[:3])


def ours(conv: dict[str, Any], embedder: Any) -> str:
    made = summary.summarise(transcript(conv), ZoneInfo(conv["timezone"]), embedder)
    return made.text if made else ""


def closes_report(convs: list[dict[str, Any]], embedder: Any) -> None:
    """Open points closed by a later conversation of the same customer: of the labelled
    closings, how many memwise marks (its earlier summary must hold that point, by its
    words, and the later conversation must close it); and how many marks no label names."""
    made = {
        c["id"]: summary.summarise(transcript(c), ZoneInfo(c["timezone"]), embedder) for c in convs
    }
    by_id = {c["id"]: c for c in convs}
    labelled = {(x["conversation"], x["open_index"], c["id"]) for c in convs for x in c["closes"]}
    caught = wrong = held = 0
    for later in sorted(convs, key=lambda c: c["turns"][0]["at"]):
        now = made[later["id"]]
        if now is None:
            continue
        new = [s.quote for s in now.sentences] + [s.text for s in now.sentences]
        for earlier in convs:
            if (
                earlier["customer"] != later["customer"]
                or earlier["turns"][0]["at"] >= later["turns"][0]["at"]
            ):
                continue
            before = made[earlier["id"]]
            points = [s for s in (before.sentences if before else []) if s.part == "open"]
            closed = summary.closing([p.quote for p in points], new, embedder)
            for i in closed:
                # which labelled open point is this sentence about (its words)?
                about = [
                    n
                    for n, o in enumerate(by_id[earlier["id"]]["open"])
                    if all(w.lower() in points[i].text.lower() for w in o["must_contain"])
                ]
                if any((earlier["id"], n, later["id"]) in labelled for n in about):
                    caught += 1
                else:
                    wrong += 1
    for e, n, _ in labelled:
        before = made[e]
        words = by_id[e]["open"][n]["must_contain"]
        held += bool(before) and any(
            s.part == "open" and all(w.lower() in s.text.lower() for w in words)
            for s in before.sentences
        )
    print(
        f"closings: {len(labelled)} labelled; the earlier summary held the point in {held}; "
        f"memwise marked {caught} of them closed; {wrong} marks no label names"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--set", type=Path, default=DEFAULT)
    ap.add_argument("--no-embedder", action="store_true", help="the parse-only fallback")
    ap.add_argument(
        "--per-summary", action="store_true", help="a row per conversation (counts only)"
    )
    args = ap.parse_args(argv)
    convs = json.loads(args.set.read_text())["conversations"]
    embedder = None if args.no_embedder else embedders.shipped()
    systems = {
        f"memwise ({'meaning' if embedder else 'parse'})": lambda c: ours(c, embedder),
        "asked-about (before)": asked_about,
        "lead-3": lead3,
        "reference (hand)": lambda c: c["reference_summary"],
    }
    rows = []
    per: dict[str, list[dict[str, Any]]] = {}
    for name, system in systems.items():
        started = time.perf_counter()
        results = [score(system(c), c) for c in convs]
        took = (time.perf_counter() - started) / len(convs) * 1000
        per[name] = results

        def total(part: str, i: int, res: list[dict[str, Any]] = results) -> int:
            return sum(r[part][i] for r in res)

        rows.append(
            [
                name,
                f"{total('decisions', 0)}/{total('decisions', 1)}",
                f"{total('decisions', 2)}/{total('decisions', 3)}",
                f"{total('open', 0)}/{total('open', 1)}",
                f"{total('open', 2)}/{total('open', 3)}",
                str(sum(r["forbidden"] for r in results)),
                f"{sum(r['stored'] for r in results)}/{len(results)}",
                spread([r["sentences"] for r in results], ".1f"),
                spread([r["chars"] for r in results], ".0f"),
                f"{took:.0f}",
            ]
        )
    table(
        f"Session summaries · {args.set.name} · {len(convs)} conversations",
        [
            "system",
            "decisions kept",
            "their dates",
            "open points kept",
            "their dates",
            "forbidden",
            "stored",
            "sentences",
            "characters",
            "ms/conv",
        ],
        rows,
    )
    if args.per_summary:
        mine = next(iter(per))
        table(
            f"{mine}, per summary",
            [
                "conversation",
                "decisions kept",
                "open points kept",
                "forbidden",
                "sentences",
                "chars",
            ],
            [
                [
                    c["id"],
                    f"{r['decisions'][0]}/{r['decisions'][1]}",
                    f"{r['open'][0]}/{r['open'][1]}",
                    str(r["forbidden"]),
                    str(r["sentences"]),
                    str(r["chars"]),
                ]
                for c, r in zip(convs, per[mine], strict=True)
            ],
        )
    closes_report(convs, embedder)
    first = next(iter(per))
    for other in list(per)[1:3]:
        diff = [
            (a["decisions"][0] + a["open"][0]) - (b["decisions"][0] + b["open"][0])
            for a, b in zip(per[first], per[other], strict=True)
        ]
        better = sum(d > 0 for d in diff)
        worse = sum(d < 0 for d in diff)
        print(
            f"paired, points kept per conversation, {first} − {other}: "
            f"mean {mean(diff):+.2f}; better on {better}, worse on {worse}, "
            f"equal on {len(diff) - better - worse}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
