"""``memwise serve`` as a user runs it."""

from __future__ import annotations

import httpx

from tests.e2e.conftest import ADMIN, Server


def test_serve_answers_the_contract(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as http:
        assert http.get("/v1/health").json()["status"] == "ok"
        r = http.post(
            "/v1/workspaces",
            json={"name": "Acme", "timezone": "Europe/Berlin"},
            headers={"Authorization": f"Bearer {ADMIN}"},
        )
        assert r.status_code == 201
        key = {"Authorization": f"Bearer {r.json()['api_key']}"}
        assert http.get("/v1/workspace", headers=key).json()["timezone"] == "Europe/Berlin"
        schema = http.get("/openapi.json").json()
        assert "/v1/conversations/{conversation_id}/turns" in schema["paths"]
        r = http.post("/v1/test-clock", json={"now": "2027-03-01T00:00:00Z"}, headers=key)
        assert r.status_code == 200
