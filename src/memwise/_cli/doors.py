"""Doors: ``memwise mcp`` (stdio) and ``memwise telegram`` (long polling)."""

from __future__ import annotations

import typer

from memwise import errors
from memwise._cli.main import DatabaseOption, app, err, handles_errors, settings
from memwise._ids import WorkspaceId
from memwise._services.facade import Memwise

ApiKeyOption = typer.Option(
    None,
    "--api-key",
    envvar="MEMWISE_API_KEY",
    help="A workspace API key (default: MEMWISE_API_KEY).",
)


def _workspace_of(mw: Memwise, api_key: str | None) -> WorkspaceId:
    """The workspace of a valid API key (the door's only credential)."""
    if not api_key:
        raise errors.Unauthorized("give --api-key or set MEMWISE_API_KEY", code="unauthorized")
    found = mw.tenancy.authenticate_key(api_key)
    if found is None:
        raise errors.Unauthorized("that API key is not valid", code="unauthorized")
    return found[0]


def _extra(name: str) -> errors.Invalid:
    return errors.Invalid(
        f"this door needs the optional extra: pip install 'memwise[{name}]'", code="missing_extra"
    )


@app.command()
@handles_errors
def mcp(
    api_key: str | None = ApiKeyOption,
    database_url: str | None = DatabaseOption,
) -> None:
    """Serve the memory tools over MCP on stdin/stdout for one workspace."""
    try:
        from memwise._doors.mcp_server import build_server
    except ImportError:
        raise _extra("mcp") from None
    from memwise._bootstrap import open_memwise

    with open_memwise(settings(database_url)) as mw:
        _workspace_of(mw, api_key)
        err.print("memwise MCP server on stdio (Ctrl-D to stop)")
        build_server(mw, key=api_key).run("stdio")


@app.command()
@handles_errors
def telegram(
    agent: str = typer.Option(..., "--agent", help="The agent that answers on Telegram."),
    token: str = typer.Option(
        ..., "--token", envvar="MEMWISE_TELEGRAM_TOKEN", help="The bot token from @BotFather."
    ),
    api_key: str | None = ApiKeyOption,
    api_url: str | None = typer.Option(
        None, "--api-url", help="Another Bot API server (default: Telegram's own)."
    ),
    database_url: str | None = DatabaseOption,
) -> None:
    """Answer on Telegram by long polling, as one agent of the workspace of --api-key."""
    try:
        from memwise._doors.telegram import TelegramDoor, build_bot
    except ImportError:
        raise _extra("telegram") from None
    from memwise._bootstrap import open_memwise

    with open_memwise(settings(database_url)) as mw:
        door = TelegramDoor(mw, _workspace_of(mw, api_key), agent)  # the agent must be theirs
        err.print(f"memwise on Telegram as agent {agent} (Ctrl-C to stop)")
        build_bot(door, token, base_url=api_url).run_polling(poll_interval=0.5)
