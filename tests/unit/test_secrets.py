"""Secrets however they are written: cards, IBANs, card codes and passwords in prose."""

from __future__ import annotations

import pytest

from memwise.safety import pii, secrets


@pytest.mark.parametrize(
    ("text", "kind", "gone"),
    [
        ("4111 1111 1111 1111 12/28", "card", "4111"),  # with its expiry
        ("card 4111.1111.1111.1111", "card", "4111"),
        ("card 4111/1111/1111/1111", "card", "4111"),
        ("card 4111–1111–1111–1111", "card", "4111"),  # en dashes
        ("card ４１１１ １１１１ １１１１ １１１１", "card", "４１１１"),  # full-width digits
        ("Ref 12 4111 1111 1111 1111 please", "card", "4111"),
        ("iban de89 3704 0044 0532 0130 00 thanks", "iban", "3704"),  # lower case
        ("DE 89 3704 0044 0532 0130 00", "iban", "3704"),  # country apart
        ("de89-3704-0044-0532-0130-00", "iban", "3704"),  # dashes
        ("GB82WEST12345698765432", "iban", "WEST"),
        ("CVV 123", "password", "123"),
        ("the security code: 4821", "password", "4821"),
        ("my password hunter2x", "password", "hunter2x"),
        ("pw: Tulip!77", "password", "Tulip"),
        ("my password is Tulip!77", "password", "Tulip"),
    ],
)
def test_secrets_are_found_however_written(text: str, kind: str, gone: str) -> None:
    assert kind in {f.kind for f in secrets.find(text)}
    assert gone not in secrets.redact(text)
    assert gone not in pii.redact(None, None, text)  # the question book's redaction


@pytest.mark.parametrize(
    "text",
    [
        "I was born in 1985 and live at 12 Main Street",
        "Call me on +49 30 12345678",
        "my password expired yesterday",
        "I have 3 kids aged 4, 7 and 12",
        "The meeting is 12 13 14 15 16",
        "to 12 3456 7890 1234 5678",
        "my pin code was reset",
        "Order 4111 1111 1111 1112",  # fails the Luhn check
    ],
)
def test_ordinary_numbers_and_words_are_not_secrets(text: str) -> None:
    assert secrets.find(text) == []
    assert secrets.redact(text) == text
