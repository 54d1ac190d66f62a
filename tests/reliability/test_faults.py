"""Reliability under faults: workers killed with SIGKILL mid-extraction, and several workers
racing over the same jobs on PostgreSQL. Bounded, loopback only.

Workers are forked processes that open their own connections (no connection crosses a fork).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from memwise import Memwise
from memwise._domain.jobs import Job
from memwise._services.platform.worker import Worker
from memwise._storage.schema import jobs, memory_items
from tests.conftest import _pg_clone, _pg_drop

FORK = multiprocessing.get_context("fork")
CONVERSATIONS = 200  # more than 100 kills can finish, fewer than take a minute
KILLS = 100
LEASE = timedelta(seconds=1)


def _extract_forever(url: str) -> None:
    """A worker process: extraction jobs, a short lease, until killed or nothing is left."""
    mw = Memwise.open(url, migrate=False)
    mw.jobs.lease = LEASE
    worker = mw.worker()
    while worker.run_once(max_jobs=50):
        pass
    mw.close()
    os._exit(0)


def test_killed_workers_lose_nothing_and_apply_nothing_twice(sqlite_url: str) -> None:
    mw = Memwise.open(sqlite_url, migrate=False)
    ws, _ = mw.tenancy.create_workspace("Crash Co", "UTC", "business")
    agent = mw.tenancy.create_agent(ws.id, "Eve", memory_enabled=True, domain="retail")
    rng = random.Random(13)
    for n in range(CONVERSATIONS):
        contact = mw.tenancy.create_contact(ws.id, f"Customer {n}")
        conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact.id)
        mw.record.append(ws.id, conv.id, "customer", "Please email me, I prefer email.")
        mw.record.append(ws.id, conv.id, "customer", f"My order number is {1000 + n}.")
        mw.record.end(ws.id, conv.id)
    # A job whose worker dies on its last attempt fails (tests/security); here every job must
    # survive up to 100 kills, so each may be attempted that often.
    with mw.rt.db.write() as conn:
        conn.execute(jobs.update().values(max_attempts=KILLS + 10))

    def remaining() -> int:
        with mw.rt.db.read() as conn:
            return int(
                conn.execute(
                    sa.select(sa.func.count()).where(
                        jobs.c.kind == "extract", jobs.c.status != "done"
                    )
                ).scalar_one()
            )

    kills = 0
    while kills < KILLS and remaining():
        child = FORK.Process(target=_extract_forever, args=(sqlite_url,))
        child.start()
        time.sleep(rng.uniform(0.01, 0.06))
        if child.is_alive():
            os.kill(child.pid or 0, signal.SIGKILL)
            kills += 1
        child.join()
    time.sleep(LEASE.total_seconds() + 0.2)  # leases held by killed workers run out
    survivor = FORK.Process(target=_extract_forever, args=(sqlite_url,))
    survivor.start()
    survivor.join(timeout=300)
    assert survivor.exitcode == 0

    with mw.rt.db.read() as conn:
        statuses = conn.execute(
            sa.select(jobs.c.status, sa.func.count())
            .where(jobs.c.kind == "extract")
            .group_by(jobs.c.status)
        ).all()
        per_conversation = conn.execute(
            sa.select(memory_items.c.conversation_id, memory_items.c.normalized, sa.func.count())
            .where(memory_items.c.workspace_id == ws.id, memory_items.c.lifecycle == "active")
            .group_by(memory_items.c.conversation_id, memory_items.c.normalized)
        ).all()
    print(f"\n{kills} workers killed mid-run; {CONVERSATIONS} conversations extracted once")
    assert kills == KILLS, f"only {kills} kills landed before the work ran out"
    assert dict(statuses) == {"done": CONVERSATIONS}  # none lost
    assert all(n == 1 for _, _, n in per_conversation)  # no item written twice
    extracted = {conv for conv, _, _ in per_conversation}
    assert len(extracted) == CONVERSATIONS  # every conversation's preference is there, once
    used, _, _ = mw.metering.remaining(ws.id)
    assert used == CONVERSATIONS  # each extraction billed exactly once
    mw.close()


def _noop_worker(url: str, jobs_kind: str) -> None:
    mw = Memwise.open(url, migrate=False)

    def apply(job: Job) -> dict[str, Any]:
        with mw.rt.db.write() as conn:
            conn.exec_driver_sql(
                "INSERT INTO applied (job_id, worker) VALUES (%(job)s, %(worker)s)",
                {"job": job.id, "worker": str(os.getpid())},
            )
            mw.jobs.finish(job, {})  # rolls the insert back if the lease was lost
        return {}

    worker = Worker(mw.jobs, {jobs_kind: apply})
    while worker.run_once(max_jobs=200):
        pass
    mw.close()
    os._exit(0)


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> Iterator[str]:
    name, url = _pg_clone(request.getfixturevalue("pg_template"))
    yield url
    _pg_drop(name)


@pytest.mark.postgres
@pytest.mark.parametrize("workers", [2, 4])
def test_racing_workers_on_postgresql_apply_each_job_once(pg_url: str, workers: int) -> None:
    total = 2_000 if workers == 4 else 1_000  # every claim raced by all the workers
    mw = Memwise.open(pg_url, migrate=False)
    ws, _ = mw.tenancy.create_workspace("Race Co", "UTC", "business")
    with mw.rt.db.write() as conn:
        conn.exec_driver_sql("CREATE TABLE applied (job_id text NOT NULL, worker text NOT NULL)")
        for n in range(total):
            mw.jobs.enqueue(ws.id, "noop", f"noop:{n}", {"n": n})
    children = [FORK.Process(target=_noop_worker, args=(pg_url, "noop")) for _ in range(workers)]
    for child in children:
        child.start()
    for child in children:
        child.join(timeout=600)
        assert child.exitcode == 0
    with mw.rt.db.read() as conn:
        applied, distinct, by = conn.execute(
            sa.text("SELECT count(*), count(DISTINCT job_id), count(DISTINCT worker) FROM applied")
        ).one()
        done = conn.execute(
            sa.select(sa.func.count()).where(jobs.c.kind == "noop", jobs.c.status == "done")
        ).scalar_one()
    assert applied == distinct == done == total  # every job applied, none twice
    assert by == workers  # and they really raced
    mw.close()
