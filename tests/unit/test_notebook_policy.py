"""Notebook rules: 400/401 characters, the 3,000-character block, duplicates, secrets."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memwise import Limits, errors
from memwise._policies.notebook import Entry, build_block, check_entry, normalize
from memwise._safety import secrets

LIMITS = Limits().notebook
DATA = Path(__file__).parent.parent / "data"


def test_400_characters_pass_401_are_refused() -> None:
    assert check_entry("a" * 400, LIMITS) == "a" * 400
    with pytest.raises(errors.Invalid) as exc:
        check_entry("a" * 401, LIMITS)
    assert exc.value.code == "too_long" and exc.value.details["length"] == 401


def test_duplicates_fold_case_spacing_and_punctuation() -> None:
    assert normalize("Format prices as 1.234,56 EUR!") == normalize(
        "format  prices as 1 234 56 eur"
    )


def _entries(lengths: list[int]) -> list[Entry]:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    return [Entry(f"e{i}", chr(97 + i % 26) * n, at) for i, n in enumerate(lengths)]


def test_block_takes_newest_first_up_to_3000_then_shows_oldest_to_newest() -> None:
    entries = _entries([400] * 7 + [200])  # 3,000 exactly
    block = build_block(entries, LIMITS)
    assert block.left_out == 0 and block.chars == 3000
    assert [e.id for e in block.entries] == [e.id for e in entries]
    entries = _entries([1] + [400] * 7 + [200])  # 3,001: the oldest no longer fits
    block = build_block(entries, LIMITS)
    assert block.left_out == 1 and block.entries[0].id == "e1" and block.entries[-1].id == "e8"
    assert "1 older rule not shown" in block.text
    assert block.text.splitlines()[0] == "- " + "b" * 400


def test_block_stops_at_the_first_entry_that_does_not_fit() -> None:
    block = build_block(_entries([10, 2990, 20]), LIMITS)
    assert [e.id for e in block.entries] == ["e2"] and block.left_out == 2


@pytest.mark.parametrize(
    "text",
    [
        "My card is 4111 1111 1111 1111",
        "IBAN DE89 3704 0044 0532 0130 00",
        "the wifi password is BlueFalcon77",
        "key sk_live_51HqLyjWDarjtT1zdp7dc",
    ],
)
def test_secrets_are_refused_with_a_clear_code(text: str) -> None:
    with pytest.raises(errors.Refused) as exc:
        check_entry(text, LIMITS)
    assert exc.value.code == "secret_refused" and "secret" in exc.value.message


@pytest.mark.parametrize("name", ["notebook_rules.json", "notebook_rules_holdout.json"])
def test_secret_detector_rates_on_the_labelled_sets(name: str) -> None:
    data = json.loads((DATA / name).read_text())
    assert len(data["secret"]) >= 40 and len(data["benign"]) >= 40
    refused = sum(bool(secrets.find(t)) for t in data["secret"]) / len(data["secret"])
    false = sum(bool(secrets.find(t)) for t in data["benign"]) / len(data["benign"])
    assert refused >= 0.99, refused
    assert false <= 0.01, false


def test_luhn_and_iban_checks() -> None:
    assert secrets.luhn_ok("4111111111111111") and not secrets.luhn_ok("4111111111111112")
    assert secrets.iban_ok("DE89370400440532013000") and not secrets.iban_ok(
        "DE89370400440532013001"
    )
    assert secrets.find("order 1234 5678 9012 3456") == []
