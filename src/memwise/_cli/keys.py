"""``memwise keys``: list, create, revoke and rotate a workspace's API keys."""

from __future__ import annotations

import typer
from rich.table import Table

from memwise._cli.main import DatabaseOption, app, console, handles_errors, settings
from memwise._ids import WorkspaceId
from memwise._services.facade import Memwise

keys = typer.Typer(help="A workspace's API keys (run on the server, with its database).")
app.add_typer(keys, name="keys")

Workspace = typer.Argument(..., help="The workspace id (ws_…).")


@keys.command("list")
@handles_errors
def list_keys(workspace: str = Workspace, database_url: str | None = DatabaseOption) -> None:
    """Every key of the workspace, active and revoked (never a secret)."""
    with Memwise.open(settings(database_url).database_url) as mw:
        mw.tenancy.get_workspace(WorkspaceId(workspace))
        table = Table(title=f"API keys of {workspace}")
        for col in ("id", "role", "label", "created", "revoked"):
            table.add_column(col)
        for k in mw.tenancy.api_keys(WorkspaceId(workspace)):
            revoked = k.revoked_at.isoformat(timespec="minutes") if k.revoked_at else "—"
            created = k.created_at.isoformat(timespec="minutes")
            table.add_row(k.id, k.role.value, k.label or "", created, revoked)
        console.print(table)


@keys.command("create")
@handles_errors
def create_key(
    workspace: str = Workspace,
    role: str = typer.Option("operator", help="owner, admin or operator"),
    label: str | None = typer.Option(None, help="What the key is for."),
    database_url: str | None = DatabaseOption,
) -> None:
    """A new key; its secret is printed once."""
    with Memwise.open(settings(database_url).database_url) as mw:
        secret = mw.tenancy.create_api_key(WorkspaceId(workspace), role, label)
    console.print(secret, markup=False, highlight=False)


@keys.command("revoke")
@handles_errors
def revoke_key(
    workspace: str = Workspace,
    key_id: str = typer.Argument(..., help="The key's id (key_…), from `memwise keys list`."),
    database_url: str | None = DatabaseOption,
) -> None:
    """Stop a key now, with every console session opened with it."""
    with Memwise.open(settings(database_url).database_url) as mw:
        k = mw.tenancy.revoke_key(WorkspaceId(workspace), key_id)
    console.print(f"revoked {k.id} ({k.role.value})", markup=False)


@keys.command("rotate")
@handles_errors
def rotate_key(
    workspace: str = Workspace,
    key_id: str = typer.Argument(..., help="The key's id (key_…)."),
    database_url: str | None = DatabaseOption,
) -> None:
    """Replace a key: the new secret (same role and label) is printed once; the old one stops."""
    with Memwise.open(settings(database_url).database_url) as mw:
        k, secret = mw.tenancy.rotate_key(WorkspaceId(workspace), key_id)
    console.print(f"{k.id} {secret}", markup=False, highlight=False)
