"""LoCoMo evidence recall: does memwise find the turns that answer each question?

Each LoCoMo conversation becomes a contact's record — one memwise conversation per session,
started at the session's date, the first speaker as the customer and the second as the
agent — and every question of categories 1–4 is asked of :meth:`History.recall`. The score
of a question at k is the share of its evidence turns among the top k (the LoCoMo paper's
turn-level recall), averaged over the questions.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memwise import errors
from memwise._context.assemble import tokens
from memwise._services.conversation.record import NewTurn
from memwise._services.facade import Memwise

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (1, 5, 10, 20)


@dataclass
class Result:
    questions: int = 0
    recall: dict[int, float] = field(default_factory=dict)
    by_category: dict[str, dict[int, float]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    history_tokens: float = 0.0  # the whole conversation, per question
    context_tokens: float = 0.0  # the top-10 turns, per question
    seconds_import: float = 0.0
    seconds_recall: float = 0.0


def load(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise errors.Invalid(f"cannot read LoCoMo data at {path}: {exc}", code="bad_data") from exc
    if not isinstance(data, list) or not all("conversation" in s and "qa" in s for s in data):
        raise errors.Invalid(f"{path} is not locomo10.json", code="bad_data")
    return data


def evidence_ids(raw: list[str]) -> list[str]:
    """Normalised dia_ids ("D8:6; D9:17" splits, "D:11:26" → "D11:26", "D30:05" → "D30:5")."""
    out = []
    for entry in raw:
        for part in re.split(r"[;\s]+", entry):
            m = re.fullmatch(r"D:?(\d+):0*(\d+)", part.strip())
            if m:
                out.append(f"D{m.group(1)}:{m.group(2)}")
    return out


def session_time(text: str) -> datetime:
    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y"):
        try:
            return datetime.strptime(text.strip(), fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    return datetime(2023, 1, 1, tzinfo=UTC)


def import_sample(
    mw: Memwise, workspace_id: str, sample: dict[str, Any]
) -> tuple[str, dict[str, str], str]:
    """The conversation as a contact's record; returns (contact id, dia_id → turn id, history)."""
    conv = sample["conversation"]
    first, second = conv["speaker_a"], conv["speaker_b"]
    agent = mw.tenancy.create_agent(workspace_id, second)
    contact = mw.tenancy.create_contact(workspace_id, first)
    by_dia: dict[str, str] = {}
    history: list[str] = []
    n = 1
    while f"session_{n}" in conv:
        when = session_time(conv.get(f"session_{n}_date_time", ""))
        started, _ = mw.record.start(
            workspace_id, agent.id, "api", contact_id=contact.id, at=when, thread=f"session_{n}"
        )
        spoken = [t for t in conv[f"session_{n}"] if t.get("text") or t.get("blip_caption")]
        new = []
        for i, t in enumerate(spoken):
            text = t.get("text", "")
            if t.get("blip_caption"):
                text += f" [image: {t['blip_caption']}]"
            role = "customer" if t["speaker"] == first else "assistant"
            new.append(NewTurn(role, text, when + timedelta(seconds=i)))
            history.append(f"{t['speaker']}: {text}")
        written = mw.record.append_many(workspace_id, started.id, new)
        by_dia.update({t["dia_id"]: w.id for t, w in zip(spoken, written, strict=True)})
        n += 1
    return contact.id, by_dia, "\n".join(history)


def run(
    mw: Memwise,
    data: list[dict[str, Any]],
    *,
    ks: tuple[int, ...] = KS,
    progress: Callable[[int, int], None] | None = None,
) -> Result:
    workspace, _ = mw.tenancy.create_workspace("LoCoMo", "UTC", "enterprise")
    scores: dict[int, list[float]] = defaultdict(list)
    per_cat: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    result = Result()
    total = sum(1 for s in data for qa in s["qa"] if qa.get("category") in CATEGORIES)
    done = 0
    history_tokens = context_tokens = 0
    for sample in data:
        t0 = time.perf_counter()
        contact, by_dia, history = import_sample(mw, workspace.id, sample)
        result.seconds_import += time.perf_counter() - t0
        whole = tokens(history)
        t0 = time.perf_counter()
        for qa in sample["qa"]:
            category = CATEGORIES.get(qa.get("category", 0))
            if category is None:
                continue
            done += 1
            wanted = {by_dia[e] for e in evidence_ids(qa.get("evidence", [])) if e in by_dia}
            if wanted:
                hits = mw.history.recall(workspace.id, contact, str(qa["question"]), k=max(ks))
                ranked = [h.turn_id for h in hits]
                for k in ks:
                    share = len(wanted & set(ranked[:k])) / len(wanted)
                    scores[k].append(share)
                    per_cat[category][k].append(share)
                history_tokens += whole
                context_tokens += tokens("\n".join(f"{h.speaker}: {h.text}" for h in hits[:10]))
            if progress:
                progress(done, total)
        result.seconds_recall += time.perf_counter() - t0
    result.questions = len(scores[ks[0]])
    result.recall = {k: sum(v) / len(v) for k, v in scores.items()}
    result.by_category = {
        c: {k: sum(v) / len(v) for k, v in per_cat[c].items()} for c in CATEGORIES.values()
    }
    result.counts = {c: len(per_cat[c][ks[0]]) for c in CATEGORIES.values()}
    result.history_tokens = history_tokens / max(1, result.questions)
    result.context_tokens = context_tokens / max(1, result.questions)
    return result


def main(argv: list[str] | None = None) -> None:
    """LoCoMo evidence recall: recall@1/5/10/20 overall, then per category."""
    import tempfile

    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from memwise._bootstrap import Parts
    from memwise._config import Settings

    ap = argparse.ArgumentParser(prog="python -m tools.locomo", description=main.__doc__)
    ap.add_argument("path", type=Path, help="locomo10.json")
    ap.add_argument("--embedder", choices=("none", "local"), default="none")
    ap.add_argument(
        "--database-url", default=None, help="where to import (default: a temporary SQLite file)"
    )
    ap.add_argument("--conversations", type=int, default=0, help="only the first N (0 = all)")
    ap.add_argument("--plot", type=Path, default=None, help="write recall@k per category as a PNG")
    ap.add_argument("--quiet", action="store_true", help="only the metric lines")
    args = ap.parse_args(argv)
    path, embedder, database_url = args.path, args.embedder, args.database_url
    conversations, plot, quiet = args.conversations, args.plot, args.quiet
    console = Console()
    data = load(path)
    if conversations:
        data = data[:conversations]
    s = Settings(embedder=embedder)
    with tempfile.TemporaryDirectory() as tmp:
        url = database_url or f"sqlite:///{tmp}/locomo.db"
        with (
            Memwise.open(url, embedder=Parts(s).embedder()) as mw,
            Progress(console=console, transient=True, disable=quiet) as bar,
        ):
            task = bar.add_task("recalling", total=None)
            result = run(
                mw, data, progress=lambda n, total: bar.update(task, completed=n, total=total)
            )
    for k, value in result.recall.items():
        print(f"recall@{k} {value:.3f}")
    for category, values in result.by_category.items():
        for k, value in values.items():
            print(f"recall@{k} {category} {value:.3f}")
    if not quiet:
        table = Table(
            title=f"LoCoMo evidence recall ({result.questions} questions, embedder {embedder})"
        )
        table.add_column("category")
        table.add_column("questions", justify="right")
        for k in result.recall:
            table.add_column(f"@{k}", justify="right")
        table.add_row(
            "overall", str(result.questions), *(f"{v:.3f}" for v in result.recall.values())
        )
        for category, values in result.by_category.items():
            table.add_row(
                category, str(result.counts[category]), *(f"{v:.3f}" for v in values.values())
            )
        console.print(table)
        ratio = result.history_tokens / max(1.0, result.context_tokens)
        console.print(
            f"prompt economy: top-10 turns {result.context_tokens:,.0f} tokens vs the whole "
            f"conversation {result.history_tokens:,.0f} ({ratio:.0f}x smaller); "
            f"import {result.seconds_import:.1f} s, recall {result.seconds_recall:.1f} s"
        )
    if plot:
        write_plot(plot, result.recall, result.by_category)
        if not quiet:
            console.print(f"plot written to {plot}")


def write_plot(
    path: Path, overall: dict[int, float], by_category: dict[str, dict[int, float]]
) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise errors.Unavailable(
            "plots need matplotlib: pip install matplotlib",
            code="extra_not_installed",
        ) from exc
    fig, ax = plt.subplots(figsize=(7, 4))
    ks = list(overall)
    ax.plot(ks, list(overall.values()), marker="o", linewidth=2.5, label="overall")
    for category, values in by_category.items():
        ax.plot(ks, [values[k] for k in ks], marker=".", label=category)
    ax.set_xlabel("k (turns retrieved)")
    ax.set_ylabel("evidence recall")
    ax.set_ylim(0, 1)
    ax.set_xticks(ks)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title("LoCoMo evidence recall (memwise, no model at query time)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


if __name__ == "__main__":
    main()
