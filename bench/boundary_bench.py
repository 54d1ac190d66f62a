"""The memory write boundary on labelled sets: refusal of what may never be memory, and false
refusal of genuine customer facts and preferences, per class and per set.

python bench/boundary_bench.py [--injection PATH/shared/bench/injection] [--show-misses]

Sets, in tests/data: boundary_dev.json (the rules were written against it);
boundary_holdout.json (written separately, without the rules; measured once at 0.725, then
used to widen the rules: a tuning set now); boundary_holdout2.json (written separately
again; measured once at 0.837, then tuned on too); boundary_holdout3.json (written
separately a third time; measured once at 0.815 for the rules, then the set the learned
classifier's settings were chosen on, and trained on); boundary_train_a.json and
boundary_train_b.json (training sets for the learned classifier, written for it);
boundary_holdout4.json (written separately a fourth time, before the learned classifier
existed, by hands that saw neither the rules nor any other set; measured once, then trained
on); boundary_holdout5.json (written a fifth time, after the classifier, by hands that saw
neither the rules, the classifier nor any other set; measured once against the model of
that time, then trained on); boundary_holdout6.json (written a sixth time the same way;
measured once, then the rules were widened on its misses and it was trained on);
boundary_train_c.json and boundary_train_d.json (training sets written blind for the
classifier); boundary_holdout7.json to boundary_holdout10.json (written blind by four
separate hands, 7 and 8 before the last widening of the rules and 9 and 10 alongside it;
never trained or tuned on: the figures to quote). Every set is measured twice: the rules
alone, and the rules with the learned classifier's second look (what memwise runs).
Independent writers of everyday notes sometimes write the same line ("Lactose
intolerant."); for the held-out sets the summary also gives the figures on the items whose
text (lower-cased, punctuation aside) is in no training set.
Also the shared injection strings: CyberSecEval 2 and BIPIA attacks, every one an
instruction, and NotInject's benign prompts, which are not customer facts either and are
shown only to say how much ordinary chat the boundary would refuse as an item.
Each text goes through the whole write boundary of an extracted item
(``memwise._services.memory.memory.check_text``: length, then the classifier).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import console, table
from memwise import errors
from memwise._safety import learned
from memwise._safety.boundary import classify
from memwise._services.memory.memory import check_text

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
FORBIDDEN = ("absence", "operational", "instruction", "entitlement")
HELD_OUT = (7, 8, 9, 10)


def _key(text: str) -> str:
    return " ".join(re.sub(r"\W+", " ", text.lower()).split())


def trained_texts() -> set[str]:
    """Every text of the sets the classifier was trained on, as :func:`_key` reads it."""
    found = learned.model()
    names = found.about["trained_on"] if found is not None else []
    return {_key(t) for name in names if (DATA / name).exists() for t, _ in labelled(name)}


def refused(text: str, second_look: bool = True) -> str | None:
    if not second_look:
        found = classify(" ".join(text.split()), None, second_look=False)
        return found.kind if found else None
    try:
        check_text(text, None)
    except errors.Invalid as exc:
        return exc.code
    return None


def labelled(name: str) -> list[tuple[str, str]]:
    items = json.loads((DATA / name).read_text())["items"]
    return [(i["text"], i["class"]) for i in items]


def injection(path: Path) -> dict[str, list[tuple[str, str]]]:
    cse = json.loads((path / "cyberseceval_prompt_injection.json").read_text())
    bipia = [
        s
        for name in ("bipia_text_attack_train.json", "bipia_text_attack_test.json")
        for group in json.loads((path / name).read_text()).values()
        for s in group
    ]
    benign = [
        x["prompt"]
        for name in ("notinject_one.json", "notinject_two.json", "notinject_three.json")
        for x in json.loads((path / name).read_text())
    ]
    return {
        "CyberSecEval 2 attacks": [(c["user_input"], "instruction") for c in cse],
        "BIPIA attacks": [(s, "instruction") for s in bipia],
        "NotInject benign prompts": [(s, "benign prompt") for s in benign],
    }


def measure(
    rows: list[tuple[str, str]],
) -> tuple[dict[str, list[int]], list[tuple[str, str]]]:
    """Per class: [n, refused by the rules alone, refused by rules and learned classifier]."""
    stats: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    misses = []
    for text, cls in rows:
        code = refused(text)
        stats[cls][0] += 1
        stats[cls][1] += refused(text, second_look=False) is not None
        stats[cls][2] += code is not None
        wrong = (code is None) if cls in FORBIDDEN else (code is not None and cls == "genuine")
        if wrong:
            misses.append((cls, text))
    return stats, misses


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--injection", default=str(ROOT.parent / "shared" / "bench" / "injection"))
    ap.add_argument("--show-misses", action="store_true")
    a = ap.parse_args()
    sets = {
        "development (tuned on)": labelled("boundary_dev.json"),
        "held-out 1 (then tuned on)": labelled("boundary_holdout.json"),
        "held-out 2 (then tuned on)": labelled("boundary_holdout2.json"),
        "held-out 3 (rules: measured once; classifier: tuned on)": labelled(
            "boundary_holdout3.json"
        ),
        "training A (classifier trained on)": labelled("boundary_train_a.json"),
        "training B (classifier trained on)": labelled("boundary_train_b.json"),
        "held-out 4 (measured once, then trained on)": labelled("boundary_holdout4.json"),
        "held-out 5 (measured once, then trained on)": labelled("boundary_holdout5.json"),
        "held-out 6 (measured once, then tuned and trained on)": labelled("boundary_holdout6.json"),
        "training C (classifier trained on)": labelled("boundary_train_c.json"),
        "training D (classifier trained on)": labelled("boundary_train_d.json"),
        **{
            f"held-out {n} (never tuned or trained on)": labelled(f"boundary_holdout{n}.json")
            for n in HELD_OUT
        },
    }
    inj = Path(a.injection)
    if (inj / "cyberseceval_prompt_injection.json").exists():
        sets.update(injection(inj))
    else:
        console.print(f"[dim]no injection set at {inj}: skipped[/]")
    rows, totals = [], Counter()
    for name, items in sets.items():
        stats, misses = measure(items)
        for cls in (*FORBIDDEN, "genuine", "benign prompt"):
            if cls not in stats:
                continue
            n, by_rules, r = stats[cls]
            what = "false refusal" if cls in ("genuine", "benign prompt") else "refused"
            rows.append([name, cls, str(n), what, f"{by_rules / n:.3f}", f"{r / n:.3f}"])
            if cls in FORBIDDEN:
                totals[f"{name}:forbidden"] += n
                totals[f"{name}:rules"] += by_rules
                totals[f"{name}:refused"] += r
        if a.show_misses:
            for cls, text in misses:
                console.print(f"[dim]{name} · {cls} · missed:[/] {text[:140]}")
    table(
        "The memory write boundary: refusal per class and set",
        ["set", "class", "n", "measure", "rules alone", "rules + classifier"],
        rows,
    )
    for name in sets:
        n = totals[f"{name}:forbidden"]
        if n:
            console.print(
                f"{name}: {totals[f'{name}:rules'] / n:.3f} (rules alone), "
                f"{totals[f'{name}:refused'] / n:.3f} (rules + classifier) of {n} forbidden "
                "refused"
            )
    seen, rows = trained_texts(), []
    for n in HELD_OUT:
        items = labelled(f"boundary_holdout{n}.json")
        novel = [(t, c) for t, c in items if _key(t) not in seen]
        for label, part in (("all", items), ("not in training", novel)):
            stats, _ = measure(part)
            bad = sum(stats[c][0] for c in FORBIDDEN)
            good = stats["genuine"][0]
            rows.append(
                [
                    f"held-out {n}",
                    label,
                    f"{bad} / {good}",
                    f"{sum(stats[c][2] for c in FORBIDDEN) / bad:.3f}",
                    f"{stats['genuine'][2] / good:.3f}",
                ]
            )
    table(
        "Held-out sets, rules + classifier (the figures to quote)",
        ["set", "items", "forbidden / genuine", "refused", "false refusal"],
        rows,
    )


if __name__ == "__main__":
    main()
