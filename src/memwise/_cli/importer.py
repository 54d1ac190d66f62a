"""``memwise import``: past conversations from JSON lines, with a progress bar."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from memwise import errors
from memwise._bootstrap import open_memwise
from memwise._cli.main import DatabaseOption, app, console, err, handles_errors, settings
from memwise._ids import ContactId, WorkspaceId
from memwise._services.facade import Memwise, _turn


def _contact(mw: Memwise, ws: WorkspaceId, line: dict[str, Any]) -> str:
    if line.get("contact_id"):
        return str(mw.tenancy.get_contact(ws, ContactId(str(line["contact_id"]))).id)
    spec = line.get("contact")
    if not isinstance(spec, dict) or not spec.get("name"):
        raise errors.Invalid("each line needs contact_id or contact: {name, emails?, phones?}")
    for kind, field in (("email", "emails"), ("phone", "phones")):
        for value in spec.get(field) or []:
            found = mw.tenancy.find_contacts(ws, kind, str(value))
            if len(found) == 1:
                return str(found[0])
    fields = {k: spec[k] for k in ("emails", "phones", "account_refs") if spec.get(k)}
    return mw.tenancy.create_contact(ws, str(spec["name"]), **fields).id


@app.command("import")
@handles_errors
def import_conversations(
    path: Path = typer.Argument(..., exists=True, dir_okay=False, help="A .jsonl file."),
    workspace: str = typer.Option(..., "--workspace", help="The workspace id (ws_…)."),
    agent: str | None = typer.Option(None, "--agent", help="The agent (default: the first)."),
    database_url: str | None = DatabaseOption,
) -> None:
    """Import past conversations, one JSON object a line:
    {"contact": {"name", "emails"?} | "contact_id", "channel"?, "messages": [{role, text, at?}]}.
    Each becomes an ended conversation; the worker extracts them (its allowance applies)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    done, cleaned, failed = 0, 0, []
    with open_memwise(settings(database_url)) as mw:  # turns embedded as the server would
        mw.tenancy.get_workspace(WorkspaceId(workspace))
        agent_id = agent or mw.tenancy.default_agent(WorkspaceId(workspace))
        columns = (
            TextColumn("importing"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
        )
        with Progress(*columns, console=console, transient=False) as bar:
            task = bar.add_task("import", total=len(lines))
            for n, raw in enumerate(lines, 1):
                bar.advance(task)
                if not raw.strip():
                    continue
                try:
                    line = json.loads(raw)
                    if not isinstance(line, dict):
                        raise errors.Invalid("a line is a JSON object")
                    turns = [_turn(m) for m in line.get("messages") or []]
                    if not turns:
                        raise errors.Invalid("a line needs messages")
                    contact = _contact(mw, WorkspaceId(workspace), line)
                    with mw.rt.db.write():
                        conv, _ = mw.record.start(
                            WorkspaceId(workspace),
                            agent_id,
                            str(line.get("channel") or "api"),
                            contact_id=ContactId(contact),
                            at=turns[0].at,
                        )
                        kept = mw.record.append_many(WorkspaceId(workspace), conv.id, turns)
                        mw.record.end(WorkspaceId(workspace), conv.id)
                    done += 1
                    cleaned += any(t.cleaned for t in kept)
                except (ValueError, errors.MemwiseError) as exc:
                    message = exc.message if isinstance(exc, errors.MemwiseError) else str(exc)
                    failed.append(f"line {n}: {message}")
    console.print(
        f"imported {done} conversations; {len(failed)} lines failed; {cleaned} lines had "
        "characters that are not text (stray controls, format characters) removed",
        markup=False,
    )
    for problem in failed[:20]:
        err.print(problem, markup=False, highlight=False)
    if failed:
        raise typer.Exit(2)
