"""What a question says about *when*: a period it asks about, or that it wants the newest.

Periods are read against the moment of asking and widened by two days each side: "last
week/month/year" (and "the past 3 months") is that span back from today; "this month" the
same span; "yesterday" and "last Saturday" one day; "in March" (the latest March not in the
future) or "in March 2025" that month; "in 2024" that year; "three weeks ago" the day three
weeks back, give or take a quarter of the distance (at least a day). "What is my current…",
"do I still…" and "most recently" ask for the newest statement of something that may have
changed. Turn recall uses both: turns said within the period score higher, and for a
question that wants the newest, later turns do. Nothing here guesses a period the question
does not name; a question with no time words has no period.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from memwise._extraction.dates import MONTHS, NUMBER_WORDS, WEEKDAYS


@dataclass(frozen=True)
class Period:
    start: datetime  # inclusive
    end: datetime  # exclusive

    def holds(self, at: datetime) -> bool:
        return self.start <= at < self.end


_NUMBER = r"(\d{1,3}|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r"|a|an|a few)"
_MONTH = r"(" + "|".join(MONTHS) + r"|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)"
_AGO = re.compile(r"\b" + _NUMBER + r"\s+(day|week|month|year)s?\s+ago")
_LAST = re.compile(
    r"\b(?:last|past|previous)\s+(?:(" + _NUMBER[1:-1] + r")\s+)?(day|week|month|year)s?"
)
_THIS = re.compile(r"\bthis\s+(week|month|year)\b")
_WEEKDAY = re.compile(r"\b(?:last|on)\s+(" + "|".join(WEEKDAYS) + r")\b")
_IN_MONTH = re.compile(r"\b(?:in|during|back in|early|late|mid)\s+" + _MONTH + r"\b(?:\s+(\d{4}))?")
_IN_YEAR = re.compile(r"\b(?:in|during)\s+((?:19|20)\d{2})\b")
_RECENT = re.compile(
    r"\b(current(?:ly)?|now|latest|most recent(?:ly)?|recently|these days|at the moment|"
    r"any ?more|still|so far|newest|last time|updated?)\b"
)
_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
# any of the above, or "yesterday": one search tells most questions apart at once
_ANY = re.compile(
    "|".join(p.pattern for p in (_AGO, _LAST, _THIS, _WEEKDAY, _IN_MONTH, _IN_YEAR)) + r"|yesterday"
)


def _count(word: str | None) -> int:
    if not word or word in ("a", "an"):
        return 1
    if word == "a few":
        return 3
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word, 1)


def _month_index(name: str) -> int:
    return next(n for n, m in enumerate(MONTHS, 1) if m.startswith(name[:3]))


def period(question: str, now: datetime) -> Period | None:
    """The period a question names, read against ``now`` (when it is asked), widened by a
    little on each side (people misplace dates by a day or two); None when it names none,
    or one that no calendar holds ("in May 0000", "10,000 years ago")."""
    try:
        return _period(question, now)
    except (ValueError, OverflowError):
        return None


def _period(question: str, now: datetime) -> Period | None:
    q = question.lower()
    if not _ANY.search(q):
        return None
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    found: tuple[datetime, datetime] | None = None
    if m := _AGO.search(q):
        back = timedelta(days=_count(m.group(1)) * _DAYS[m.group(2)])
        slack = max(timedelta(days=1), back / 4)
        found = (day - back - slack, day - back + slack + timedelta(days=1))
    elif "yesterday" in q:
        found = (day - timedelta(days=1), day)
    elif m := _LAST.search(q):
        span = timedelta(days=_count(m.group(1)) * _DAYS[m.group(2)])
        found = (day - span, day + timedelta(days=1))
    elif m := _THIS.search(q):
        span = timedelta(days=_DAYS[m.group(1)])
        found = (day - span, day + timedelta(days=1))
    elif m := _WEEKDAY.search(q):
        days = (now.weekday() - WEEKDAYS.index(m.group(1))) % 7 or 7
        found = (day - timedelta(days=days), day - timedelta(days=days - 1))
    elif m := _IN_MONTH.search(q):
        month = _month_index(m.group(1))
        year = int(m.group(2)) if m.group(2) else now.year - (month > now.month)
        start = day.replace(year=year, month=month, day=1)
        found = (start, start + timedelta(days=calendar.monthrange(year, month)[1]))
    elif m := _IN_YEAR.search(q):
        year = int(m.group(1))
        found = (day.replace(year=year, month=1, day=1), day.replace(year=year + 1, month=1, day=1))
    if found is None:
        return None
    start, end = found
    return Period(start - timedelta(days=2), end + timedelta(days=2))


def wants_newest(question: str) -> bool:
    """Whether the question asks for the present state of something that may have changed
    ("what is my current…", "do I still…", "most recently")."""
    return bool(_RECENT.search(question.lower()))
