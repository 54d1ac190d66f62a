"""The evaluation's judge: a configured model decides whether an answer agrees with the
expected text; a model that fails or answers nonsense leaves the question unjudged."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memwise import Memwise
from memwise._bootstrap import Parts
from memwise._config import Settings
from memwise.testing import FakeModelServer, Reply


@pytest.fixture
def server() -> Iterator[FakeModelServer]:
    s = FakeModelServer()
    yield s
    s.close()


def test_the_judge_scores_agreement_and_writes_only_the_report(
    sqlite_url: str, server: FakeModelServer
) -> None:
    settings = Settings(
        extractor="openai", model="judge", model_api_key="x", model_base_url=f"{server.url}/v1"
    )
    mw = Memwise.open(sqlite_url, chat_model=Parts(settings).chat_model(), migrate=False)
    ws, _ = mw.tenancy.create_workspace("Shop", "UTC", "business")
    mw.knowledge.add_document(
        ws.id,
        kind="policy",
        title="Returns",
        body="Bikes can be returned within 30 days.",
        version="1",
    )
    mw.knowledge.add_document(
        ws.id, kind="policy", title="Hours", body="The shop opens at 9 on weekdays.", version="1"
    )
    test_set = mw.learning.freeze(
        ws.id,
        "returns",
        [
            {"question": "Can bikes be returned?", "expected_text": "Within 30 days."},
            {"question": "When does the shop open?", "expected_text": "At 10 on weekdays."},
            {"question": "When does the shop open on weekdays?", "expected_text": "At 9."},
            {"question": "Do you sell helmets for dogs?", "expected_text": "No."},
        ],
    )
    server.enqueue(
        {"agrees": True, "why": "same period"},
        {"agrees": False, "why": "9 is not 10"},
        Reply(raw_body="not json at all"),
    )
    documents_before = len(mw.knowledge.documents(ws.id, include_superseded=True))
    run = mw.learning.evaluate(ws.id, test_set.id)
    agrees = [r["agrees"] for r in run.results]
    assert agrees == [True, False, None, None]  # the last: knowledge silent, nothing to judge
    assert run.summary["judged"] == 2 and run.summary["agreed"] == 1
    assert run.summary["agreed_rate"] == 0.25
    assert len(server.requests) == 3
    prompt = server.requests[0]["body"]["messages"]
    assert "JSON only" in prompt[0]["content"] and "Within 30 days." in prompt[1]["content"]
    assert len(mw.knowledge.documents(ws.id, include_superseded=True)) == documents_before
    mw.close()


def test_without_a_model_nothing_is_judged(mw_sqlite: Memwise) -> None:
    ws, _ = mw_sqlite.tenancy.create_workspace("Shop", "UTC", "business")
    mw_sqlite.knowledge.add_document(
        ws.id, kind="faq", title="Hours", body="The shop opens at 9 on weekdays.", version="1"
    )
    test_set = mw_sqlite.learning.freeze(
        ws.id, "hours", [{"question": "When does the shop open?", "expected_text": "At 9."}]
    )
    run = mw_sqlite.learning.evaluate(ws.id, test_set.id)
    assert "judged" not in run.summary and run.results[0]["agrees"] is None
