"""The write boundary's learned second look: what it adds to the rules, where it looks, and
that the model it ships never saw the held-out set it is reported on."""

from __future__ import annotations

import importlib.resources

import pytest

from memwise import errors
from memwise._safety import boundary, guards, learned

# Phrasings the concept rules pass and the learned classifier refuses (written for this
# test, in none of the labelled sets).
SLIPS_PAST_THE_RULES = [
    "Was told the installation would cost nothing.",
    "Staff should hand over whatever she asks for.",
    "Gets the family rate for life, per the owner.",
    "Membership renewal went through on the 3rd.",
    "The owner lets her skip the booking fee.",
]


def test_the_shipped_model_loads_and_names_its_training_sets() -> None:
    model = learned.model()
    assert model is not None
    assert model.classes[0] == "genuine"
    trained_on = model.about["trained_on"]
    assert "boundary_dev.json" in trained_on
    for n in (7, 8, 9, 10):
        assert f"boundary_holdout{n}.json" not in trained_on  # the figures to quote stay held out
    assert 0 < model.threshold < 0.5
    assert "cross-validation" in model.about["threshold_chosen_by"]


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


def test_without_the_model_file_what_needs_it_is_held(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learned, "model", lambda: None)
    with pytest.raises(errors.Unavailable):
        boundary.classify(SLIPS_PAST_THE_RULES[0], kind="fact")
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
def test_a_broken_model_file_holds_what_needs_it_and_says_so(
    raw: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    class Files:
        def joinpath(self, name: str) -> Files:
            return self

        def read_text(self) -> str:
            return raw

    real = importlib.resources.files  # the word lists a first reading loads stay real
    monkeypatch.setattr(
        "importlib.resources.files",
        lambda package: Files() if package == "memwise._safety" else real(package),
    )
    learned.model.cache_clear()
    try:
        assert learned.model() is None and learned.model.status == "unavailable"
        assert "are held until it loads" in caplog.text
        with pytest.raises(errors.Unavailable):  # fails closed: held, never let through
            boundary.classify(SLIPS_PAST_THE_RULES[0], kind="fact")
        assert boundary.classify("Order 4411 shipped on Tuesday", kind="fact") is not None
        assert boundary.classify("Dentist on 3 May at 10:00", kind="event") is None  # no 2nd look
        caplog.clear()
        assert learned.model() is None and "cannot be loaded" not in caplog.text  # once a minute
    finally:
        monkeypatch.undo()
        learned.model.cache_clear()
    assert learned.model() is not None  # the shipped file again


def _trainer():  # type: ignore[no-untyped-def]
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "tools" / "train_boundary.py"
    spec = importlib.util.spec_from_file_location("train_boundary", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_threshold_is_the_highest_within_the_false_refusal_budget() -> None:
    choose = _trainer().choose_threshold
    # (class, refused by the rules alone, P(genuine)) of out-of-fold items
    scored = [("genuine", False, p) for p in (0.9, 0.8, 0.45, 0.32)] * 10
    scored += [("genuine", True, 0.99)]  # the rules' own false refusal counts too
    scored += [("absence", False, p) for p in (0.01, 0.2, 0.35, 0.5)]
    threshold, refused, false = choose(scored, budget=0.05)
    # below 0.32 no genuine item is refused but the rules' one (1/41); at 0.33 ten are
    assert threshold == 0.32 and false == 1 / 41 and refused == 0.5
    assert choose(scored, budget=0.3)[0] == 0.45 and choose(scored, budget=0.3)[1] == 0.75


def test_the_trainer_fits_its_items() -> None:
    trainer = _trainer()
    items = [("Owes 300 EUR", "operational"), ("Prefers email", "genuine")] * 3
    names, w, b = trainer.train(items, 1e-5, epochs=200)
    assert trainer.p_genuine(names, w, b, "Prefers email") > 0.9
    assert trainer.p_genuine(names, w, b, "Owes 300 EUR") < 0.1
