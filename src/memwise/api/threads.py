"""The server's threads. Request work runs in a few threads (``Settings.threads``): it is
Python and the database, and more threads than that only take turns at the interpreter,
each turn costing more than it gives (16 contexts at once: about 1.4× the requests per
second in 2 threads than in 40, bench/README.md). Work that waits on a model or a remote
service (chat, account lookups, the builder's preview, MCP tools) runs in threads of its
own, so a slow provider never holds the others.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import anyio.to_thread
from anyio import CapacityLimiter
from anyio.lowlevel import RunVar

from memwise.config import WAITING_THREADS

T = TypeVar("T")

_waiting: RunVar[CapacityLimiter] = RunVar("memwise_waiting_threads")


def configure(threads: int) -> None:
    """Size the running event loop's default thread pool (the one sync routes run in)."""
    anyio.to_thread.current_default_thread_limiter().total_tokens = threads


def waiting_limiter() -> CapacityLimiter:
    try:
        return _waiting.get()
    except LookupError:
        limiter = CapacityLimiter(WAITING_THREADS)
        _waiting.set(limiter)
        return limiter


async def waiting(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``fn`` in a thread for work that waits on something outside the process."""
    return await anyio.to_thread.run_sync(partial(fn, *args, **kwargs), limiter=waiting_limiter())
