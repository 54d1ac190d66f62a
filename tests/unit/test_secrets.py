"""Secrets however they are written: cards, IBANs, card codes and passwords in prose."""

from __future__ import annotations

from memwise._safety import phones, pii, secrets
from tests.tables import misses

WRITTEN = [
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
    # a second review's forms
    ("4111\u200b1111\u200b1111\u200b1111", "card", "1111"),  # zero-width spaces
    ("4111 , 1111 , 1111 , 1111", "card", "4111"),
    ("(4111)(1111)(1111)(1111)", "card", "4111"),
    ("4111\u00ad1111\u00ad1111\u00ad1111", "card", "4111"),  # soft hyphens
    ("My card is 4111 1111\n1111 1111", "card", "4111"),  # across a line break
    ("DE89.3704.0044.0532.0130.00", "iban", "3704"),
    ("DE89/3704/0044/0532/0130/00", "iban", "3704"),
    ("D E 8 9 3 7 0 4 0 0 4 4 0 5 3 2 0 1 3 0 0 0", "iban", "3 7 0 4"),
    ("DE89_3704_0044_0532_0130_00", "iban", "3704"),
    ("My password is: Tulip77", "password", "Tulip"),
    ("My password's Tulip77", "password", "Tulip"),
    ("pass: Tulip!77", "password", "Tulip"),
    ("login ann pw Tulip77", "password", "Tulip"),
    ("the password I use is Tulip77", "password", "Tulip"),
    ("my password, Tulip77", "password", "Tulip"),
    ('password "Tulip77"', "password", "Tulip"),
    ("Password - Tulip77", "password", "Tulip"),
    ("the password for my account at your shop is Tulip77", "password", "Tulip"),
    ("mot de passe: Tulip77", "password", "Tulip"),
    ("Web shop username ann, password Tulip77", "password", "Tulip"),
    ("PIN 1 2 3 4", "password", "1 2 3 4"),
    ("My PIN is 12 34", "password", "12 34"),
    ("My pin's 1234", "password", "1234"),
    ("My PIN: one two three four", "password", "three"),
    ("CVV is seven three seven", "password", "seven"),
    ("the code on the back is 737", "password", "737"),
    ("one time code is 482913", "password", "482913"),
    ("the verification code you sent is 482913", "password", "482913"),
    ("2FA code was 482913", "password", "482913"),
    ("Door code is 4821 for deliveries", "password", "4821"),
    ("my UTR is 19558 39661", "national_id", "39661"),  # a UK taxpayer reference (stdnum)
]


def test_secrets_are_found_however_written() -> None:
    def check(text: str, kind: str, gone: str) -> None:
        assert kind in {f.kind for f in secrets.find(text)}
        assert gone not in secrets.redact(text)
        assert gone not in pii.redact(None, None, text)  # the question book's redaction

    assert misses(WRITTEN, check) == []


ORDINARY = [
    "I was born in 1985 and live at 12 Main Street",
    "Call me on +49 30 12345678",
    "my password expired yesterday",
    "I have 3 kids aged 4, 7 and 12",
    "The meeting is 12 13 14 15 16",
    "to 12 3456 7890 1234 5678",
    "my pin code was reset",
    "Order 4111 1111 1111 1112",  # fails the Luhn check
    "Please call me on +49 153 9141 7776",  # a phone number, however Luhn-like
    "my PIN is blocked",
    "the pin 2024 model",
    "password is changing soon",
    "My password was forgotten",
    "If a customer mentions a PIN, tell them never to share it",
    "The gate code changes monthly",
    "order 046 454 286 is late",  # an identifier's shape, not named one
    "invoice 12345 67890",
    "Hola, sin noticias de mi pedido 123 456 789",  # Spanish "sin" is "without"
    "Die Lieferung kam nie, Bestellnr. 4829135761",  # German "nie" is "never"
    "my UTR is 12345 67890",  # fails the UTR check: a reference mistyped or made up
]


def test_ordinary_numbers_and_words_are_not_secrets() -> None:
    def check(text: str) -> None:
        assert secrets.find(text) == []
        assert secrets.redact(text) == text

    assert misses(ORDINARY, check) == []


def test_phone_numbers_are_read_by_the_workspace_country() -> None:
    """python-phonenumbers finds a valid number of the workspace's country as it writes it,
    any country's in international form; other digit runs are not phones."""
    text = (
        "Ruf uns an: 030 1234567 oder +44 20 7946 0958. Bestellung 4411-2026 vom 14.03.2026, "
        "geöffnet 9-17 Uhr, Sendung 1Z999AA10123456784, PLZ 10115, ISBN 978-3-16-148410-0."
    )
    found = {text[a:b] for a, b in phones.phones(text, phones.region("Europe/Berlin"))}
    assert found == {"030 1234567", "+44 20 7946 0958"}
    # without a country (a UTC workspace) a national number is not read as anyone's
    assert {text[a:b] for a, b in phones.phones(text, phones.region("UTC"))} == {"+44 20 7946 0958"}
    assert phones.region("Europe/Berlin") == "DE" and phones.region("America/Chicago") == "US"
    out = pii.redact(None, None, "call +1 (415) 555-0132 ext. 12 before 5pm")
    assert "415" not in out and "[phone]" in out
