"""``memwise eval``: fold the question book, freeze test sets, run and compare evaluations."""

from __future__ import annotations

import typer
from rich.progress import Progress
from rich.table import Table

from memwise._cli.main import DatabaseOption, app, console, handles_errors, settings
from memwise._ids import WorkspaceId
from memwise._services.facade import Memwise

evals = typer.Typer(help="The learning loop: measure, teach, measure again.", no_args_is_help=True)
app.add_typer(evals, name="eval")
Workspace = typer.Option(..., "--workspace", help="The workspace id.")


@evals.command()
@handles_errors
def fold(
    workspace: str = Workspace,
    source: str = typer.Option("all", "--source", help="tickets, calls, unanswered or all"),
    database_url: str | None = DatabaseOption,
) -> None:
    """Fold new questions into the (redacted, de-duplicated) question book."""
    with Memwise.open(settings(database_url).database_url) as mw:
        for s in ("tickets", "calls", "unanswered") if source == "all" else (source,):
            counts = mw.learning.fold(WorkspaceId(workspace), s)
            console.print(f"{s}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))


@evals.command()
@handles_errors
def freeze(
    name: str, workspace: str = Workspace, database_url: str | None = DatabaseOption
) -> None:
    """Freeze the whole question book as a new version of the named test set."""
    with Memwise.open(settings(database_url).database_url) as mw:
        ts = mw.learning.freeze_from_book(
            WorkspaceId(workspace),
            name,
            [b["id"] for b in mw.learning.book(WorkspaceId(workspace))],
        )
        console.print(f"test set {ts.id}: {ts.name} v{ts.version}, {len(ts.items)} questions")


@evals.command("run")
@handles_errors
def run_(
    test_set: str, workspace: str = Workspace, database_url: str | None = DatabaseOption
) -> None:
    """Measure current knowledge against a frozen test set (nothing else is written)."""
    from memwise._bootstrap import open_memwise

    with open_memwise(settings(database_url)) as mw:  # a configured model also judges
        with Progress(console=console) as bar:
            task = bar.add_task("evaluating", total=None)
            run = mw.learning.evaluate(
                WorkspaceId(workspace),
                test_set,
                progress=lambda n, total: bar.update(task, completed=n, total=total),
            )
        table = Table(title=f"Evaluation {run.id}")
        judged = "judged" in run.summary
        columns = ("#", "question", "answered", "source", "correct") + (
            ("judge agrees",) if judged else ()
        )
        for col in columns:
            table.add_column(col, overflow="fold")
        verdict: dict[bool | None, str] = {True: "yes", False: "no"}
        for r in run.results:
            cells = [
                str(r["position"] + 1),
                r["question"],
                "yes" if r["answered"] else "no",
                r["part"] or "—",
                verdict.get(r["correct"], "—"),
            ]
            if judged:
                cells.append(verdict.get(r.get("agrees"), "—"))
            table.add_row(*cells)
        console.print(table)
        s = run.summary
        console.print(
            f"answered {s['answered']}/{s['questions']} ({s['answered_rate']:.0%}), "
            f"correct {s['correct']} ({s['correct_rate']:.0%})"
            + (f", judge agrees {s['agreed']} ({s['agreed_rate']:.0%})" if judged else "")
        )


@evals.command()
@handles_errors
def compare(
    before: str, after: str, workspace: str = Workspace, database_url: str | None = DatabaseOption
) -> None:
    """Compare two runs of the same test set: rates and per-question changes."""
    with Memwise.open(settings(database_url).database_url) as mw:
        diff = mw.learning.compare(WorkspaceId(workspace), before, after)
        table = Table(title="Before → after")
        for col in ("", "answered rate", "correct rate"):
            table.add_column(col)
        for label in ("before", "after"):
            table.add_row(
                label, f"{diff[label]['answered_rate']:.0%}", f"{diff[label]['correct_rate']:.0%}"
            )
        console.print(table)
        for c in diff["changes"]:
            console.print(f"• {c['question']}: answered {c['before']} → {c['after']}")
