"""Date and time wording of another language in English words, so that one set of
conventions (``memwise._extraction.dates``) reads every language: "nächsten Dienstag um halb
elf" is "next tuesday at 10:30", "viernes 14 a las 5 de la tarde" is "friday the 14th at 5
pm", "mardi prochain à 14h30" is "next tuesday at 14:30".

Weekday and month names, "today", number words and offsets ("in drei Tagen") come from
dateparser's language data (200+ languages); what it lacks — "next", "this", "at", the hour
words, morning and evening — from ``_text/data/date_words.txt`` (German, French, Spanish)."""

from __future__ import annotations

import functools
import re
import unicodedata

from memwise._text import normal, words

_NAMES = [w for kind, w in words.labelled("calendar") if kind in ("weekday", "month")]
_MONTHS = [w for kind, w in words.labelled("calendar") if kind == "month"]
_WEEKDAY = "(?:" + "|".join(w for kind, w in words.labelled("calendar") if kind == "weekday") + ")"
# from the data file: dateparser's relative words in English, the clock markers' arithmetic
_DATA = words.labelled("date_words")
_RELATIVE = {k: v for k, _, v in (t.partition("\t") for lab, t in _DATA if lab == "*")}
_CLOCK = {
    c[0]: (c[1], int(c[2]), int(c[3])) for lab, t in _DATA if lab == "clock" for c in [t.split()]
}


def _fold(text: str) -> str:  # accents kept: the data file's words have theirs
    return unicodedata.normalize("NFC", text.translate(normal.QUOTES).casefold())


_Table = tuple[re.Pattern[str], dict[str, str], re.Pattern[str] | None]


@functools.cache
def _table(language: str) -> _Table | None:
    """One pattern of every word and phrase the language's date wording uses, longest first
    (literal alternatives: linear), each one's English, and a pattern of the names' short
    forms ("Do", "sam", "mar"), read as names only before a number or "at". No library does
    this: dateparser translates by its own dictionaries, drops what they lack and reads "um
    10 Uhr" as a year; no German, French or Spanish parser is installed. dates_multi_blind_3
    (blind, once): day 0.77 / 0.81 / 0.82 against dateparser's 0.15 / 0.37 / 0.07."""
    try:  # dateparser's locale data (not its documented API: without it, the data file only)
        from dateparser.languages.loader import default_loader

        info = default_loader.get_locale(language).info
    except (ImportError, AttributeError, ValueError, KeyError):
        info = {}
    english: dict[str, str] = {}
    short: dict[str, str] = {}  # short forms are words too ("die", "mit", "sam", "sept")
    for name in _NAMES:
        forms = [_fold(w).rstrip(".") for w in info.get(name, [])]
        english |= {w: name for w in forms if len(w) >= 5 or w == max(forms, key=len)}
        short |= {w: name for w in forms if len(w) < 5 and w != max(forms, key=len) and w}
    for relative, said in info.get("relative-type", {}).items():
        if relative in _RELATIVE:
            english |= {_fold(w): _RELATIVE[relative] for w in said}
    for pair in info.get("simplifications", []):
        english |= {_fold(k): v for k, v in pair.items() if k.isalpha() and v.isdigit()}
    for unit in ("day", "week", "month", "year"):  # "in drei Tagen", "hace 2 días" (not "j")
        english |= {_fold(w): f"unit~{unit}~{_fold(w)}" for w in info.get(unit, []) if len(w) > 2}
    leads = [("in~", w) for w in info.get("in", [])]  # "in", "dans", "dentro de"; "vor"
    for relative, said in info.get("relative-type-regex", {}).items():  # "vor (\d+) tagen"
        leads += [("ago~" if relative.endswith("ago") else "in~", r.split(" (")[0]) for r in said]
    english |= {_fold(w): lead + _fold(w).replace(" ", "_") for lead, w in leads}
    for lang, text in _DATA:
        if lang == language:
            said, _, meaning = text.partition("\t")
            english[_fold(said)] = meaning.strip()
    if not english:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(english, key=len, reverse=True))
    shorts = "|".join(re.escape(w) for w in sorted(set(short) - set(english), key=len)[::-1])
    guarded = re.compile(rf"(?<!\w)({shorts})\.?(?=\s+(?:at\b|\d))") if shorts else None
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)"), short | english, guarded


def _hours(m: re.Match[str]) -> str:
    marker, hour = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    _, add, minutes = _CLOCK[marker]
    return f"{(int(hour) + add - 1) % 12 + 1}:{minutes:02d}"


def english(phrase: str, language: str) -> str:
    """``phrase`` (at most 100 characters are read) in the English words of its dates."""
    found = _table(language)
    text = _fold(phrase[:100])
    if found is None:
        return text
    pattern, meaning, guarded = found
    text = re.sub(r"\s+([,.])", r"\1", pattern.sub(lambda m: f" {meaning[m.group()]} ", text))
    for lead, said in (("in", r"in \1 \2"), ("ago", r"\1 \2 ago")):  # "vor 3 Tagen"
        text = re.sub(rf"\b(?:today\s+)?{lead}~\S+\s+(\d+)\s+unit~(\w+)~\S+", said, text)
    text = re.sub(r"\b1 (day|week|month|year)\b", r"a \1", text)  # not "Montag the 1st"
    text = re.sub(r"\bin (8|15) day\b", lambda m: f"in {int(m[1]) - 1} day", text)  # weeks
    text = re.sub(r"\b(?:in|ago|unit~\w+)~(\S+)", lambda m: m[1].replace("_", " "), text)
    if guarded is not None:  # "Do um 10", "sam 14": a short name before a number or a time
        text = guarded.sub(lambda m: meaning[m[1]], text)
    text = re.sub(r"\b(\d{1,2}) ?h ?([0-5]\d)?\b", lambda m: f"{m[1]}:{m[2] or '00'}", text)
    markers = "|".join(_CLOCK)  # "halb sechs", "10h et quart", "dix heures et demie"
    text = re.sub(
        rf"\b({markers})\s+(\d{{1,2}})\b|\b(\d{{1,2}})(?::00)?(?:\s+o'clock)?\s+({markers})\b",
        _hours,
        text,
    )
    text = re.sub(r"\b(\d{1,2})\s+o'clock", r"\1:00", text)
    text = re.sub(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})?", _day_month, text)  # 10.11.: 10 November
    text = re.sub(rf"\b({_WEEKDAY})\s+(next|last)\b", r"\2 \1", text)  # "mardi prochain"
    text = re.sub(r"\b(\d{1,2})\.(?![\d/])", lambda m: ordinal(int(m[1])), text)  # "am 3."
    text = re.sub(  # a day of the month said as a number: "viernes 14", "Freitag, 13."
        rf"\b(?:({_WEEKDAY}),?\s+|the\s+)(\d{{1,2}})\.?(?![\w:/])(?!\s*(?:am|pm)\b)",
        lambda m: f"{m[1] or ''} the {ordinal(int(m[2]))}",
        text,
    )
    return re.sub(r"\bat( at)+\b", "at", " ".join(text.split()))


def _day_month(m: re.Match[str]) -> str:
    day, month = int(m[1]), int(m[2])
    if not 1 <= month <= 12:
        return m.group()
    return f"the {ordinal(day)} of {_MONTHS[month - 1]}" + (f" {m[3]}" if m[3] else "")


def ordinal(n: int) -> str:  # "21st", "12th": the date layer's one ordinal
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
