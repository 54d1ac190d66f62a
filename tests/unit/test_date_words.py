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
    # an attack's cases (2026-12-08): the past, evening and morning, half hours, number words
    ("de", "gestern um 10 Uhr", "2026-03-04T10:00"),
    ("fr", "vendredi dernier", "2026-02-27"),
    ("es", "el viernes pasado", "2026-02-27"),
    ("de", "heute Abend um 8", "2026-03-05T20:00"),
    ("de", "Samstag morgen um 9 Uhr", "2026-03-07T09:00"),  # morning, not tomorrow
    ("fr", "demain après-midi à 3h", "2026-03-06T15:00"),
    ("fr", "à dix heures et demie", "2026-03-05T10:30"),
    ("fr", "vendredi à onze heures moins le quart", "2026-03-06T10:45"),
    ("fr", "à dix-sept heures mardi", "2026-03-10T17:00"),  # "sept" is seven
    ("es", "esta noche a las 9", "2026-03-05T21:00"),
    ("de", "mit Dr. Weber am Freitag um 10 Uhr", "2026-03-06T10:00"),  # "mit" no weekday
    ("de", "bis Freitag 9 am", "2026-03-06T09:00"),  # an English "am" in a German quote
    ("de", "am Do um 10", "2026-03-12T10:00"),  # a short name before a time: Thursday
    ("fr", "le sept à 10h", "2026-03-07T10:00"),  # seven, not September
    # offsets, by dateparser's units and the words that lead them (2026-12-08): "in acht
    # Tagen" and "dans huit jours" are a week, "quince días" two; "vor 10 Uhr" is no offset
    ("de", "in einer Woche", "2026-03-12"),
    ("de", "in drei Tagen um 14 Uhr", "2026-03-08T14:00"),
    ("de", "heute in acht Tagen", "2026-03-12"),
    ("de", "vor zwei Tagen", "2026-03-03"),
    ("de", "in 2 Monaten", "2026-05-05"),
    ("de", "vor 11 Uhr", "2026-03-05T11:00"),
    ("fr", "dans deux semaines", "2026-03-19"),
    ("fr", "dans huit jours", "2026-03-12"),
    ("fr", "il y a 3 jours", "2026-03-02"),
    ("es", "dentro de quince días", "2026-03-19"),
    ("es", "en tres días a las 5 de la tarde", "2026-03-08T17:00"),
    ("es", "hace una semana", "2026-02-26"),
]


def test_a_short_name_is_a_name_only_before_a_number_or_a_time() -> None:
    assert date_words.english("Die Lieferung kam", "de") == "die lieferung kam"
    assert date_words.english("ich bin Sam, danke", "de") == "ich bin sam, danke"
    assert date_words.english("Fr 14.3. um 9", "de") == "friday the 14th of march at 9"


def test_dates_in_other_languages_resolve_as_their_speakers_mean() -> None:
    def check(language: str, wording: str, meant: str) -> None:
        found = dates.resolve(wording, SAID, BERLIN, lang=language)
        assert found is not None and found.value[: len(meant)] == meant, (
            date_words.english(wording, language),
            found,
        )

    assert misses(SAID_IN, check) == []


def test_wording_no_calendar_holds_is_no_date_never_an_error() -> None:
    """A model's phrase is resolved inside the extraction's write: an error there would fail
    the whole conversation's extraction."""
    for odd in ("march 0000", "2026-13-01T25:61", "the 0th 23:61", "9:30:99 am", "in march 99999"):
        for lang in ("en", "de", "fr", "es"):
            dates.resolve(odd, SAID, BERLIN, odd, lang)  # no exception


def test_a_clock_time_past_its_minutes_and_seconds_is_no_time() -> None:
    assert dates.resolve("vendredi et quart 12h60", SAID, BERLIN, lang="fr") is not None
    found = dates.resolve("friday 9:30:99", SAID, BERLIN)
    assert found is not None and not found.has_time


def test_english_and_unknown_languages_pass_through() -> None:
    assert dates.resolve("tomorrow at 11", SAID, BERLIN, lang="en") == dates.resolve(
        "tomorrow at 11", SAID, BERLIN
    )
    assert date_words.english("x" * 5000, "zz") == "x" * 100  # at most 100 characters read


def test_words_that_lead_an_offset_change_nothing_else() -> None:
    """An attack's cases (2026-12-08): "en", "in", "vor" lead an offset only before a number
    and a unit; elsewhere they stay as said ("jeudi en huit" was read as 8 January)."""
    zone = ZoneInfo("Europe/Paris")
    said = datetime(2026, 3, 4, 10, 0, tzinfo=zone)  # a Wednesday

    def day(phrase: str, lang: str) -> str | None:
        found = dates.resolve(phrase, said, zone, lang=lang)
        return found.value[:10] if found else None

    assert (day("jeudi en huit", "fr") or "9999") >= "2026-03-04"  # never in the past
    assert day("en huit", "fr") is None and day("en dos", "es") is None
    assert day("in den nächsten Tagen", "de") is None  # vague: no day
    assert day("vor 10 Uhr", "de") == "2026-03-05" and day("im Mai", "de") is None
    assert day("Montag vor einer Woche", "de") != "2026-03-01"  # a Sunday
