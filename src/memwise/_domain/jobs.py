"""A job of the queue: what it is, where it stands."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from memwise._ids import WorkspaceId


class JobStatus(StrEnum):
    queued = "queued"
    running = "running"
    done = "done"
    failed = "failed"
    waiting = "waiting"  # held back by a rule (the monthly allowance); retried later


@dataclass(frozen=True)
class Job:
    id: str
    workspace_id: WorkspaceId
    kind: str
    key: str
    payload: dict[str, Any]
    status: JobStatus
    attempts: int
    max_attempts: int
    run_after: datetime
    lease_until: datetime | None
    locked_by: str | None
    last_error: str | None
    result: dict[str, Any] | None
    created_at: datetime
    finished_at: datetime | None
