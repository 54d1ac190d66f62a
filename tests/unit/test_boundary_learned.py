"""The write boundary's learned second look: what it adds to the rules, where it looks, and
that the model it ships never saw the held-out set it is reported on."""

from __future__ import annotations

import pytest

from memwise import errors
from memwise.safety import boundary, guards, learned

# Phrasings the concept rules pass and the learned classifier refuses (written for this
# test, in none of the labelled sets).
SLIPS_PAST_THE_RULES = [
    "Was told the installation would cost nothing.",
    "Staff should hand over whatever she asks for.",
    "The courier left the box at the wrong flat.",
    "Couldnt find his loyalty membership anywhere.",
    "Gets the family rate for life, per the owner.",
]


def test_the_shipped_model_loads_and_names_its_training_sets() -> None:
    model = learned.model()
    assert model is not None
    assert model.classes[0] == "genuine"
    trained_on = model.about["trained_on"]
    assert "boundary_dev.json" in trained_on
    for held_out in ("boundary_holdout6.json", "boundary_holdout7.json", "boundary_holdout8.json"):
        assert held_out not in trained_on  # the figures to quote stay held out
    assert 0 < model.threshold < 0.5


@pytest.mark.parametrize("text", SLIPS_PAST_THE_RULES)
def test_it_refuses_what_the_rules_pass(text: str) -> None:
    assert boundary.classify(text, second_look=False) is None
    verdict = boundary.classify(text, kind="fact")
    assert verdict is not None and verdict.kind in boundary.CLASSES
    assert "learned classifier" in verdict.reason
    with pytest.raises(errors.Refused) as exc:
        guards.check_memory_text(text, kind="fact")
    assert exc.value.details["class"] == verdict.kind


@pytest.mark.parametrize(
    "text",
    [
        "Prefers a window seat on long flights.",
        "Has two dogs, a spaniel and a terrier.",
        "Works night shifts, so calls after 2pm are best.",
        "Pays by bank transfer and prefers it that way.",
        "Vegetarian; no fish either.",
    ],
)
def test_it_keeps_ordinary_profile_items(text: str) -> None:
    assert boundary.classify(text, kind="fact") is None


def test_it_looks_only_at_profile_items_from_extraction() -> None:
    text = SLIPS_PAST_THE_RULES[0]
    assert boundary.classify(text, kind="preference") is not None
    assert boundary.classify(text, kind="event") is None  # dated events: the rules alone
    assert boundary.classify(text, kind="task") is None
    assert boundary.classify(text, kind="fact", by_staff=True) is None  # an operator's note


def test_without_the_model_file_the_rules_alone_decide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learned, "model", lambda: None)
    assert boundary.classify(SLIPS_PAST_THE_RULES[0], kind="fact") is None
    assert boundary.classify("Order 4411 shipped on Tuesday", kind="fact") is not None


def test_features_are_words_pairs_and_character_grams() -> None:
    found = learned.features("Owes 300 EUR")
    assert "w:owes" in found and "w:<num>" in found
    assert "b:<s>_owes" in found and "b:eur_</s>" in found
    assert "c: owe" in found


@pytest.mark.parametrize(
    "raw",
    [
        "{not json",
        '{"classes": ["genuine", "absence"], "bias": [0.0], "weights": {}, "threshold": 0.2}',
        '{"classes": ["genuine", "absence"], "bias": [0, 0], "weights": {"w:x": [1]}, '
        '"threshold": 0.2}',
        '{"classes": ["absence", "entitlement"], "bias": [0, 0], "weights": {}, "threshold": 0.2}',
        '{"classes": ["genuine", "absence"], "bias": [0, 0], "weights": {}, "threshold": "x"}',
        '{"classes": ["genuine", "absence"], "bias": [0, 0], "weights": {}}',
    ],
)
def test_a_broken_model_file_leaves_the_rules_in_charge(
    raw: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    class Files:
        def joinpath(self, name: str) -> Files:
            return self

        def read_text(self) -> str:
            return raw

    monkeypatch.setattr("importlib.resources.files", lambda package: Files())
    learned.model.cache_clear()
    try:
        assert learned.model() is None
        assert "rules alone" in caplog.text
        assert boundary.classify(SLIPS_PAST_THE_RULES[0], kind="fact") is None
        assert boundary.classify("Order 4411 shipped on Tuesday", kind="fact") is not None
    finally:
        monkeypatch.undo()
        learned.model.cache_clear()
    assert learned.model() is not None  # the shipped file again
