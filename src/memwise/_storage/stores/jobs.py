"""The job queue's SQL: insert once per key, pick the next due job, move a job between
states only while the attempt that holds it is still the current one.

Picking uses ``FOR UPDATE SKIP LOCKED`` on PostgreSQL (several workers at once) and runs in
an immediate transaction on SQLite (one writer at a time); the query is the same.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._domain.jobs import Job, JobStatus
from memwise._ids import WorkspaceId, new_id
from memwise._storage.schema import jobs


def job_from_row(r: Any) -> Job:
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


def insert_once(
    conn: Connection,
    workspace_id: WorkspaceId,
    kind: str,
    key: str,
    payload: dict[str, Any],
    now: datetime,
    *,
    run_after: datetime | None = None,
    max_attempts: int = 5,
) -> tuple[str, bool]:
    """A queued job unless one with this key exists: (job id, created)."""
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


def _due(now: datetime, as_of: datetime | None) -> Any:
    """Queued and scheduled up to ``as_of`` (or now), waiting and due, or running with its
    lease run out."""
    return sa.or_(
        sa.and_(
            jobs.c.status == JobStatus.queued.value, jobs.c.run_after <= max(now, as_of or now)
        ),
        sa.and_(jobs.c.status == JobStatus.waiting.value, jobs.c.run_after <= now),
        sa.and_(jobs.c.status == JobStatus.running.value, jobs.c.lease_until < now),
    )


def due_queues(
    conn: Connection,
    now: datetime,
    *,
    as_of: datetime | None = None,
    kinds: list[str] | None = None,
    workspace_id: WorkspaceId | None = None,
) -> list[tuple[WorkspaceId, str, datetime]]:
    """Each (workspace, kind) with a due job, and its oldest due time: the queues the
    worker takes turns between."""
    q = (
        sa.select(jobs.c.workspace_id, jobs.c.kind, sa.func.min(jobs.c.run_after))
        .where(_due(now, as_of))
        .group_by(jobs.c.workspace_id, jobs.c.kind)
    )
    if kinds:
        q = q.where(jobs.c.kind.in_(kinds))
    if workspace_id:
        q = q.where(jobs.c.workspace_id == workspace_id)
    return [(WorkspaceId(str(w)), str(k), t) for w, k, t in conn.execute(q)]


def next_due(
    conn: Connection,
    now: datetime,
    *,
    as_of: datetime | None = None,
    kinds: list[str] | None = None,
    workspace_id: WorkspaceId | None = None,
    job_id: str | None = None,
) -> Any | None:
    """The next due row, locked (see ``_due``)."""
    q = sa.select(jobs).where(_due(now, as_of))
    if kinds:
        q = q.where(jobs.c.kind.in_(kinds))
    if workspace_id:
        q = q.where(jobs.c.workspace_id == workspace_id)
    if job_id:
        q = q.where(jobs.c.id == job_id)
    q = q.order_by(jobs.c.run_after, jobs.c.id).limit(1).with_for_update(skip_locked=True)
    return conn.execute(q).first()


def give_up(conn: Connection, row: Any, now: datetime, error: str) -> None:
    conn.execute(
        jobs.update()
        .where(jobs.c.id == row.id)
        .values(status=JobStatus.failed.value, lease_until=None, finished_at=now, last_error=error)
    )


def take(conn: Connection, row: Any, lease_until: datetime, worker: str) -> Job:
    """Mark a picked row running for one more attempt, held by ``worker``."""
    conn.execute(
        jobs.update()
        .where(jobs.c.id == row.id)
        .values(
            status=JobStatus.running.value,
            attempts=row.attempts + 1,
            lease_until=lease_until,
            locked_by=worker[:100],
        )
    )
    return job_from_row(conn.execute(sa.select(jobs).where(jobs.c.id == row.id)).one())


def _held(job: Job) -> Any:
    """The attempt that holds the job is still the current one."""
    return sa.and_(
        jobs.c.id == job.id, jobs.c.locked_by == job.locked_by, jobs.c.attempts == job.attempts
    )


def mark_done(conn: Connection, job: Job, result: dict[str, Any], now: datetime) -> bool:
    done = conn.execute(
        jobs.update()
        .where(_held(job), jobs.c.status == JobStatus.running.value)
        .values(
            status=JobStatus.done.value,
            result=result,
            finished_at=now,
            lease_until=None,
            last_error=None,
        )
    ).rowcount
    return bool(done)


def mark_attempt_failed(
    conn: Connection,
    job: Job,
    status: JobStatus,
    error: str,
    run_after: datetime,
    finished_at: datetime | None,
) -> None:
    conn.execute(
        jobs.update()
        .where(_held(job))
        .values(
            status=status.value,
            last_error=error[:2000],
            lease_until=None,
            run_after=run_after,
            finished_at=finished_at,
        )
    )


def mark_waiting(conn: Connection, job: Job, reason: str, until: datetime) -> None:
    """Back to wait; the attempt it was is not counted."""
    conn.execute(
        jobs.update()
        .where(jobs.c.id == job.id, jobs.c.locked_by == job.locked_by)
        .values(
            status=JobStatus.waiting.value,
            last_error=reason[:2000],
            lease_until=None,
            run_after=until,
            attempts=max(0, job.attempts - 1),
        )
    )


def by_id(conn: Connection, job_id: str) -> Job | None:
    row = conn.execute(sa.select(jobs).where(jobs.c.id == job_id)).first()
    return job_from_row(row) if row else None


def by_key(conn: Connection, workspace_id: WorkspaceId, key: str) -> Job | None:
    row = conn.execute(
        sa.select(jobs).where(jobs.c.workspace_id == workspace_id, jobs.c.idempotency_key == key)
    ).first()
    return job_from_row(row) if row else None


def find(
    conn: Connection,
    workspace_id: WorkspaceId,
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
    return [job_from_row(r) for r in conn.execute(q.order_by(jobs.c.created_at).limit(limit))]


def counts(conn: Connection, workspace_id: WorkspaceId | None = None) -> dict[str, int]:
    q = sa.select(jobs.c.status, sa.func.count()).group_by(jobs.c.status)
    if workspace_id:
        q = q.where(jobs.c.workspace_id == workspace_id)
    return {status: n for status, n in conn.execute(q)}


def running_leased(conn: Connection, workspace_id: WorkspaceId | None, now: datetime) -> int:
    """Jobs a worker is running now: claimed, their lease not yet over."""
    q = sa.select(sa.func.count()).where(
        jobs.c.status == JobStatus.running.value, jobs.c.lease_until > now
    )
    if workspace_id:
        q = q.where(jobs.c.workspace_id == workspace_id)
    return int(conn.execute(q).scalar_one())


def due_now(conn: Connection, now: datetime) -> tuple[int, datetime | None]:
    """How many jobs are queued or running and due, and the oldest one's run_after."""
    n, oldest = conn.execute(
        sa.select(sa.func.count(), sa.func.min(jobs.c.run_after)).where(
            jobs.c.status.in_((JobStatus.queued.value, JobStatus.running.value)),
            jobs.c.run_after <= now,
        )
    ).one()
    return int(n or 0), oldest


def newest_of_kind(conn: Connection, workspace_id: WorkspaceId, kind: str, limit: int) -> list[Job]:
    """The workspace's jobs of one kind, newest first."""
    q = (
        sa.select(jobs)
        .where(jobs.c.workspace_id == workspace_id, jobs.c.kind == kind)
        .order_by(jobs.c.created_at.desc(), jobs.c.id.desc())
        .limit(limit)
    )
    return [job_from_row(r) for r in conn.execute(q)]


def keys_like(conn: Connection, workspace_id: WorkspaceId, pattern: str) -> list[Any]:
    """(idempotency_key, status) of the workspace's jobs whose key is LIKE ``pattern``,
    newest first."""
    return list(
        conn.execute(
            sa.select(jobs.c.idempotency_key, jobs.c.status)
            .where(jobs.c.workspace_id == workspace_id, jobs.c.idempotency_key.like(pattern))
            .order_by(jobs.c.created_at.desc())
        ).all()
    )


def counts_by_kind(conn: Connection) -> list[tuple[str, str, int]]:
    """(kind, status, how many) over every workspace."""
    q = sa.select(jobs.c.kind, jobs.c.status, sa.func.count()).group_by(jobs.c.kind, jobs.c.status)
    return [(str(k), str(s), int(n)) for k, s, n in conn.execute(q)]


def forget_naming(conn: Connection, workspace_id: WorkspaceId, kind: str, object_id: str) -> int:
    """Delete the workspace's jobs of ``kind`` whose payload names ``object_id`` (an event
    delivery carrying a memory item that was erased): how many. Ids are unique random
    strings, so a text match on the payload finds exactly the jobs that carry it."""
    found = conn.execute(
        jobs.delete().where(
            jobs.c.workspace_id == workspace_id,
            jobs.c.kind == kind,
            sa.cast(jobs.c.payload, sa.Text).contains(object_id, autoescape=True),
        )
    )
    return int(found.rowcount or 0)
