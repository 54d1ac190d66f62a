"""The worker: runs due jobs (and the scheduled sweeps) until there are none, or forever."""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from memwise import _observability as observability
from memwise._domain.jobs import Job
from memwise._ids import WorkspaceId
from memwise._services.platform.jobs import Jobs

Handler = Callable[[Job], Any]
log = logging.getLogger("memwise.worker")
FORCE_HORIZON = timedelta(days=2)  # a forced run reaches tonight's scheduled work


class Worker:
    def __init__(
        self,
        jobs: Jobs,
        handlers: dict[str, Handler],
        sweeps: list[Callable[[bool, WorkspaceId | None], Any]] | None = None,
        name: str | None = None,
        sweep_every: float = 60.0,
    ) -> None:
        self.jobs = jobs
        self.handlers = handlers
        self.sweeps = sweeps or []
        self.name = name or f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"
        self.sweep_every = sweep_every
        self._last_sweep: float | None = None
        self.last_run_at: Any = None  # when run_once last finished (the clock's time)
        self.last_counts: Counter[str] = Counter()
        self.errors: list[str] = []  # the reasons of the last run's failed or retried jobs

    def run_once(
        self,
        max_jobs: int | None = None,
        progress: Callable[[Job, Any], None] | None = None,
        force: bool = False,
        workspace_id: WorkspaceId | None = None,
    ) -> Counter[str]:
        """Run the sweeps, then every due job until none is left; returns counts by outcome.

        ``force`` runs scheduled jobs (the nightly promotion) as if their time had come;
        jobs waiting on a rule (the monthly allowance) keep waiting. ``workspace_id`` runs
        one workspace's sweeps and jobs only.
        """
        counts: Counter[str] = Counter()
        self.errors = []
        now = time.monotonic()
        if (
            force
            or workspace_id
            or self._last_sweep is None
            or now - self._last_sweep >= self.sweep_every
        ):
            self._last_sweep = now  # the sweeps scan whole tables: at most once a minute
            for sweep in self.sweeps:
                try:
                    sweep(force, workspace_id)
                except Exception as exc:  # a failing sweep is logged; jobs still run
                    log.error("a scheduled sweep failed: %s: %s", type(exc).__name__, exc)
        as_of = self.jobs.rt.clock.now() + FORCE_HORIZON if force else None
        while max_jobs is None or sum(counts.values()) < max_jobs:
            job = self.jobs.claim(
                self.name, list(self.handlers), as_of=as_of, workspace_id=workspace_id
            )
            if job is None:
                break
            try:
                with observability.span("memwise.job", kind=job.kind, job=job.id):
                    outcome = self.handlers[job.kind](job)
                status = getattr(outcome, "status", "done")
                reason = getattr(outcome, "reason", None)
                if status in ("failed", "retrying") and reason:
                    self.errors.append(f"{job.kind} {job.id}: {str(reason)[:300]}")
            except Exception as exc:  # an unexpected error: the attempt fails, the job stays
                status = f"error:{self.jobs.fail(job, f'{type(exc).__name__}: {exc}').value}"
                self.errors.append(f"{job.kind} {job.id}: {type(exc).__name__}: {str(exc)[:300]}")
                outcome = None
            counts[f"{job.kind}:{status}"] += 1
            observability.JOB_RUNS.labels(job.kind, str(status).split(":")[0]).inc()
            if progress:
                progress(job, outcome)
        self.last_run_at = self.jobs.rt.clock.now()
        self.last_counts = counts
        return counts

    def run_forever(self, poll_seconds: float = 2.0, stop: threading.Event | None = None) -> None:
        stop = stop or threading.Event()
        while not stop.is_set():
            if not self.run_once():
                stop.wait(poll_seconds)
