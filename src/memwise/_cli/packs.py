"""``memwise packs``: list the business domains and check a custom pack file."""

from __future__ import annotations

from pathlib import Path

import typer

from memwise._cli.main import app, console, handles_errors
from memwise._extraction import pack

packs = typer.Typer(help="Business domain packs: what is worth extracting for a business.")
app.add_typer(packs, name="packs")


@packs.command("list")
@handles_errors
def list_packs() -> None:
    """The built-in domains and those in MEMWISE_PACKS_DIR."""
    for name in pack.names():
        console.print(f"{name}: {pack.load(name).description}", markup=False)


@packs.command("validate")
@handles_errors
def validate(path: Path = typer.Argument(..., exists=True, dir_okay=False)) -> None:
    """Check a pack's YAML; every problem is named with its place (exit 2 if any)."""
    found = pack.validate_text(path.read_text("utf-8"), str(path))
    if found.name != path.stem:
        console.print(
            f"note: the file is {path.name} but the pack is named {found.name!r}; "
            f"save it as {found.name}.yaml in MEMWISE_PACKS_DIR",
            markup=False,
        )
    console.print(
        f"{found.name}: valid — {len(found.keys)} keys, {len(found.events)} events, "
        f"kinds {', '.join(found.kinds)}",
        markup=False,
    )
