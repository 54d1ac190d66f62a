"""A table of phrases run as one test: every row is checked and every miss named at once, so a
change to the language layer shows its whole trade in one failure (docs/architecture.md,
"How the tests read a rule")."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


def misses(rows: Iterable[Any], check: Callable[..., None]) -> list[tuple[Any, str]]:
    """The rows ``check`` fails on (a tuple row is spread over its arguments), with why."""
    wrong = []
    for row in rows:
        try:
            check(*row) if isinstance(row, tuple) else check(row)
        except AssertionError as miss:
            wrong.append((row, str(miss)))
    return wrong
