"""Durable jobs in the same database: enqueue idempotently, claim with a lease, finish once.

A job's result and its "done" mark are written in the same transaction as whatever the job
applies (``finish`` joins the job's unit of work), and only while the claimant still holds
the lease: a worker killed at any point loses nothing (the lease runs out and another worker
takes the job) and applies nothing twice (a late finisher whose lease was taken over is
rolled back). This module holds the policy (leases, attempts, backoff); the SQL is the job
store's (``memwise._storage.stores.jobs``).
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.engine import Connection

from memwise import errors
from memwise._domain.jobs import Job, JobStatus
from memwise._ids import WorkspaceId
from memwise._services.platform.runtime import Runtime
from memwise._storage.stores import jobs as store


class LeaseLost(errors.Conflict):
    """Another worker took this job over; nothing of this attempt is applied."""

    code = "lease_lost"


class Jobs:
    def __init__(
        self,
        rt: Runtime,
        lease: timedelta = timedelta(minutes=5),
        backoff: timedelta = timedelta(seconds=30),
    ) -> None:
        self.rt = rt
        self.lease = lease
        self.backoff = backoff
        self._served: dict[tuple[str, str], int] = {}  # (workspace, kind) -> the turn it ran
        self._turn = 0
        self._turns = threading.Lock()  # the worker's threads and a quick remember share it

    def enqueue(
        self,
        workspace_id: WorkspaceId,
        kind: str,
        key: str,
        payload: dict[str, Any],
        *,
        run_after: datetime | None = None,
        max_attempts: int = 5,
    ) -> tuple[str, bool]:
        """Queue a job once per key; joins an open unit of work."""
        with self.rt.db.write() as conn:
            return store.insert_once(
                conn,
                workspace_id,
                kind,
                key,
                payload,
                self.rt.clock.now(),
                run_after=run_after,
                max_attempts=max_attempts,
            )

    def claim(
        self,
        worker: str,
        kinds: list[str] | None = None,
        as_of: datetime | None = None,
        workspace_id: WorkspaceId | None = None,
        job_id: str | None = None,
    ) -> Job | None:
        """Take the next due job (or one whose lease ran out) and hold it for ``lease``.

        ``as_of`` treats queued jobs scheduled up to that moment as due (a forced run);
        jobs waiting on a rule keep waiting. A job whose worker died on its last attempt
        fails with its last error; it is not run again.
        """
        now = self.rt.clock.now()

        def pick(conn: Connection, ws: WorkspaceId | None, wanted: list[str] | None) -> Any:
            return store.next_due(
                conn, now, as_of=as_of, kinds=wanted, workspace_id=ws, job_id=job_id
            )

        with self.rt.db.write() as conn:
            queues = (
                [(workspace_id, None)]
                if job_id
                else self._in_turn(
                    store.due_queues(conn, now, as_of=as_of, kinds=kinds, workspace_id=workspace_id)
                )
            )
            for ws, kind in queues:
                wanted = [kind] if kind else kinds
                row = pick(conn, ws, wanted)
                while row is not None and row.attempts >= row.max_attempts:
                    why = (
                        row.last_error or f"the worker holding it stopped ({row.attempts} attempts)"
                    )
                    store.give_up(conn, row, now, why)
                    row = pick(conn, ws, wanted)
                if row is not None:
                    self._ran(row.workspace_id, row.kind)
                    return store.take(conn, row, now + self.lease, worker)
            return None

    def _in_turn(
        self, queues: list[tuple[WorkspaceId, str, datetime]]
    ) -> list[tuple[WorkspaceId | None, str | None]]:
        """The due queues, the one served longest ago first (oldest job first among equals):
        the worker takes turns between workspaces, and between a workspace's kinds of job, so
        one tenant's thousand deliveries never keep another's extraction waiting behind
        them (each queue waits at most one job of every other queue)."""
        with self._turns:
            ordered = sorted(queues, key=lambda q: (self._served.get((q[0], q[1]), -1), q[2]))
        return [(ws, kind) for ws, kind, _ in ordered]

    def _ran(self, workspace_id: WorkspaceId, kind: str) -> None:
        with self._turns:
            self._turn += 1
            self._served[(workspace_id, kind)] = self._turn
            if len(self._served) > 10_000:  # only the order matters: keep the recent half
                keep = sorted(self._served.items(), key=lambda kv: kv[1])[5_000:]
                self._served = dict(keep)

    def by_key(self, workspace_id: WorkspaceId, key: str) -> Job | None:
        with self.rt.db.read() as conn:
            return store.by_key(conn, workspace_id, key)

    def depth(self) -> dict[str, Any]:
        """Across the server: jobs queued or running now, and how long the oldest due one
        has waited (seconds)."""
        now = self.rt.clock.now()
        with self.rt.db.read() as conn:
            n, oldest = store.due_now(conn, now)
        return {
            "queue_depth": n,
            "oldest_queued_age_s": round((now - oldest).total_seconds(), 1) if oldest else None,
        }

    def finish(self, job: Job, result: dict[str, Any]) -> None:
        """Mark done if this attempt still holds the lease; joins an open unit of work (the
        job's effects and its being done commit together, or neither)."""
        with self.rt.db.write() as conn:
            if not store.mark_done(conn, job, result, self.rt.clock.now()):
                raise LeaseLost()

    def fail(self, job: Job, error: str) -> JobStatus:
        """Record a failed attempt: retry later with backoff, or give up after max attempts."""
        now = self.rt.clock.now()
        final = job.attempts >= job.max_attempts
        status = JobStatus.failed if final else JobStatus.queued
        retry_at = now + self.backoff * (2 ** (job.attempts - 1))
        with self.rt.db.write() as conn:
            store.mark_attempt_failed(conn, job, status, error, retry_at, now if final else None)
        return status

    def hold(self, job: Job, reason: str, until: datetime) -> None:
        """Put a job back to wait (not an attempt that failed): it runs again after ``until``."""
        with self.rt.db.write() as conn:
            store.mark_waiting(conn, job, reason, until)

    def get(self, job_id: str) -> Job:
        with self.rt.db.read() as conn:
            job = store.by_id(conn, job_id)
        if job is None:
            raise errors.NotFound("no such job", code="job_not_found")
        return job

    def find(
        self,
        workspace_id: WorkspaceId,
        *,
        kind: str | None = None,
        status: JobStatus | None = None,
        limit: int = 100,
    ) -> list[Job]:
        with self.rt.db.read() as conn:
            return store.find(conn, workspace_id, kind=kind, status=status, limit=limit)

    def running(self, workspace_id: WorkspaceId | None = None) -> int:
        """How many jobs another worker is running now (claimed, lease not over)."""
        with self.rt.db.read() as conn:
            return store.running_leased(conn, workspace_id, self.rt.clock.now())

    def by_kind(self) -> list[tuple[str, str, int]]:
        """(kind, status, count) of every job: what the operator's metrics show."""
        with self.rt.db.read() as conn:
            return [(str(k), str(s), int(n)) for k, s, n in store.counts_by_kind(conn)]

    def counts(self, workspace_id: WorkspaceId | None = None) -> dict[str, int]:
        with self.rt.db.read() as conn:
            return store.counts(conn, workspace_id)
