"""Telephone numbers in text, by python-phonenumbers (Google's libphonenumber metadata, the
lite build): a valid number of the workspace's country (read off its timezone) in its
national format, or of any country in international format ("+44 20 7946 0958", "0044 …").
No pattern of memwise's own: the library knows each country's lengths and prefixes.
"""

from __future__ import annotations

import functools

import phonenumbers

MAX_PHONE_TRIES = 2_000  # candidates the matcher looks at in one text: its work is bounded


@functools.cache
def _countries() -> dict[str, str]:
    """Each IANA timezone's country (pytz's copy of the tz database's zone table)."""
    import pytz

    return {zone: country for country, zones in pytz.country_timezones.items() for zone in zones}


def region(timezone: str | None) -> str | None:
    """The country (ISO 3166-1 alpha-2) of an IANA timezone, when it has one."""
    return _countries().get(timezone or "")


def home(digits: str) -> str | None:
    """The country of a number kept as the digits of its international form."""
    try:
        found = phonenumbers.region_code_for_number(phonenumbers.parse("+" + digits, None))
    except phonenumbers.NumberParseException:
        return None
    return found if found and found != "ZZ" else None


def phones(text: str, country: str | None) -> list[tuple[int, int]]:
    """The spans of the telephone numbers in ``text``: valid numbers of ``country`` as it
    writes them, and of any country written internationally."""
    matcher = phonenumbers.PhoneNumberMatcher(
        text, country or "ZZ", leniency=phonenumbers.Leniency.VALID, max_tries=MAX_PHONE_TRIES
    )
    return [(m.start, m.end) for m in matcher]


class Phones:
    """One text's telephone numbers, read once per country: the workspace's, and a contact's
    own when their number is looked for ("030 555 0199" is +49 30 555 0199 whatever the
    workspace's country)."""

    def __init__(self, text: str, country: str | None) -> None:
        self.text, self.country = text, country
        self._read: dict[str | None, list[tuple[int, int]]] = {}

    def spans(self) -> list[tuple[int, int]]:
        """The numbers as the workspace's country writes them (any written internationally)."""
        return self._as(self.country)

    def of(self, digits: str) -> list[tuple[int, int]]:
        """Where the number kept as ``digits`` (its international form) is written."""
        return [
            (a, b)
            for a, b in self._as(home(digits))
            if "".join(c for c in self.text[a:b] if c.isdigit()).endswith(digits[-8:])
        ]

    def _as(self, country: str | None) -> list[tuple[int, int]]:
        if country not in self._read:
            self._read[country] = phones(self.text, country)
        return self._read[country]
