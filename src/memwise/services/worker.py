"""The worker: runs due jobs (and the scheduled sweeps) until there are none, or forever."""

from __future__ import annotations

import os
import socket
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from memwise.services.jobs import Job, Jobs

Handler = Callable[[Job], Any]


class Worker:
    def __init__(
        self,
        jobs: Jobs,
        handlers: dict[str, Handler],
        sweeps: list[Callable[[], Any]] | None = None,
        name: str | None = None,
    ) -> None:
        self.jobs = jobs
        self.handlers = handlers
        self.sweeps = sweeps or []
        self.name = name or f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"

    def run_once(
        self, max_jobs: int | None = None, progress: Callable[[Job, Any], None] | None = None
    ) -> Counter[str]:
        """Run the sweeps, then every due job until none is left; returns counts by outcome."""
        counts: Counter[str] = Counter()
        for sweep in self.sweeps:
            sweep()
        while max_jobs is None or sum(counts.values()) < max_jobs:
            job = self.jobs.claim(self.name, list(self.handlers))
            if job is None:
                break
            try:
                outcome = self.handlers[job.kind](job)
                status = getattr(outcome, "status", "done")
            except Exception as exc:  # an unexpected error: the attempt fails, the job stays
                status = f"error:{self.jobs.fail(job, f'{type(exc).__name__}: {exc}').value}"
                outcome = None
            counts[f"{job.kind}:{status}"] += 1
            if progress:
                progress(job, outcome)
        return counts

    def run_forever(self, poll_seconds: float = 2.0, stop: threading.Event | None = None) -> None:
        stop = stop or threading.Event()
        while not stop.is_set():
            if not self.run_once():
                stop.wait(poll_seconds)
