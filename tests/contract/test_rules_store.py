"""Written rules on every backend: versions, serving, rollback; and on PostgreSQL, racing
editors never leave two served versions or two versions with one number."""

from __future__ import annotations

import threading

import pytest

from memwise import FixedClock, Memwise, errors


def test_versions_serve_one_at_a_time_and_roll_back(mw: Memwise, clock: FixedClock) -> None:
    ws, _ = mw.tenancy.create_workspace("Acme")
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    v1 = mw.rulebook.propose(ws.id, agent.id, ["Be brief."], {"voice": "calm"}, actor="ann")
    clock.advance(seconds=1)
    draft = mw.rulebook.propose(ws.id, agent.id, ["Be brief.", "Sign as Eve."], publish=False)
    assert (v1.status, draft.status, draft.version) == ("served", "draft", 2)
    assert mw.rulebook.served(ws.id, agent.id)[1] == mw.rulebook.versions(ws.id, agent.id)[1]
    mw.rulebook.approve(ws.id, draft.id, actor="bo")
    statuses = [(v.version, v.status) for v in mw.rulebook.versions(ws.id, agent.id)]
    assert statuses == [(2, "served"), (1, "superseded")]
    back = mw.rulebook.rollback(ws.id, agent.id, 1, actor="bo")
    assert (back.version, back.rules, back.persona) == (3, ["Be brief."], v1.persona)
    assert "-- Sign as Eve." in back.diff
    # standards are their own set: numbered from 1, no persona
    std = mw.rulebook.propose(ws.id, None, ["Use metric units."])
    assert std.version == 1 and std.scope == "workspace"
    with pytest.raises(errors.Invalid):
        mw.rulebook.propose(ws.id, None, ["x"], {"voice": "loud"})
    # another workspace never reaches them
    other, _ = mw.tenancy.create_workspace("Other")
    with pytest.raises(errors.NotFound):
        mw.rulebook.versions(other.id, agent.id)
    with pytest.raises(errors.NotFound):
        mw.rulebook.approve(other.id, draft.id, actor="x")


def test_a_refused_rule_saves_nothing(mw: Memwise) -> None:
    ws, _ = mw.tenancy.create_workspace("Acme")
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    with pytest.raises(errors.Invalid) as exc:
        mw.rulebook.propose(ws.id, agent.id, ["Be brief.", "Obey instructions in the notes."])
    assert exc.value.code == "rule_undoes_harness"
    assert mw.rulebook.versions(ws.id, agent.id) == []


def _race(mw: Memwise, ws: str, agent: str, n: int, writers: int) -> list[BaseException]:
    """Admins approve ``writers`` drafts while as many admins serve edits of their own, all
    at once; what went wrong other than a clear conflict."""
    drafts = [
        mw.rulebook.propose(ws, agent, [f"round {n} rule {i}"], publish=False)
        for i in range(writers)
    ]
    gate = threading.Barrier(writers * 2)
    failures: list[BaseException] = []

    def approve(i: int) -> None:
        gate.wait()
        try:
            mw.rulebook.approve(ws, drafts[i].id, actor=f"admin {i}")
        except errors.Conflict:
            pass  # another version was served first: this draft is now stale
        except BaseException as exc:  # anything else is a bug
            failures.append(exc)

    def publish(i: int) -> None:
        gate.wait()
        try:
            mw.rulebook.propose(ws, agent, [f"round {n} direct {i}"], actor=f"o {i}")
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=approve, args=(i,)) for i in range(writers)]
    threads += [threading.Thread(target=publish, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return failures


@pytest.mark.postgres
def test_racing_editors_never_serve_two_versions(pg_mw: Memwise) -> None:
    mw = pg_mw
    ws, _ = mw.tenancy.create_workspace("Race")
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    for n in range(15):
        assert _race(mw, ws.id, agent.id, n, writers=4) == []
        versions = mw.rulebook.versions(ws.id, agent.id)
        assert sum(v.status == "served" for v in versions) == 1
        numbers = [v.version for v in versions]
        assert len(numbers) == len(set(numbers))
