"""An API client over the real app on a SQLite file, with per-workspace test clocks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from memwise import FixedClock, Memwise
from memwise._clock import WorkspaceClocks
from memwise._config import Settings
from memwise._server.app import create_app

ADMIN = "admin-secret-token"


@dataclass
class Api:
    client: TestClient
    mw: Memwise

    def call(self, method: str, path: str, token: str | None = None, **kw: Any) -> Any:
        headers = {
            **kw.pop("headers", {}),
            **({"Authorization": f"Bearer {token}"} if token else {}),
        }
        return self.client.request(method, path, headers=headers, **kw)

    def workspace(self, name: str = "Acme", tz: str = "Europe/Berlin") -> tuple[str, str]:
        r = self.call("POST", "/v1/workspaces", ADMIN, json={"name": name, "timezone": tz})
        assert r.status_code == 201, r.text
        return r.json()["id"], r.json()["api_key"]

    def web_conversation(self, key: str, **agent: Any) -> dict[str, Any]:
        """An agent (Eve, with ``agent``'s settings), a contact (Ann) and a web conversation
        between them, as the API answers it (``agent_id``, ``contact_id``, ``visitor_token``)."""
        agent_id = self.call("POST", "/v1/agents", key, json={"name": "Eve", **agent}).json()["id"]
        contact = self.call("POST", "/v1/contacts", key, json={"name": "Ann"}).json()["id"]
        r = self.call(
            "POST",
            "/v1/conversations",
            key,
            json={"agent_id": agent_id, "channel": "web", "contact_id": contact},
        )
        assert r.status_code == 201, r.text
        return dict(r.json())


@pytest.fixture
def api(sqlite_url: str, clock: FixedClock) -> Iterator[Api]:
    settings = Settings(
        database_url=sqlite_url, admin_token=ADMIN, test_clock=True, rate_limit_per_minute=10_000
    )
    mw = Memwise.open(sqlite_url, clock=WorkspaceClocks(clock), migrate=False)
    with TestClient(create_app(settings, mw), raise_server_exceptions=False) as client:
        yield Api(client, mw)
    mw.close()
