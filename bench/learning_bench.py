"""The learning loop on LongMemEval oracle questions, as a sample workload for its mechanics.

    python bench/learning_bench.py PATH/longmemeval_oracle.json [--questions 200] [--teach 0.5]

A frozen test set of N questions (expected answer = the dataset's answer); knowledge starts
empty; a share of the questions is taught as approved lessons (question → answer, as a
support team would after seeing them unanswered); the same set is measured again. This
measures the loop's mechanics — answered rate before/after, correct rate, that untaught
questions stay silent — not a model's long-term memory.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import table
from memwise import Memwise, errors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("path", type=Path)
    ap.add_argument("--questions", type=int, default=200)
    ap.add_argument("--teach", type=float, default=0.5)
    args = ap.parse_args()
    data = json.loads(args.path.read_text())
    rng = random.Random(1)
    sample = rng.sample(data, min(args.questions, len(data)))
    with tempfile.TemporaryDirectory() as tmp:
        mw = Memwise.open(f"sqlite:///{tmp}/lme.db")
        ws, _ = mw.tenancy.create_workspace("LongMemEval", "UTC", "enterprise")
        items = [
            {"question": str(q["question"]), "expected_text": str(q["answer"])} for q in sample
        ]
        ts = mw.learning.freeze(ws.id, "longmemeval-oracle", items)
        t0 = time.perf_counter()
        before = mw.learning.evaluate(ws.id, ts.id)
        eval_s = time.perf_counter() - t0
        taught = rng.sample(items, int(len(items) * args.teach))
        t0 = time.perf_counter()
        refused = []
        for item in taught:
            try:
                lesson = mw.teaching.draft(ws.id, item["question"], item["expected_text"] or "—")
            except errors.Refused:  # the contact-details guard: shown below, not hidden
                refused.append(item)
                continue
            mw.teaching.approve(ws.id, lesson.id, approved_by="bench")
        teach_s = time.perf_counter() - t0
        after = mw.learning.evaluate(ws.id, ts.id)
        diff = mw.learning.compare(ws.id, before.id, after.id)
        taught_q = {i["question"] for i in taught}
        leaked = sum(r["answered"] for r in after.results if r["question"] not in taught_q)
        mw.close()
    table(
        "Learning loop on LongMemEval oracle questions",
        [
            "questions",
            "taught",
            "answered before",
            "answered after",
            "correct after",
            "untaught answered after",
            "eval s",
            "teach s",
        ],
        [
            [
                str(len(items)),
                str(len(taught)),
                f"{before.summary['answered_rate']:.1%}",
                f"{after.summary['answered_rate']:.1%}",
                f"{after.summary['correct_rate']:.1%}",
                str(leaked),
                f"{eval_s:.1f}",
                f"{teach_s:.1f}",
            ]
        ],
    )
    print(
        f"changed questions: {len(diff['changes'])}; lessons refused by the contact-details "
        f"guard: {len(refused)}"
    )
    for item in refused:
        print(f"  refused: {item['question'][:80]!r} → {item['expected_text'][:60]!r}")


if __name__ == "__main__":
    main()
