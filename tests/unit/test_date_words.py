"""Dates said in German, French and Spanish: their wording in English words, then the one set
of conventions that reads English (memwise._extraction.dates)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from memwise._extraction import dates
from memwise._text import date_words
from tests.tables import misses

BERLIN = ZoneInfo("Europe/Berlin")
SAID = datetime(2026, 3, 5, 10, 0, tzinfo=BERLIN)  # a Thursday

# (language, wording, the day and time it means, said on Thursday 5 March 2026 at 10:00)
SAID_IN = [
    ("de", "nächsten Dienstag um 10 Uhr", "2026-03-10T10:00"),
    ("de", "Donnerstag, 1. Oktober um 10 Uhr", "2026-10-01T10:00"),  # dateparser: 2110
    ("de", "übermorgen um halb sechs", "2026-03-07T17:30"),  # halb sechs is 5:30
    ("de", "morgen um 15 Uhr", "2026-03-06T15:00"),
    ("de", "am 20. März", "2026-03-20"),
    ("de", "Montag 16.03. um halb 4", "2026-03-16T15:30"),
    ("fr", "mardi prochain à 14h30", "2026-03-10T14:30"),  # dateparser: nothing
    ("fr", "vendredi 13 mars à 14h", "2026-03-13T14:00"),
    ("fr", "demain à midi", "2026-03-06T12:00"),
    ("es", "el próximo martes a las 10", "2026-03-10T10:00"),
    ("es", "pasado mañana a las 9", "2026-03-07T09:00"),
    ("es", "viernes 13 a las 5 de la tarde", "2026-03-13T17:00"),
    ("es", "jueves 12 de marzo a las 8 y media", "2026-03-12T08:30"),
]


def test_dates_in_other_languages_resolve_as_their_speakers_mean() -> None:
    def check(language: str, wording: str, meant: str) -> None:
        found = dates.resolve(wording, SAID, BERLIN, lang=language)
        assert found is not None and found.value[: len(meant)] == meant, (
            date_words.english(wording, language),
            found,
        )

    assert misses(SAID_IN, check) == []


def test_english_and_unknown_languages_pass_through() -> None:
    assert dates.resolve("tomorrow at 11", SAID, BERLIN, lang="en") == dates.resolve(
        "tomorrow at 11", SAID, BERLIN
    )
    assert date_words.english("x" * 5000, "zz") == "x" * 100  # at most 100 characters read
