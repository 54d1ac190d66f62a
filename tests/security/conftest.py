"""The security suite: every attack of the threat model (docs/security.md), replayed through
the real app on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from memwise import FixedClock, Memwise
from memwise._clock import WorkspaceClocks
from memwise._config import Settings
from memwise._server.app import create_app
from tests.integration.conftest import ADMIN, Api


@pytest.fixture
def sec(database_url: str, clock: FixedClock) -> Iterator[Api]:
    """The API on each backend, with the default throttles."""
    settings = Settings(
        database_url=database_url, admin_token=ADMIN, test_clock=True, rate_limit_per_minute=10_000
    )
    mw = Memwise.open(database_url, clock=WorkspaceClocks(clock), migrate=False)
    with TestClient(create_app(settings, mw), raise_server_exceptions=False) as client:
        yield Api(client, mw)
    mw.close()


def staff(api: Api, name: str = "Acme", tz: str = "Europe/Berlin") -> dict[str, str]:
    """A workspace with an owner, an admin and an operator key, an agent and a contact."""
    ws, owner = api.workspace(name, tz)
    admin = api.call("POST", "/v1/api-keys", owner, json={"role": "admin"}).json()["api_key"]
    op = api.call("POST", "/v1/api-keys", owner, json={"role": "operator"}).json()["api_key"]
    agent = api.call(
        "POST",
        "/v1/agents",
        owner,
        json={"name": "Eve", "memory_enabled": True, "domain": "retail"},
    ).json()["id"]
    contact = api.call(
        "POST",
        "/v1/contacts",
        owner,
        json={"name": "Ann Lee", "emails": ["ann@example.com"], "account_refs": ["ACC-1001"]},
    ).json()["id"]
    return {"ws": ws, "owner": owner, "admin": admin, "op": op, "agent": agent, "contact": contact}


def conversation(api: Api, s: dict[str, str], **extra: object) -> dict[str, str]:
    r = api.call(
        "POST",
        "/v1/conversations",
        s["owner"],
        json={"agent_id": s["agent"], "channel": "web", "contact_id": s["contact"], **extra},
    )
    assert r.status_code == 201, r.text
    return {"id": r.json()["id"], "visitor": r.json()["visitor_token"]}
