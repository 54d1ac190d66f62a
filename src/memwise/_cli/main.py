"""The ``memwise`` command line. Errors become exit codes here, and only here."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from memwise import errors
from memwise._config import Settings

app = typer.Typer(
    help="memwise: the memory layer of a business's AI assistant.", no_args_is_help=True
)
console = Console()
err = Console(stderr=True)

EXIT_CODES: dict[type[errors.MemwiseError], int] = {
    errors.Invalid: 2,
    errors.NotFound: 3,
    errors.Conflict: 4,
    errors.LimitExceeded: 5,
    errors.Unauthorized: 6,
    errors.Forbidden: 6,
    errors.Unavailable: 7,
}

F = TypeVar("F", bound=Callable[..., Any])


def exit_code(exc: errors.MemwiseError) -> int:
    for kind in type(exc).__mro__:
        if kind in EXIT_CODES:
            return EXIT_CODES[kind]
    return 1


def handles_errors(fn: F) -> F:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except errors.MemwiseError as exc:
            err.print(f"[bold red]error[/] ({exc.code}): {escape(exc.message)}")
            raise typer.Exit(exit_code(exc)) from exc

    return wrapper  # type: ignore[return-value]


DatabaseOption = typer.Option(
    None,
    "--database-url",
    help="Database URL (default: MEMWISE_DATABASE_URL or sqlite:///memwise.db).",
)


def settings(database_url: str | None = None) -> Settings:
    from memwise._bootstrap import environment

    return environment(database_url)


from memwise._cli import commands, doors, evals, importer, keys, packs  # noqa: E402,F401
