"""The deployment's topology as processes on PostgreSQL (deploy/compose.yaml without the
containers): two `memwise serve --no-worker`, two `memwise worker`, and a burst of
conversations through both servers — every one extracted once, no 5xx."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from tests.conftest import _pg_clone, _pg_drop
from tests.e2e.conftest import ADMIN, free_port

CONVERSATIONS = 40


def _start(args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    exe = Path(sys.executable).parent / "memwise"
    return subprocess.Popen(
        [str(exe), *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


@pytest.fixture
def topology(request: pytest.FixtureRequest) -> Iterator[tuple[list[str], str]]:
    name, url = _pg_clone(request.getfixturevalue("pg_template"))
    env = {**os.environ, "MEMWISE_ADMIN_TOKEN": ADMIN, "MEMWISE_DATABASE_URL": url}
    ports = [free_port(), free_port()]
    procs = [_start(["serve", "--port", str(p), "--no-worker"], env) for p in ports]
    procs += [_start(["worker", "--poll", "0.2"], env) for _ in range(2)]
    urls = [f"http://127.0.0.1:{p}" for p in ports]
    try:
        deadline = time.monotonic() + 60
        for u in urls:
            while True:
                try:
                    if httpx.get(f"{u}/v1/health", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline, "a server did not start"
                time.sleep(0.2)
        yield urls, url
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=20)
        _pg_drop(name)


@pytest.mark.postgres
def test_two_servers_two_workers_extract_every_conversation_once(
    topology: tuple[list[str], str],
) -> None:
    urls, database_url = topology
    admin = {"Authorization": f"Bearer {ADMIN}"}
    made = httpx.post(f"{urls[0]}/v1/workspaces", json={"name": "Burst"}, headers=admin).json()
    key = {"Authorization": f"Bearer {made['api_key']}"}
    agent = httpx.post(
        f"{urls[1]}/v1/agents",
        json={"name": "Eve", "memory_enabled": True, "domain": "retail"},
        headers=key,
    ).json()["id"]
    statuses: list[int] = []

    def one(n: int) -> str:
        with httpx.Client(base_url=urls[n % 2], headers=key, timeout=30) as c:
            contact = c.post("/v1/contacts", json={"name": f"Customer {n}"})
            conv = c.post(
                "/v1/conversations",
                json={"agent_id": agent, "channel": "web", "contact_id": contact.json()["id"]},
            )
            cid = conv.json()["id"]
            turn = c.post(
                f"/v1/conversations/{cid}/turns",
                json={"role": "customer", "text": "Please don't call me, I prefer email."},
            )
            end = c.post(f"/v1/conversations/{cid}/end")
            statuses.extend(r.status_code for r in (contact, conv, turn, end))
            return str(cid)

    with ThreadPoolExecutor(8) as pool:
        convs = list(pool.map(one, range(CONVERSATIONS)))
    assert all(s < 500 for s in statuses) and len(statuses) == 4 * CONVERSATIONS
    engine = sa.create_engine(database_url)
    deadline = time.monotonic() + 120
    try:
        while True:
            with engine.connect() as conn:
                done = conn.exec_driver_sql(
                    "SELECT count(*) FROM jobs WHERE kind = 'extract' AND status = 'done'"
                ).scalar()
            if done == CONVERSATIONS or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        with engine.connect() as conn:
            per_item = conn.exec_driver_sql(
                "SELECT conversation_id, normalized, count(*) FROM memory_items "
                "WHERE lifecycle = 'active' GROUP BY conversation_id, normalized"
            ).all()
            jobs = conn.exec_driver_sql(
                "SELECT status, count(*) FROM jobs WHERE kind = 'extract' GROUP BY status"
            ).all()
    finally:
        engine.dispose()
    assert dict(jobs) == {"done": CONVERSATIONS}
    assert {c for c, _, _ in per_item} == set(convs)  # every conversation extracted
    assert all(n == 1 for _, _, n in per_item)  # and each item applied once
