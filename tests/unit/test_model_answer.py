"""A model's answer read proposal by proposal (memwise._extraction.prompts.parse)."""

from __future__ import annotations

import pytest

from memwise._extraction import prompts

ITEM = {
    "kind": "fact",
    "text": "Lives in Leeds",
    "key": "home.city",
    "quotes": ["I live in Leeds"],
    "occurs_phrase": None,
    "entities": [],
}
SENTENCE = {"part": "wanted", "text": "They asked about a move.", "quote": "I live in Leeds"}


def test_each_proposal_is_read_on_its_own() -> None:
    answer = {
        "items": [ITEM, {**ITEM, "kind": "pattern"}, {**ITEM, "quotes": "I live in Leeds"}],
        "events": [{"type": "booking", "labels": {}, "quote": "x"}, {"type": "booking"}],
        "summary": [
            {**SENTENCE, "said_by": "customer"},
            {**SENTENCE, "said_by": "customer", "quote": "x" * 2001},  # past the harness's
        ],
        "notes": "a model's own field",
    }
    read = prompts.parse(answer)
    assert [i.kind for i in read.items] == ["fact"] and len(read.events) == 1
    assert len(read.summary) == 1 and read.malformed == 4


@pytest.mark.parametrize(
    "answer",
    ['{"items": [', {"items": "none", "events": []}, {"items": [{"kind": "gossip"}], "events": []}],
)
def test_an_answer_with_nothing_in_the_schema_is_asked_again(answer: object) -> None:
    with pytest.raises(prompts.MalformedOutput):
        prompts.parse(answer)  # type: ignore[arg-type]


def test_an_empty_answer_is_an_answer() -> None:
    assert prompts.parse({"items": [], "events": [], "summary": []}).items == []
