"""Durable jobs in the same database: enqueue idempotently, claim with a lease, finish once.

A job's result and its "done" mark are written in the same transaction as whatever the job
applies (``finish_in``), and only while the claimant still holds the lease: a worker killed
at any point loses nothing (the lease runs out and another worker takes the job) and applies
nothing twice (a late finisher whose lease was taken over is rolled back).

Claiming uses ``FOR UPDATE SKIP LOCKED`` on PostgreSQL (several workers at once) and an
immediate transaction on SQLite (one writer at a time); the query is the same.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise import errors
from memwise.domain.jobs import Job, JobStatus
from memwise.ids import new_id
from memwise.services.platform.runtime import Runtime
from memwise.storage.schema import jobs


class LeaseLost(errors.Conflict):
    """Another worker took this job over; nothing of this attempt is applied."""

    code = "lease_lost"


def _job(r: Any) -> Job:
    return Job(
        r.id,
        r.workspace_id,
        r.kind,
        r.idempotency_key,
        r.payload,
        JobStatus(r.status),
        r.attempts,
        r.max_attempts,
        r.run_after,
        r.lease_until,
        r.locked_by,
        r.last_error,
        r.result,
        r.created_at,
        r.finished_at,
    )


def enqueue_in(
    conn: Connection,
    workspace_id: str,
    kind: str,
    key: str,
    payload: dict[str, Any],
    now: datetime,
    *,
    run_after: datetime | None = None,
    max_attempts: int = 5,
) -> tuple[str, bool]:
    """Queue a job in the caller's transaction unless one with this key exists.

    Returns (job id, created). The one place jobs are written.
    """
    existing = conn.execute(sa.select(jobs.c.id).where(jobs.c.idempotency_key == key)).scalar()
    if existing:
        return str(existing), False
    job_id = new_id("job")
    conn.execute(
        jobs.insert().values(
            id=job_id,
            workspace_id=workspace_id,
            kind=kind,
            idempotency_key=key[:300],
            payload=payload,
            status=JobStatus.queued.value,
            attempts=0,
            max_attempts=max_attempts,
            run_after=run_after or now,
            created_at=now,
        )
    )
    return job_id, True


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

    def enqueue(
        self,
        workspace_id: str,
        kind: str,
        key: str,
        payload: dict[str, Any],
        *,
        run_after: datetime | None = None,
        max_attempts: int = 5,
    ) -> tuple[str, bool]:
        """Queue a job once per key; joins an open unit of work."""
        with self.rt.db.write() as conn:
            return enqueue_in(
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
        workspace_id: str | None = None,
        job_id: str | None = None,
    ) -> Job | None:
        """Take the next due job (or one whose lease ran out) and hold it for ``lease``.

        ``as_of`` treats queued jobs scheduled up to that moment as due (a forced run);
        jobs waiting on a rule keep waiting.
        """
        now = self.rt.clock.now()
        due = sa.or_(
            sa.and_(
                jobs.c.status == JobStatus.queued.value, jobs.c.run_after <= max(now, as_of or now)
            ),
            sa.and_(jobs.c.status == JobStatus.waiting.value, jobs.c.run_after <= now),
            sa.and_(jobs.c.status == JobStatus.running.value, jobs.c.lease_until < now),
        )
        q = sa.select(jobs).where(due)
        if kinds:
            q = q.where(jobs.c.kind.in_(kinds))
        if workspace_id:
            q = q.where(jobs.c.workspace_id == workspace_id)
        if job_id:
            q = q.where(jobs.c.id == job_id)
        q = q.order_by(jobs.c.run_after, jobs.c.id).limit(1).with_for_update(skip_locked=True)
        with self.rt.db.write() as conn:
            row = conn.execute(q).first()
            while row is not None and row.attempts >= row.max_attempts:
                # Its worker died holding it on the last attempt: it fails, it is not retried.
                conn.execute(
                    jobs.update()
                    .where(jobs.c.id == row.id)
                    .values(
                        status=JobStatus.failed.value,
                        lease_until=None,
                        finished_at=now,
                        last_error=row.last_error
                        or f"the worker holding it stopped ({row.attempts} attempts)",
                    )
                )
                row = conn.execute(q).first()
            if row is None:
                return None
            conn.execute(
                jobs.update()
                .where(jobs.c.id == row.id)
                .values(
                    status=JobStatus.running.value,
                    attempts=row.attempts + 1,
                    lease_until=now + self.lease,
                    locked_by=worker[:100],
                )
            )
            return _job(conn.execute(sa.select(jobs).where(jobs.c.id == row.id)).one())

    def by_key(self, workspace_id: str, key: str) -> Job | None:
        with self.rt.db.read() as conn:
            row = conn.execute(
                sa.select(jobs).where(
                    jobs.c.workspace_id == workspace_id, jobs.c.idempotency_key == key
                )
            ).first()
        return _job(row) if row else None

    def depth(self) -> dict[str, Any]:
        """Across the server: jobs queued or running now, and how long the oldest due one
        has waited (seconds)."""
        now = self.rt.clock.now()
        with self.rt.db.read() as conn:
            waiting = conn.execute(
                sa.select(sa.func.count(), sa.func.min(jobs.c.run_after)).where(
                    jobs.c.status.in_((JobStatus.queued.value, JobStatus.running.value)),
                    jobs.c.run_after <= now,
                )
            ).one()
        oldest = waiting[1]
        return {
            "queue_depth": int(waiting[0] or 0),
            "oldest_queued_age_s": round((now - oldest).total_seconds(), 1) if oldest else None,
        }

    def finish(self, job: Job, result: dict[str, Any]) -> None:
        """Mark done if this attempt still holds the lease; joins an open unit of work (the
        job's effects and its being done commit together)."""
        with self.rt.db.write() as conn:
            self._finish(conn, job, result)

    def _finish(self, conn: Connection, job: Job, result: dict[str, Any]) -> None:
        done = conn.execute(
            jobs.update()
            .where(
                jobs.c.id == job.id,
                jobs.c.status == JobStatus.running.value,
                jobs.c.locked_by == job.locked_by,
                jobs.c.attempts == job.attempts,
            )
            .values(
                status=JobStatus.done.value,
                result=result,
                finished_at=self.rt.clock.now(),
                lease_until=None,
                last_error=None,
            )
        ).rowcount
        if not done:
            raise LeaseLost()

    def fail(self, job: Job, error: str) -> JobStatus:
        """Record a failed attempt: retry later with backoff, or give up after max attempts."""
        now = self.rt.clock.now()
        final = job.attempts >= job.max_attempts
        status = JobStatus.failed if final else JobStatus.queued
        with self.rt.db.write() as conn:
            conn.execute(
                jobs.update()
                .where(
                    jobs.c.id == job.id,
                    jobs.c.locked_by == job.locked_by,
                    jobs.c.attempts == job.attempts,
                )
                .values(
                    status=status.value,
                    last_error=error[:2000],
                    lease_until=None,
                    run_after=now + self.backoff * (2 ** (job.attempts - 1)),
                    finished_at=now if final else None,
                )
            )
        return status

    def hold(self, job: Job, reason: str, until: datetime) -> None:
        """Put a job back to wait (not an attempt that failed): it runs again after ``until``."""
        with self.rt.db.write() as conn:
            conn.execute(
                jobs.update()
                .where(
                    jobs.c.id == job.id,
                    jobs.c.locked_by == job.locked_by,
                )
                .values(
                    status=JobStatus.waiting.value,
                    last_error=reason[:2000],
                    lease_until=None,
                    run_after=until,
                    attempts=max(0, job.attempts - 1),
                )
            )

    def get(self, job_id: str) -> Job:
        with self.rt.db.read() as conn:
            row = conn.execute(sa.select(jobs).where(jobs.c.id == job_id)).first()
        if row is None:
            raise errors.NotFound("no such job", code="job_not_found")
        return _job(row)

    def find(
        self,
        workspace_id: str,
        *,
        kind: str | None = None,
        status: str | None = None,
        limit: int = 100,
    ) -> list[Job]:
        q = sa.select(jobs).where(jobs.c.workspace_id == workspace_id)
        if kind:
            q = q.where(jobs.c.kind == kind)
        if status:
            q = q.where(jobs.c.status == status)
        with self.rt.db.read() as conn:
            return [_job(r) for r in conn.execute(q.order_by(jobs.c.created_at).limit(limit))]

    def counts(self, workspace_id: str | None = None) -> dict[str, int]:
        q = sa.select(jobs.c.status, sa.func.count()).group_by(jobs.c.status)
        if workspace_id:
            q = q.where(jobs.c.workspace_id == workspace_id)
        with self.rt.db.read() as conn:
            return {status: n for status, n in conn.execute(q)}
