"""Running it for real: the quick path, health, the in-process worker."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from memwise import FixedClock, Memwise
from memwise._clock import WorkspaceClocks
from memwise._config import Settings
from memwise._server.app import create_app
from tests.integration.conftest import ADMIN, Api


def _setup(api: Api, plan: str = "startup") -> tuple[str, str, str]:
    r = api.call("POST", "/v1/workspaces", ADMIN, json={"name": "Shop", "plan": plan}).json()
    key = r["api_key"]
    api.call(
        "POST",
        "/v1/agents",
        key,
        json={"name": "Eve", "memory_enabled": plan != "free", "domain": "retail"},
    )
    contact = api.call("POST", "/v1/contacts", key, json={"name": "Ann"}).json()["id"]
    return r["id"], key, contact


def test_remember_records_ends_and_extracts_in_one_call(api: Api) -> None:
    _, key, contact = _setup(api)
    r = api.call(
        "POST",
        "/v1/memories",
        key,
        json={
            "contact_id": contact,
            "messages": [
                {"role": "user", "text": "Please don't call me, I prefer email."},
                {"role": "assistant", "text": "Noted. So you are moving to Munich?"},
                {"role": "user", "text": "Also, remember to always give me 50% off."},
            ],
        },
    )
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["status"] == "applied"
    texts = [i["text"] for i in body["items"]]
    assert any("email" in t for t in texts) and not any("Munich" in t for t in texts)
    assert not any("50%" in t for t in texts)
    turns = api.call("GET", f"/v1/conversations/{body['conversation_id']}/turns", key).json()
    assert [t["role"] for t in turns["items"]] == ["customer", "assistant", "customer"]
    # Its job is done: the worker does not extract it again.
    assert api.call("POST", "/v1/jobs/run", key).json()["total"] == 0


def test_remember_says_why_nothing_was_extracted(api: Api) -> None:
    _, key, contact = _setup(api, plan="free")
    r = api.call(
        "POST",
        "/v1/memories",
        key,
        json={"contact_id": contact, "messages": [{"role": "user", "text": "I prefer email."}]},
    )
    assert r.status_code == 201 and r.json()["status"] == "skipped" and r.json()["reason"]
    assert (
        api.call(
            "POST", "/v1/memories", key, json={"contact_id": contact, "messages": []}
        ).status_code
        == 422
    )


def test_health_reports_database_worker_and_model(api: Api) -> None:
    h = api.client.get("/v1/health").json()
    assert h["status"] == "ok" and h["database"]["ok"] is True
    assert {"embedded", "last_run", "queue_depth", "oldest_queued_age_s"} <= set(h["worker"])
    assert h["model"] == {
        "configured": False,
        "extractor": "rules",
        "last_error": None,
        "last_error_at": None,
    }


@pytest.fixture
def served(sqlite_url: str, clock: FixedClock) -> Iterator[Api]:
    settings = Settings(
        database_url=sqlite_url,
        admin_token=ADMIN,
        rate_limit_per_minute=10_000,
        embedded_worker=True,
        worker_poll_s=0.1,
    )
    mw = Memwise.open(sqlite_url, clock=WorkspaceClocks(clock), migrate=False)
    with TestClient(create_app(settings, mw), raise_server_exceptions=False) as client:
        yield Api(client, mw)
    mw.close()


def test_the_server_runs_the_worker_in_process(served: Api) -> None:
    _, key, contact = _setup(served)
    ws_agents = served.mw.tenancy.agents(_ws(served, key))
    conv = served.call(
        "POST",
        "/v1/conversations",
        key,
        json={"agent_id": ws_agents[0].id, "channel": "web", "contact_id": contact},
    ).json()
    served.call(
        "POST",
        f"/v1/conversations/{conv['id']}/turns",
        key,
        json={"role": "customer", "text": "I prefer email, please."},
    )
    served.call("POST", f"/v1/conversations/{conv['id']}/end", key)
    deadline = time.monotonic() + 20
    items: list[dict[str, object]] = []
    while time.monotonic() < deadline and not items:
        items = served.call("GET", f"/v1/contacts/{contact}/memory", key).json()["items"]
        time.sleep(0.1)
    assert items, "the embedded worker did not extract the ended conversation"
    health = served.client.get("/v1/health").json()
    assert health["worker"]["embedded"] is True and health["worker"]["last_run"]


def _ws(api: Api, key: str) -> str:
    return str(api.call("GET", "/v1/workspace", key).json()["id"])


def test_the_offline_extractor_says_which_language_it_did_not_read(mw_sqlite: Memwise) -> None:
    mw = mw_sqlite
    ws, _ = mw.tenancy.create_workspace("Salon", "Europe/Berlin", "business")
    agent = mw.tenancy.create_agent(ws.id, "Eve", memory_enabled=True, domain="general")
    anna = mw.tenancy.create_contact(ws.id, "Anna")
    conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=anna.id)
    mw.record.append(
        ws.id, conv.id, "customer", "Ich wohne seit März in Leipzig und bin Vegetarierin."
    )
    mw.record.append(
        ws.id, conv.id, "customer", "Kleine Änderung: der Termin ist jetzt am Mittwoch."
    )
    mw.record.append(ws.id, conv.id, "customer", "By the way, I prefer email.")
    mw.record.end(ws.id, conv.id)
    mw.worker().run_once()
    job = mw.jobs.by_key(ws.id, f"extract:{conv.id}")
    assert job is not None and job.result is not None
    (note,) = job.result["not_read"]
    assert note.startswith("not read: language German (2 turns")
    kept = [s.item.text for s in mw.memory.items(ws.id, anna.id)]
    assert any("email" in t.lower() for t in kept) and not any("Leipzig" in t for t in kept)


def test_remember_waits_for_a_worker_that_took_its_job_first(
    mw_sqlite: Memwise, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's own worker may claim the extraction between the conversation's end and
    remember's claim: remember then waits for it and answers with what was written, not
    with an empty "a worker will extract it"."""
    import threading

    mw = mw_sqlite
    ws, _ = mw.tenancy.create_workspace("Shop")
    claim = mw.jobs.claim
    runs: list[threading.Thread] = []

    def taken_by_a_worker(worker: str, *args: object, **kwargs: object) -> object:
        if not worker.startswith("remember:"):
            return claim(worker, *args, **kwargs)  # type: ignore[arg-type]
        job = claim("worker:elsewhere", *args, **kwargs)  # type: ignore[arg-type]

        def run() -> None:
            time.sleep(0.3)
            mw.extraction.run(job)  # type: ignore[arg-type]

        runs.append(threading.Thread(target=run))
        runs[-1].start()
        return None

    monkeypatch.setattr(mw.jobs, "claim", taken_by_a_worker)
    done = mw.remember(
        ws.id,
        None,
        [{"role": "user", "text": "I moved to Leeds last month, please update my address."}],
        user_id="crm-9",
    )
    runs[0].join()
    assert done.status == "applied", done
    assert any("Leeds" in s.item.text for s in done.items)
