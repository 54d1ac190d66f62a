"""``memwise bench``: the benchmarks that ship with memwise, on data the user points at."""

from __future__ import annotations

import tempfile
from pathlib import Path

import typer
from rich.progress import Progress
from rich.table import Table

from memwise import errors
from memwise.cli.main import app, console, handles_errors, settings

bench = typer.Typer(help="Benchmarks on public evaluation data (the data is not part of memwise).")
app.add_typer(bench, name="bench")


@bench.command()
@handles_errors
def locomo(
    path: Path = typer.Argument(..., help="locomo10.json", exists=True, dir_okay=False),
    embedder: str = typer.Option(
        "none", "--embedder", help="none (lexical only) or local (MiniLM, memwise[local])."
    ),
    database_url: str | None = typer.Option(
        None,
        "--database-url",
        help="Where to import the conversations (default: a temporary SQLite file).",
    ),
    conversations: int = typer.Option(
        0, "--conversations", min=0, help="Only the first N (0 = all)."
    ),
    plot: Path | None = typer.Option(None, "--plot", help="Write recall@k per category as a PNG."),
    quiet: bool = typer.Option(False, "--quiet", help="Only the metric lines."),
) -> None:
    """LoCoMo evidence recall: recall@1/5/10/20 overall, then per category."""
    from memwise.benchmarks import locomo as lc
    from memwise.services.facade import Memwise

    data = lc.load(path)
    if conversations:
        data = data[:conversations]
    s = settings(database_url)
    if embedder not in ("none", "local"):
        raise errors.Invalid("--embedder is none or local", code="invalid_embedder")
    s.embedder = embedder  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as tmp:
        url = database_url or f"sqlite:///{tmp}/locomo.db"
        with (
            Memwise.open(url, embedder=s.make_embedder()) as mw,
            Progress(console=console, transient=True, disable=quiet) as bar,
        ):
            task = bar.add_task("recalling", total=None)
            result = lc.run(
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
            "plots need matplotlib: pip install -r bench/requirements.txt",
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
