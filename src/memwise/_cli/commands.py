"""Commands: demo, migrate."""

from __future__ import annotations

import html
import re
from pathlib import Path

import typer
from rich.markup import escape
from rich.text import Text
from sqlalchemy import make_url as sa_url

from memwise._bootstrap import open_memwise, settle
from memwise._cli import demo as demo_service
from memwise._cli.main import DatabaseOption, app, console, handles_errors, settings
from memwise._ids import ContactId, WorkspaceId
from memwise._observability import configure_logging
from memwise._services.facade import Memwise


def marked_text(highlight: str) -> Text:
    """A ``<mark>``-highlighted HTML snippet as styled terminal text."""
    out = Text()
    for i, part in enumerate(re.split(r"</?mark>", highlight)):
        out.append(html.unescape(part), style="bold reverse" if i % 2 else "")
    return out


@app.command()
@handles_errors
def migrate(database_url: str | None = DatabaseOption) -> None:
    """Create or upgrade the database schema."""
    s = settings(database_url)
    with Memwise.open(s.database_url) as mw:
        console.print(
            f"schema at revision [bold]{mw.rt.db.current_revision()}[/] ({mw.rt.db.name})"
        )


def _only_the_demo(path: Path) -> bool:
    """Whether this SQLite file is absent or holds no workspace but the demo's."""
    import sqlite3

    if not path.exists():
        return True
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            others = db.execute(
                "SELECT count(*) FROM workspaces WHERE name != ?", (demo_service.NAME,)
            ).fetchone()[0]
    except sqlite3.Error:
        return False  # not a memwise database (or unreadable): leave it alone
    return int(others) == 0


@app.command()
@handles_errors
def demo(
    database_url: str = typer.Option("sqlite:///memwise-demo.db", "--database-url"),
    serve_after: bool = typer.Option(
        False, "--serve", help="Then serve the API and console on the demo data."
    ),
    port: int = typer.Option(8080, "--port", min=1, max=65535),
    fresh: bool = typer.Option(
        True, "--fresh/--reuse", help="Start the demo database anew (SQLite) or reuse it."
    ),
) -> None:
    """Watch memory at work on a sample business: extraction, recall, a correction, a refused
    instruction, an honest failed lookup, and a question taught and answered."""
    url = sa_url(database_url)
    if fresh and url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        if _only_the_demo(Path(str(url.database))):
            for suffix in ("", "-wal", "-shm"):
                Path(f"{url.database}{suffix}").unlink(missing_ok=True)
        else:  # never delete a database that holds anything but the demo
            console.print(
                f"{url.database} holds other workspaces: the demo is added to it, not made anew",
                markup=False,
            )
    with open_memwise(settings(database_url)) as mw:  # as deployed: recall by meaning
        loaded = demo_service.load(mw)
        ws = mw.tenancy.get_workspace(loaded.workspace_id)
        console.print(f"[bold]{ws.name}[/] — workspace {ws.id} ({ws.timezone}, plan {ws.plan})")
        if loaded.reused:
            console.print("the demo workspace was already here: reusing it")
        for n, step in enumerate(demo_service.tell(mw, loaded), 1):
            console.print(f"\n[bold]{n}. {escape(step.title)}[/]")
            for line in step.lines:
                console.print(line, markup=False, highlight=False, soft_wrap=True)
        key = loaded.api_key or mw.tenancy.create_api_key(ws.id, "owner", "demo console")
    console.print(f"\nstored in {database_url}", markup=False)
    if serve_after:
        console.print(
            f"console: http://127.0.0.1:{port}/console/  — log in with {key}", markup=False
        )
        serve(
            host="127.0.0.1",
            port=port,
            database_url=database_url,
            test_clock=False,
            workers=1,
            run_worker=True,
        )
    else:
        console.print(f"owner API key (shown once): {key}", markup=False)
        console.print("`memwise demo --serve` opens the console on this data", markup=False)


@app.command()
@handles_errors
def serve(
    host: str = typer.Option("127.0.0.1", "--host"),
    port: int = typer.Option(8080, "--port", min=1, max=65535),
    database_url: str | None = DatabaseOption,
    test_clock: bool = typer.Option(False, "--test-clock", help="Enable POST /v1/test-clock."),
    workers: int = typer.Option(1, "--workers", min=1, max=64),
    run_worker: bool = typer.Option(
        True,
        "--worker/--no-worker",
        help="Run the job worker in this process too (extraction, sweeps); turn it off when "
        "separate `memwise worker` processes run the jobs.",
    ),
) -> None:
    """Serve the HTTP API (and console) with uvicorn; by default the worker runs in it too."""
    import os

    import uvicorn

    s = settings(database_url)
    s.test_clock = test_clock or s.test_clock
    with Memwise.open(s.database_url) as mw:  # migrate once, before any worker starts
        console.print(
            f"memwise on http://{host}:{port} ({mw.rt.db.name}, revision "
            f"{mw.rt.db.current_revision()})"
        )
    os.environ["MEMWISE_DATABASE_URL"] = s.database_url
    os.environ["MEMWISE_TEST_CLOCK"] = "true" if s.test_clock else "false"
    os.environ["MEMWISE_EMBEDDED_WORKER"] = "true" if run_worker else "false"
    if run_worker:
        console.print("the worker runs in this process (--no-worker to leave jobs to others)")
    try:
        import mcp  # noqa: F401

        console.print(f"MCP tools at http://{host}:{port}/mcp/ (streamable HTTP)")
    except ImportError:
        console.print("MCP is off: pip install 'memwise[mcp]' to serve it at /mcp/", markup=False)
    uvicorn.run(
        "memwise._server.main:app",
        host=host,
        port=port,
        workers=workers,
        factory=True,
        log_level="warning",
    )


@app.command()
@handles_errors
def worker(
    database_url: str | None = DatabaseOption,
    once: bool = typer.Option(False, "--once", help="Run until no job is due, then exit."),
    poll: float = typer.Option(2.0, "--poll", min=0.1, help="Seconds between polls."),
) -> None:
    """Run due jobs: extraction, rebuilds and the scheduled sweeps."""
    s = settings(database_url)
    configure_logging(s.log_format)
    with open_memwise(s) as mw:  # the server's models and embedder, so its jobs match
        w = mw.worker()
        settle()  # a long-lived process: what start-up made stays out of every collection
        if once:
            counts = w.run_once()
            console.print(
                ", ".join(f"{k}: {n}" for k, n in sorted(counts.items())) or "no jobs due",
                markup=False,
            )
            for reason in w.errors:  # why a job failed or will be retried
                console.print(f"  {reason}", markup=False, highlight=False)
            return
        console.print(f"worker {w.name} polling every {poll:g}s (Ctrl-C to stop)")
        try:
            w.run_forever(poll)
        except KeyboardInterrupt:
            console.print("stopped")


@app.command()
@handles_errors
def rebuild(
    contact: str = typer.Argument(..., help="The contact id."),
    workspace: str = typer.Option(..., "--workspace", help="The workspace id."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Only show the estimate."),
    database_url: str | None = DatabaseOption,
) -> None:
    """Rebuild a contact's memory from their past conversations (estimate first)."""
    from rich.progress import Progress

    s = settings(database_url)
    with Memwise.open(s.database_url) as mw:
        est = mw.rebuilds.estimate(WorkspaceId(workspace), ContactId(contact))
        console.print(
            f"{est.conversations} conversations to re-read, cost {est.cost} "
            f"interactions, {est.remaining} remaining this month"
            + ("" if est.allowed else f" — blocked: {est.reason}")
        )
        if dry_run or not est.allowed:
            raise typer.Exit(0 if est.allowed or dry_run else 5)
        started = mw.rebuilds.start(WorkspaceId(workspace), ContactId(contact))
        w = mw.worker()
        with Progress(console=console) as bar:
            task = bar.add_task(
                "re-reading conversations", total=started.total, completed=started.done
            )
            w.run_once(
                progress=lambda job, outcome: bar.update(
                    task,
                    completed=mw.rebuilds.progress(WorkspaceId(workspace), ContactId(contact)).done,
                )
            )
        done = mw.rebuilds.progress(WorkspaceId(workspace), ContactId(contact))
        console.print(
            f"rebuilt: {done.done} of {done.total} conversations re-read"
            + (f", {done.failed} failed" if done.failed else "")
        )


@app.command()
@handles_errors
def openapi() -> None:
    """Print the HTTP API's OpenAPI document (docs/openapi.json is this output)."""
    import json
    import tempfile

    from memwise._server.app import create_app

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/schema.db"
        with Memwise.open(url) as mw:
            document = create_app(settings(url), mw).openapi()
    print(json.dumps(document, indent=2, sort_keys=True))
