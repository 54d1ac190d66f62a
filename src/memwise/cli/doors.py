"""Doors: ``memwise mcp`` (stdio) and ``memwise telegram`` (long polling)."""

from __future__ import annotations

import typer

from memwise import errors
from memwise.cli.main import DatabaseOption, app, err, handles_errors, settings

ApiKeyOption = typer.Option(
    None,
    "--api-key",
    envvar="MEMWISE_API_KEY",
    help="A workspace API key (default: MEMWISE_API_KEY).",
)


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
        from memwise.doors.mcp_server import build_server
    except ImportError:
        raise _extra("mcp") from None
    from memwise.api.app import open_memwise

    if not api_key:
        raise errors.Unauthorized("give --api-key or set MEMWISE_API_KEY", code="unauthorized")
    with open_memwise(settings(database_url)) as mw:
        if mw.tenancy.authenticate_key(api_key) is None:
            raise errors.Unauthorized("that API key is not valid", code="unauthorized")
        err.print("memwise MCP server on stdio (Ctrl-D to stop)")
        build_server(mw, key=api_key).run("stdio")
