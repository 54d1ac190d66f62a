"""Two writers, one key: on PostgreSQL the supersession decision is serialised per (contact,
key), so racing writers never leave two verified values."""

from __future__ import annotations

import threading

import pytest

from memwise import Memwise
from memwise._domain.memory import Evidence
from memwise._services.memory.memory import NewItem

CITIES = ["Hamburg", "Munich", "Berlin", "Cologne"]
ROUNDS = 25


@pytest.mark.postgres
def test_racing_writers_never_leave_two_verified_values(pg_mw: Memwise) -> None:
    mw = pg_mw
    ws, _ = mw.tenancy.create_workspace("Race")
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    doubled = 0
    for n in range(ROUNDS):
        ann = mw.tenancy.create_contact(ws.id, f"Ann {n}")
        said = []
        for city in CITIES:  # one conversation per statement: no two in the same turn
            conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=ann.id)
            said.append(mw.record.append(ws.id, conv.id, "customer", f"I live in {city} now."))
        start = threading.Barrier(len(CITIES))

        def write(
            i: int,
            contact: str = ann.id,
            turns: list = said,
            gate: threading.Barrier = start,  # type: ignore[type-arg]
        ) -> None:
            gate.wait()
            mw.memory.write(
                ws.id,
                contact,
                NewItem(
                    "fact",
                    f"Lives in {CITIES[i]}",
                    key="home.city",
                    evidence=[Evidence(turns[i].id, f"I live in {CITIES[i]} now")],
                ),
            )

        threads = [threading.Thread(target=write, args=(i,)) for i in range(len(CITIES))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        served = [s for s in mw.memory.items(ws.id, ann.id) if s.item.key == "home.city"]
        verified = [s for s in served if s.trust.value in ("verified", "stated")]
        doubled += len(verified) > 1
    assert doubled == 0
