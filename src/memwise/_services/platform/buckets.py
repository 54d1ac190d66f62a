"""Token buckets every server process shares: rate limits and failed-login throttles hold
for a deployment, not for each process (three processes once let 87 of 30 requests a minute
through). The buckets live in the database (``rate_buckets``); on SQLite, an embedded
database of one process, the same rule holds in memory."""

from __future__ import annotations

import time

from memwise._services.platform.runtime import Runtime
from memwise._storage.stores import limits as store

SWEEP_EVERY = 1000  # takes between two sweeps of refilled buckets


class Buckets:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        self._takes = 0

    @property
    def shared(self) -> bool:
        """Whether buckets are kept in the database (PostgreSQL: several processes)."""
        return self.rt.db.name == "postgresql"

    def take(self, key: str, per_minute: float) -> bool:
        """Take one token from ``key``'s bucket of ``per_minute``; False when it is empty."""
        now = time.time()
        with self.rt.db.write() as conn:
            ok = store.take(conn, key[:200], per_minute, per_minute / 60.0, now)
            self._takes += 1
            if self._takes % SWEEP_EVERY == 0:
                store.forget_full(conn, now - 120.0)
        return ok

    def empty(self, key: str, per_minute: float) -> bool:
        """Whether ``key``'s bucket has no token now (nothing is taken)."""
        with self.rt.db.read() as conn:
            return store.level(conn, key[:200], per_minute, per_minute / 60.0, time.time()) < 1
