"""The server's threads. Request work runs in a few threads (``Settings.threads``): it is
Python and the database, and more threads than that only take turns at the interpreter,
each turn costing more than it gives (16 contexts at once: about 1.4× the requests per
second in 2 threads than in 40, bench/README.md). Work that waits on a model or a remote
service (chat, account lookups, the builder's preview, MCP tools) runs in threads of its
own, so a slow provider never holds the others — and each workspace has a share of those
(``WORKSPACE_SHARE``): a workspace whose helpdesk or model is slow fills its own share and
waits there, and every other workspace still finds threads free.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import anyio.to_thread
from anyio import CapacityLimiter
from anyio.lowlevel import RunVar

from memwise._config import WAITING_THREADS
from memwise._ids import WorkspaceId

T = TypeVar("T")

_waiting: RunVar[CapacityLimiter] = RunVar("memwise_waiting_threads")
_shares: RunVar[dict[str, CapacityLimiter]] = RunVar("memwise_workspace_shares")
WORKSPACE_SHARE = 4  # of the waiting threads, at most this many for one workspace at once


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


def _share(workspace_id: WorkspaceId) -> CapacityLimiter:
    try:
        shares = _shares.get()
    except LookupError:
        shares = {}
        _shares.set(shares)
    for idle in [k for k, v in shares.items() if v.borrowed_tokens == 0 and k != workspace_id]:
        if len(shares) < 1000:
            break
        del shares[idle]  # the map holds only workspaces waiting now (and a few idle ones)
    if workspace_id not in shares:
        shares[workspace_id] = CapacityLimiter(WORKSPACE_SHARE)
    return shares[workspace_id]


async def waiting(
    fn: Callable[..., T], *args: Any, share_of: WorkspaceId | None = None, **kwargs: Any
) -> T:
    """Run ``fn`` in a thread for work that waits on something outside the process; with
    ``share_of``, within that workspace's share of those threads."""
    call = partial(fn, *args, **kwargs)
    if share_of is None:
        return await anyio.to_thread.run_sync(call, limiter=waiting_limiter())
    async with _share(share_of):
        return await anyio.to_thread.run_sync(call, limiter=waiting_limiter())
