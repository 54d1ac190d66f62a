"""Finding the date wording in a sentence, with dateparser's search (200+ languages).

A sentence often holds several candidates ("now flying out 11 April", "arriving Friday the
17th of April", "am Freitag, den 17. April um 14 Uhr"); the one that says most — the most
digit groups, then the longest — is the date meant. What dateparser's search also returns
that is not a date ("we" read as Wednesday, "now", "may") is never a choice: a candidate
without a digit needs four letters or more.
"""

from __future__ import annotations

import functools
import re
from datetime import datetime

_DIGITS = re.compile(r"\d+")  # counts a candidate's numbers: how specific it is
MAX_NUMBERS = 6  # in a text searched for dates (bounded work; docs/security.md)
_SETTINGS = {"PREFER_DATES_FROM": "future", "RELATIVE_BASE": datetime(2001, 1, 1)}


def candidates(sentence: str, language: str = "en") -> list[str]:
    """The date wordings dateparser finds in ``sentence``, without the ones that are words;
    none in a run of numbers (its search costs ~30 ms a number: "friday 6 11 4 or 11 11 10
    12 …" is no date a person writes; 15 such sentences held a worker 0.9 s)."""
    if len(_DIGITS.findall(sentence)) > MAX_NUMBERS:
        return []
    from dateparser.search import search_dates

    try:
        found = search_dates(sentence[:1000], languages=[language], settings=_SETTINGS)
    except (ValueError, OverflowError, RecursionError):
        return []
    return [
        text.strip() for text, _ in found or [] if _DIGITS.search(text) or len(text.strip()) >= 4
    ]


@functools.lru_cache(maxsize=512)  # the extractor's slots ask about the same sentence
def most_specific(sentence: str, language: str = "en") -> str | None:
    """The candidate that says most: the most digit groups, then the longest."""
    found = candidates(sentence, language)
    if not found:
        return None
    return max(found, key=lambda text: (len(_DIGITS.findall(text)), len(text)))
