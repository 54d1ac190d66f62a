"""What a question says about when (no I/O)."""

from __future__ import annotations

from datetime import UTC, datetime

from memwise._retrieval.when import period, wants_newest
from tests.tables import misses

NOW = datetime(2026, 12, 2, 15, 0, tzinfo=UTC)  # a Wednesday


def day(y: int, m: int, d: int) -> datetime:
    return datetime(y, m, d, tzinfo=UTC)


PERIODS = [
    ("what did I buy yesterday?", day(2026, 12, 1), day(2026, 11, 20)),
    ("what did I order last week?", day(2026, 11, 27), day(2026, 11, 1)),
    ("which film did I see last month?", day(2026, 11, 10), day(2026, 9, 1)),
    ("what did I say three weeks ago?", day(2026, 11, 11), day(2026, 10, 1)),
    ("what happened 10 days ago?", day(2026, 11, 22), day(2026, 11, 2)),
    ("where did I eat last Saturday?", day(2026, 11, 28), day(2026, 11, 14)),
    ("what did we discuss in October?", day(2026, 10, 15), day(2026, 8, 1)),
    ("what did I book in March 2025?", day(2025, 3, 9), day(2026, 3, 9)),
    ("what did I buy in January?", day(2026, 1, 20), day(2025, 1, 20)),
    ("what car did I drive in 2024?", day(2024, 6, 1), day(2025, 6, 1)),
    ("what have I read this month?", day(2026, 11, 20), day(2026, 9, 20)),
]


def test_a_named_period() -> None:
    def check(question: str, inside: datetime, outside: datetime) -> None:
        found = period(question, NOW)
        assert found is not None
        assert found.holds(inside) and not found.holds(outside)

    assert misses(PERIODS, check) == []


def test_a_month_ahead_of_now_is_last_years() -> None:
    found = period("what did I buy in December?", datetime(2026, 6, 1, tzinfo=UTC))
    assert found is not None and found.holds(day(2025, 12, 10))


NO_TIME = ["what is my favourite colour?", "when did I adopt the cat?", "how was Paris?"]


def test_no_time_words_no_period() -> None:
    def check(question: str) -> None:
        assert period(question, NOW) is None

    assert misses(NO_TIME, check) == []


def test_wanting_the_newest() -> None:
    assert wants_newest("what is my current address?")
    assert wants_newest("Do I still have the red bike?")
    assert wants_newest("what did I most recently buy?")
    assert not wants_newest("what colour was the bike?")


NO_CALENDAR = ["in December 9999?", "in January 0001", "in May 0000", "900 years ago"]


def test_a_period_no_calendar_holds_is_no_period() -> None:
    def check(question: str) -> None:
        period(question, NOW)  # never raises
        assert period("often days ago", NOW) is None  # "ten" inside "often" is no number

    assert misses(NO_CALENDAR, check) == []
