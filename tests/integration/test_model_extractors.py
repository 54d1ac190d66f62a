"""Model extractors against a local fake OpenAI/Anthropic server: the real SDKs, no network."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from memwise import FixedClock, Memwise
from memwise._extraction.models import AnthropicExtractor, OpenAIExtractor
from memwise.testing import FakeModelServer, Reply


@pytest.fixture
def server() -> Iterator[FakeModelServer]:
    s = FakeModelServer()
    yield s
    s.close()


GOOD: dict[str, Any] = {
    "items": [
        {
            "kind": "preference",
            "text": "Prefers email",
            "key": "preference.contact_channel",
            "quotes": ["I prefer email"],
            "occurs_phrase": None,
            "entities": [],
        },
        {
            "kind": "event",
            "text": "Dentist appointment",
            "key": "appointment.dentist",
            "quotes": ["dentist tomorrow at 11"],
            "occurs_phrase": "tomorrow at 11",
            "entities": [],
        },
        {
            "kind": "fact",
            "text": "Is relocating in March",
            "key": "relocation",
            "quotes": ["So you're relocating in March"],
            "occurs_phrase": None,
            "entities": [],
        },
    ],
    "events": [],
    "summary": [],
}


def _conversation(mw: Memwise) -> tuple[str, str]:
    ws, _ = mw.tenancy.create_workspace("Acme", "Europe/Berlin", "startup")
    agent = mw.tenancy.create_agent(ws.id, "Eve", memory_enabled=True, domain="retail")
    contact = mw.tenancy.create_contact(ws.id, "Ann").id
    conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact)
    mw.record.append(
        ws.id, conv.id, "customer", "I prefer email. I have the dentist tomorrow at 11."
    )
    mw.record.append(ws.id, conv.id, "assistant", "So you're relocating in March?")
    mw.record.end(ws.id, conv.id)
    return ws.id, contact


def test_a_model_summary_is_held_to_the_turns_it_retells(
    mw_sqlite: Memwise, server: FakeModelServer, clock: FixedClock
) -> None:
    """The configured model writes the summary; each sentence must retell a turn's words
    (the turn, not the model, says who said them) and name no number those words do not."""
    clock.set(
        __import__("datetime").datetime(2026, 11, 29, 9, 0, tzinfo=__import__("datetime").UTC)
    )
    mw_sqlite.extraction.extractor = OpenAIExtractor("small-model", base_url=f"{server.url}/v1")
    told = [
        {
            "part": "wanted",
            "text": "They have the dentist on 30 November at 11:00",
            "quote": "I have the dentist tomorrow at 11",
            "said_by": "customer",
        },
        {  # the assistant's guess, claimed as the customer's words
            "part": "decided",
            "text": "They are relocating in March",
            "quote": "So you're relocating in March",
            "said_by": "customer",
        },
        {  # a number nobody said
            "part": "open",
            "text": "They will pay the 500 euro deposit by email",
            "quote": "I prefer email",
            "said_by": "customer",
        },
        {  # words nobody said
            "part": "open",
            "text": "They want a refund",
            "quote": "I would like a full refund today",
            "said_by": "customer",
        },
    ]
    server.enqueue({**GOOD, "summary": told})
    ws, contact = _conversation(mw_sqlite)
    assert mw_sqlite.worker().run_once() == {"extract:applied": 1}
    (made,) = mw_sqlite.memory.summaries(ws, contact)
    meta = made.item.labels["summary"]
    assert meta["method"] == "model"
    assert [(x["part"], x["role"]) for x in meta["sentences"]] == [
        ("wanted", "customer"),
        ("decided", "assistant"),  # the turn says who said it
    ]
    assert meta["sentences"][0]["occurs_on"] == "2026-11-30T11:00:00+01:00"
    (job,) = mw_sqlite.jobs.find(ws)
    assert job.result["summary"] == {"action": "created", "left_out": {"ungrounded": 2}}


def test_openai_extractor_output_goes_through_quote_verification(
    mw_sqlite: Memwise, server: FakeModelServer, clock: FixedClock
) -> None:
    clock.set(
        __import__("datetime").datetime(2026, 11, 29, 9, 0, tzinfo=__import__("datetime").UTC)
    )
    mw_sqlite.extraction.extractor = OpenAIExtractor("small-model", base_url=f"{server.url}/v1")
    server.enqueue(GOOD)
    ws, contact = _conversation(mw_sqlite)
    assert mw_sqlite.worker().run_once() == {"extract:applied": 1}
    items = {s.item.text: s.item for s in mw_sqlite.memory.items(ws, contact)}
    assert set(items) == {"Prefers email", "Dentist appointment"}  # the assistant's guess is gone
    assert items["Dentist appointment"].occurs_on == "2026-11-30T11:00:00+01:00"
    assert items["Prefers email"].extractor == "openai:small-model"
    assert items["Prefers email"].prompt_version == "extract-3"
    request = server.requests[0]["body"]
    assert request["response_format"]["json_schema"]["strict"] is True
    assert "Business domain: retail" in request["messages"][0]["content"]
    assert "[assistant] So you're relocating in March?" in request["messages"][1]["content"]
    job = mw_sqlite.jobs.find(ws)[0]
    assert job.result and job.result["discarded"] == 1


def test_a_model_extracting_in_french_keeps_the_day_and_time_the_customer_meant(
    mw_sqlite: Memwise, server: FakeModelServer, clock: FixedClock
) -> None:
    """A configured model extracts in any language: the date wording it quotes is resolved
    in the quote's language ("mardi prochain à 14h30" said on Sunday 29 November is Tuesday
    1 December at 14:30, the Tuesday of next week; read as English it held no date)."""
    clock.set(
        __import__("datetime").datetime(2026, 11, 29, 9, 0, tzinfo=__import__("datetime").UTC)
    )
    mw_sqlite.extraction.extractor = OpenAIExtractor("small-model", base_url=f"{server.url}/v1")
    proposed = {
        "kind": "event",
        "text": "Prend le rendez-vous mardi prochain",
        "key": "appointment.dentist",
        "quotes": ["je prends le rendez-vous mardi prochain à 14h30"],
        "occurs_phrase": "mardi prochain à 14h30",
        "entities": [],
    }
    server.enqueue({"items": [proposed], "events": [], "summary": []})
    ws, _ = mw_sqlite.tenancy.create_workspace("Cabinet", "Europe/Paris", "startup")
    agent = mw_sqlite.tenancy.create_agent(ws.id, "Eve", memory_enabled=True, domain="general")
    contact = mw_sqlite.tenancy.create_contact(ws.id, "Anne").id
    conv, _ = mw_sqlite.record.start(ws.id, agent.id, "web", contact_id=contact)
    said = "Bonjour, je prends le rendez-vous mardi prochain à 14h30, merci beaucoup."
    mw_sqlite.record.append(ws.id, conv.id, "customer", said)
    mw_sqlite.record.end(ws.id, conv.id)
    assert mw_sqlite.worker().run_once() == {"extract:applied": 1}
    (item,) = [s.item for s in mw_sqlite.memory.items(ws.id, contact)]
    assert item.occurs_on == "2026-12-01T14:30:00+01:00"


def test_one_proposal_out_of_the_schema_loses_only_itself(
    mw_sqlite: Memwise, server: FakeModelServer, clock: FixedClock
) -> None:
    """Each proposal of a model's answer is read on its own: one with a field missing, one
    with a list where text belongs, one of kind "pattern" and an event without its quote
    are dropped and counted;
    one with nine quotes and one over 500 characters are the harness's (too long); a field
    the model adds is not read. The rest is applied (before, any of them failed the answer)."""
    clock.set(
        __import__("datetime").datetime(2026, 11, 29, 9, 0, tzinfo=__import__("datetime").UTC)
    )
    mw_sqlite.extraction.extractor = OpenAIExtractor("small-model", base_url=f"{server.url}/v1")
    good = {**GOOD["items"][0], "confidence": 0.9}
    missing = {k: v for k, v in GOOD["items"][1].items() if k != "entities"}
    listed = {**GOOD["items"][1], "text": ["Dentist", "appointment"]}
    many = {**GOOD["items"][1], "quotes": ["dentist tomorrow at 11"] * 9}
    long = {**GOOD["items"][1], "text": "Dentist appointment " * 30}
    event = {"type": "booking", "labels": {}}
    ours = {**GOOD["items"][1], "kind": "pattern"}  # memwise's own kind, never a model's
    answer = {"items": [good, missing, listed, many, long, ours], "events": [event], "summary": []}
    server.enqueue(answer)
    ws, contact = _conversation(mw_sqlite)
    assert mw_sqlite.worker().run_once() == {"extract:applied": 1}
    assert [s.item.text for s in mw_sqlite.memory.items(ws, contact)] == ["Prefers email"]
    job = mw_sqlite.jobs.find(ws)[0]
    assert job.result is not None
    why = {r["text"]: r["why"] for r in job.result["refusals"]}
    assert why["4 proposals not in the extraction schema"] == "malformed"
    assert list(why.values()).count("too_long") == 2


@pytest.mark.parametrize(
    "failure",
    [
        Reply(raw_body="{not json"),
        Reply(payload="not the schema"),
        Reply(status=500),
        Reply(payload={"items": [{"kind": "gossip"}], "events": [], "summary": []}),
    ],
)
def test_bad_answers_retry_then_fail_never_half_applied(
    mw_sqlite: Memwise, server: FakeModelServer, clock: FixedClock, failure: Reply
) -> None:
    mw_sqlite.extraction.extractor = OpenAIExtractor(
        "m", base_url=f"{server.url}/v1", max_retries=0
    )
    ws, contact = _conversation(mw_sqlite)
    for _ in range(5):
        server.enqueue(failure)
        mw_sqlite.worker().run_once()
        clock.advance(hours=1)
    job = mw_sqlite.jobs.find(ws)[0]
    assert job.status == "failed" and job.attempts == 5
    assert mw_sqlite.memory.items(ws, contact) == []
    assert mw_sqlite.metering.remaining(ws)[0] == 0


def test_rate_limit_is_retried_by_the_sdk(mw_sqlite: Memwise, server: FakeModelServer) -> None:
    mw_sqlite.extraction.extractor = OpenAIExtractor(
        "m", base_url=f"{server.url}/v1", max_retries=2
    )
    server.enqueue(Reply(status=429), GOOD)
    ws, contact = _conversation(mw_sqlite)
    assert mw_sqlite.worker().run_once() == {"extract:applied": 1}
    assert len(server.requests) == 2 and len(mw_sqlite.memory.items(ws, contact)) == 2


def test_a_timeout_fails_the_attempt(mw_sqlite: Memwise, server: FakeModelServer) -> None:
    mw_sqlite.extraction.extractor = OpenAIExtractor(
        "m", base_url=f"{server.url}/v1", timeout=0.3, max_retries=0
    )
    server.enqueue(Reply(payload=GOOD, delay=1.0))
    ws, contact = _conversation(mw_sqlite)
    assert mw_sqlite.worker().run_once() == {"extract:retrying": 1}
    job = mw_sqlite.jobs.find(ws)[0]
    assert job.status == "queued" and "Timeout" in (job.last_error or "")
    assert mw_sqlite.memory.items(ws, contact) == []


def test_anthropic_extractor_uses_a_forced_tool(
    mw_sqlite: Memwise, server: FakeModelServer
) -> None:
    mw_sqlite.extraction.extractor = AnthropicExtractor("claude-small", base_url=server.url)
    server.enqueue(GOOD)
    ws, contact = _conversation(mw_sqlite)
    counts = mw_sqlite.worker().run_once()
    assert counts == {"extract:applied": 1}, mw_sqlite.jobs.find(ws)[0].last_error
    assert {s.item.text for s in mw_sqlite.memory.items(ws, contact)} == {
        "Prefers email",
        "Dentist appointment",
    }
    body = server.requests[0]["body"]
    assert body["tool_choice"] == {"type": "tool", "name": "record_memory"}
    assert server.requests[0]["path"] == "/v1/messages"


def test_with_a_model_configured_the_model_compacts_the_window(
    sqlite_url: str, server: FakeModelServer
) -> None:
    from memwise import Memwise
    from memwise._bootstrap import Parts
    from memwise._config import Settings
    from memwise._services.conversation.record import NewTurn

    settings = Settings(
        database_url=sqlite_url,
        extractor="openai",
        model="small",
        model_base_url=f"{server.url}/v1",
    )
    mw = Memwise.open(sqlite_url, summariser=Parts(settings).summariser(), migrate=False)
    ws, _ = mw.tenancy.create_workspace("Acme")
    agent = mw.tenancy.create_agent(
        ws.id, "Eve", window_overrides={"generic": {"verbatim_turns": 1}}
    )
    contact = mw.tenancy.create_contact(ws.id, "Ann").id
    conv, _ = mw.record.start(ws.id, agent.id, "email", contact_id=contact)
    mw.record.append_many(
        ws.id,
        conv.id,
        [
            NewTurn("customer", "Can you deliver on Friday?"),
            NewTurn("assistant", "Yes, Friday at 10."),
        ],
    )
    server.enqueue("- customer asked for Friday delivery; agreed for Friday 10:00")
    view = mw.windows.view(ws.id, conv.id)
    assert view.summary == "- customer asked for Friday delivery; agreed for Friday 10:00"
    assert "Can you deliver on Friday?" in server.requests[0]["body"]["messages"][1]["content"]
    mw.record.append(ws.id, conv.id, "customer", "Great, and the invoice?")
    server.enqueue(Reply(status=500))  # the model fails: the summary is made honestly without it
    again = mw.windows.view(ws.id, conv.id)
    assert again.summary and "Yes, Friday at 10." in again.summary
    mw.close()


def test_openai_compatible_embeddings_drive_hybrid_search(
    sqlite_url: str, server: FakeModelServer
) -> None:
    from memwise import Memwise
    from memwise._bootstrap import Parts
    from memwise._config import Settings

    settings = Settings(embedder="openai", embedding_model="emb", model_base_url=f"{server.url}/v1")
    mw = Memwise.open(sqlite_url, embedder=Parts(settings).embedder(), migrate=False)
    ws, _ = mw.tenancy.create_workspace("Shop")
    mw.knowledge.add_document(
        ws.id,
        kind="faq",
        title="Shipping",
        version="1",
        body="We ship to Austria and Switzerland within five days.",
    )
    hits = mw.knowledge.search(ws.id, "ship austria", recipe="hybrid")
    assert hits[0].similarity is not None and hits[0].similarity > 0.3
    assert any(r["path"] == "/v1/embeddings" for r in server.requests)
    with mw.rt.db.read() as conn:
        stored = conn.exec_driver_sql("SELECT DISTINCT embedder FROM knowledge_chunks").all()
    assert stored == [("openai:emb",)]  # vectors record their embedder; they never mix
    mw.close()


def test_a_local_server_without_json_schema_falls_back_and_says_how(
    mw_sqlite: Memwise, server: FakeModelServer, clock: FixedClock
) -> None:
    """llama.cpp's server, Ollama or LM Studio may refuse ``response_format: json_schema``
    (and ``json_object``): the extractor asks in the prompt, reads the JSON out of a prose
    answer, repairs a bad one once, and the job says which mode it used."""
    import json
    from datetime import UTC, datetime

    clock.set(datetime(2026, 11, 29, 9, 0, tzinfo=UTC))
    mw_sqlite.extraction.extractor = OpenAIExtractor(
        "local", base_url=f"{server.url}/v1", max_retries=0
    )
    fenced = "Sure! Here is the memory:\n```json\n" + json.dumps(GOOD) + "\n```\nAnything else?"
    server.enqueue(
        Reply(status=400),  # json_schema: not supported here
        Reply(status=400),  # json_object: neither
        Reply(payload="I could not do that."),  # the prompt mode's first answer: no JSON
        Reply(payload=fenced),  # the one repair
    )
    ws, contact = _conversation(mw_sqlite)
    assert mw_sqlite.worker().run_once() == {"extract:applied": 1}
    bodies = [r["body"] for r in server.requests]
    assert bodies[0]["response_format"]["type"] == "json_schema"
    assert bodies[1]["response_format"]["type"] == "json_object"
    assert (
        "response_format" not in bodies[2] and "JSON schema" in bodies[2]["messages"][0]["content"]
    )
    assert "could not be read" in bodies[3]["messages"][1]["content"]
    texts = {s.item.text for s in mw_sqlite.memory.items(ws, contact)}
    assert texts == {"Prefers email", "Dentist appointment"}
    job = mw_sqlite.jobs.find(ws)[0]
    assert job.result and job.result["mode"] == "prompt"


def test_a_500_naming_the_format_falls_back_and_any_other_500_is_a_failure(
    mw_sqlite: Memwise, server: FakeModelServer, clock: FixedClock
) -> None:
    """llama-cpp-python's server answers ``json_schema`` with a 500 whose message names
    ``response_format`` (seen against the real server, bench/local_model_bench.py): the next
    mode is asked. A 500 that does not name it is the server's failure: retried later, the
    mode kept."""
    from datetime import UTC, datetime

    clock.set(datetime(2026, 11, 29, 9, 0, tzinfo=UTC))
    mw_sqlite.extraction.extractor = OpenAIExtractor(
        "local", base_url=f"{server.url}/v1", max_retries=0
    )
    server.enqueue(Reply(status=500, error="the model crashed"))
    ws, contact = _conversation(mw_sqlite)
    assert mw_sqlite.worker().run_once() == {"extract:retrying": 1}
    assert len(server.requests) == 1
    assert mw_sqlite.extraction.extractor.mode == "json_schema"  # type: ignore[attr-defined]
    refused = "1 validation error: ('body', 'response_format', 'type'): Input should be 'text'"
    server.enqueue(Reply(status=500, error=refused), Reply(payload=GOOD))
    clock.advance(minutes=30)
    assert mw_sqlite.worker().run_once() == {"extract:applied": 1}
    bodies = [r["body"] for r in server.requests[1:]]
    assert [b["response_format"]["type"] for b in bodies] == ["json_schema", "json_object"]
    assert all(b["max_tokens"] > 0 for b in bodies)  # a model that runs on stops
    texts = {s.item.text for s in mw_sqlite.memory.items(ws, contact)}
    assert texts == {"Prefers email", "Dentist appointment"}
