"""Fuzz the API with schemathesis against the published OpenAPI document: no 5xx, ever,
and every successful answer conforms to the response schema the document publishes.

Bounded: a fixed number of examples per operation, with a real workspace key (and some
cases with none), against the real app on a SQLite file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import response_schema_conformance

from memwise import FixedClock, Memwise
from memwise._config import Settings
from memwise._server.app import create_app

STATE: dict[str, Any] = {}


@pytest.fixture
def api_schema(sqlite_url: str, clock: FixedClock) -> Any:
    mw = Memwise.open(sqlite_url, clock=clock, migrate=False)
    _, key = mw.tenancy.create_workspace("Fuzz", "Europe/Berlin")
    STATE["key"] = key
    app = create_app(
        Settings(database_url=sqlite_url, admin_token="fuzz-admin", rate_limit_per_minute=100_000),
        mw,
    )
    return schemathesis.openapi.from_asgi("/openapi.json", app)


EXAMPLES_PER_OPERATION = 12


def test_no_server_errors(api_schema: Any) -> None:
    operations = [r.ok() for r in api_schema.get_all_operations()]
    assert len(operations) > 40
    seen: dict[int, int] = {}

    @settings(
        max_examples=EXAMPLES_PER_OPERATION * len(operations),
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
        derandomize=True,  # reproducible in CI
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        operation = data.draw(st.sampled_from(operations))
        case = data.draw(operation.as_strategy())
        token = data.draw(st.sampled_from([STATE["key"], STATE["key"], "mw_bad", None]))
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = case.call(headers=headers)
        seen[response.status_code] = seen.get(response.status_code, 0) + 1
        assert response.status_code < 500, (case.method, case.formatted_path, response.text[:500])
        if 200 <= response.status_code < 300:  # every answer is what the document says it is
            case.validate_response(response, checks=[response_schema_conformance])

    run()
    assert any(200 <= code < 300 for code in seen) and any(code >= 400 for code in seen)


def test_the_published_openapi_document_is_checked_in(sqlite_url: str) -> None:
    import json

    mw = Memwise.open(sqlite_url, migrate=False)
    published = create_app(Settings(database_url=sqlite_url), mw).openapi()
    mw.close()
    stored = Path(__file__).parent.parent.parent / "docs" / "openapi.json"
    assert json.loads(stored.read_text()) == published, (
        "docs/openapi.json is stale: run `memwise openapi > docs/openapi.json`"
    )
