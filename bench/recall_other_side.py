"""Questions about what the other side said: "what was the move you made after 27. Kg2?"

    python bench/recall_other_side.py ../shared/bench/longmemeval/longmemeval_oracle.json \
        [--embedder none|local]
    python bench/recall_other_side.py --written SET.json [--embedder none|local]

A customer who asks what the assistant said or did ("can you remind me what you
recommended?", "did you arrange a car seat?") asks in the first person too, and a question in
the first person boosts the customer's own turns and damps the other side's long ones. The
ranking reads "you" having done something (``turns._YOU_DID``) as asking about the other
side, whatever "I" or "me" the question also holds.

LongMemEval's oracle file has 51 questions whose evidence is the assistant's turns only
(single-session-assistant; its turn-level figures elsewhere count the user's evidence
turns and leave these out). Each is ranked over its sessions, with the rule and with the
rule switched off (the previous reading: any "I" or "me" makes the question the
customer's), printing the share of evidence turns at 1, 3 and 10 per half (even, odd by
position in the file). Beside them, the questions with "you" whose evidence is the user's,
to see what the rule costs there.

A question asking to be reminded of something ("can you remind me of our flight times?",
"do you remember the deli near the Vatican?") says nothing of who said it unless the
customer is doing something in it ("…what I ordered"): the ranking reads it as either
side's, boosting neither and damping neither's long turns (``turns._REMIND``). Three
readings are printed: neither rule, "you" having done something only, and both.

Both rules were written after reading these questions, so neither half is held out from
them; bench/recall_heldout.py given a set written without sight of the rules is
the check that is.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from memwise._retrieval import turns
from memwise._retrieval.turns import TurnRecallConfig
from recall_generalise import (
    SHIPPED,
    SHIPPED_MEANING,
    Case,
    Meaning,
    Question,
    _lme_time,
    indexed,
    lme_turns,
    ranked,
)

AT = (1, 3, 10)


def cases(path: Path) -> dict[str, list[Case]]:
    """The questions whose evidence is the assistant's turns, and those with "you" whose
    evidence is the user's (abstentions left out), each with its sessions."""
    out: dict[str, list[Case]] = {"assistant's evidence": [], "user's evidence, with you": []}
    for q in json.loads(path.read_text()):
        if q["question_id"].endswith("_abs"):
            continue
        docs, users, theirs = lme_turns(q)
        now = _lme_time(q["question_date"])
        if theirs and not users:
            out["assistant's evidence"].append(
                Case(docs, [Question(q["question"], frozenset(theirs), now=now)])
            )
        elif users and turns._SECOND.search(q["question"]):
            out["user's evidence, with you"].append(
                Case(docs, [Question(q["question"], frozenset(users), now=now)])
            )
    return out


def written_cases(path: Path) -> dict[str, list[Case]]:
    """A set in bench/recall_heldout.py's form, its customer's questions by kind."""
    from recall_heldout import records

    out: dict[str, list[Case]] = {}
    for docs, asked in records(path):
        for q in asked:
            if q.by_customer:
                question = Question(q.text, q.evidence, now=q.at)
                out.setdefault(q.kind, []).append(Case(docs, [question]))
    return out


def shares(part: list[Case], config: TurnRecallConfig, meaning: Meaning | None) -> list[float]:
    found: dict[int, list[float]] = {k: [] for k in AT}
    for case, index in indexed(part, config, meaning):
        for q in case.questions:
            order = ranked(index, q, max(AT), meaning)
            for k in AT:
                found[k].append(len(q.turns & set(order[:k])) / len(q.turns))
    return [sum(v) / len(v) for v in found.values()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("longmemeval", type=Path, help="longmemeval_oracle.json (or --written)")
    parser.add_argument("--embedder", choices=("none", "local"), default="none")
    parser.add_argument(
        "--written",
        action="store_true",
        help="the file is a set in bench/recall_heldout.py's form: report it by kind, whole",
    )
    args = parser.parse_args(argv)
    sets = written_cases(args.longmemeval) if args.written else cases(args.longmemeval)
    halves = (
        ((slice(None), "all"),)
        if args.written
        else ((slice(0, None, 2), "even"), (slice(1, None, 2), "odd"))
    )
    meaning = None
    config = SHIPPED
    if args.embedder == "local":
        meaning, config = Meaning(), SHIPPED_MEANING
        meaning.fill([c for cs in sets.values() for c in cs])
    you_did, remind = turns._YOU_DID, turns._REMIND
    never = re.compile(r"(?!)")  # matches nothing: the rule switched off
    rules = {"neither": (never, never), "you did": (you_did, never), "both": (you_did, remind)}
    print(f"ranking: {'local embedder' if meaning else 'lexical'}; share of evidence turns\n")
    print("| questions | half | n | rules | @1 | @3 | @10 |")
    print("|---|---|---|---|---|---|---|")
    for name, cs in sets.items():
        for half, label in halves:
            part = cs[half]
            for rule, (turns._YOU_DID, turns._REMIND) in rules.items():
                try:
                    got = shares(part, config, meaning)
                finally:
                    turns._YOU_DID, turns._REMIND = you_did, remind
                figures = " | ".join(f"{g:.3f}" for g in got)
                print(f"| {name} | {label} | {len(part)} | {rule} | {figures} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
