"""Resolving date and time wording against the moment it was said, in the workspace timezone.

"lunch tomorrow at 11", said on Sun 29 Nov 2026 10:00 in Europe/Berlin, resolves to
2026-11-30T11:00:00+01:00. dateparser's search finds the wording (memwise._text.dates), joined
with the first date word when they touch ("thurs 4:30 this week"); the conventions below
resolve it and dateparser reads what they do not ("Oct-2", "two days ago"). dateparser is
not the first reader: on the tuning conversations it read "the 11th" as 11 November, "sat 9"
as 9 September and "tues 21st" as a day gone by. (A parser of booking chat, ctparse, was
tried as a second reader and taken back: its time limit is not enforced on its costliest
step, and it read counts as times, "a table for 6 on Friday" as 18:00.) Conventions:

- a bare weekday ("on Friday") is the next such day after today;
- "next Friday" is the Friday of next week (Monday-based weeks); "this Friday" is this
  week's, or the coming one once this week's has passed;
- a day or date without a year is the next one not in the past ("on the 3rd", "3 Dec");
- a weekday with a day of the month ("Friday the 18th") is the nearest month, within two
  either way, where they meet; else the day of the month wins;
- "at 11" alone is 11:00; with no am/pm, hours 1–6 are read as afternoon (13:00–18:00).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from memwise._text import date_words, words
from memwise._text import dates as text_dates

_CALENDAR = words.labelled("calendar")
WEEKDAYS = [w for label, w in _CALENDAR if label == "weekday"]
_WD = {w: i for i, w in enumerate(WEEKDAYS)} | {w[:3]: i for i, w in enumerate(WEEKDAYS)}
MONTHS = [w for label, w in _CALENDAR if label == "month"]
_MON = {m: i + 1 for i, m in enumerate(MONTHS)} | {m[:3]: i + 1 for i, m in enumerate(MONTHS)}
_MONTH_RX = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_WD_RX = (
    r"(mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|"
    r"sat(?:urday)?|sun(?:day)?)"
)


_NUMBERS = words.labelled("numbers")
# every number word a text may give a count or an age in (dates need only up to thirty)
CARDINALS = {w: int(n) for n, w in _NUMBERS if n.isdigit()}
NUMBER_WORDS = {w: n for w, n in CARDINALS.items() if 0 < n < 20 or n in (20, 30)}
_ORDINAL_WORDS = {w: int(n[:-2]) for n, w in _NUMBERS if not n.isdigit()}
_UNITS = [w for w, n in NUMBER_WORDS.items() if n < 10]  # one … nine
_ORD = [w for w, n in _ORDINAL_WORDS.items() if n < 10]  # first … ninth
_ordinal = date_words.ordinal


def words_to_numbers(text: str) -> str:
    """'twenty-first' → '21st', 'twenty one' → '21', 'second' → '2nd' (days of the month)."""

    def compound(m: re.Match[str]) -> str:
        tens = NUMBER_WORDS[m.group(1)]
        unit = m.group(2)
        if unit in _ORDINAL_WORDS:
            return _ordinal(tens + _ORDINAL_WORDS[unit])
        return str(tens + NUMBER_WORDS[unit])

    t = re.sub(
        r"\b(twenty|thirty)[ -](" + "|".join(_ORD + _UNITS) + r")\b",
        compound,
        text,
        flags=re.I,
    )
    t = re.sub(
        r"\b(" + "|".join(_ORDINAL_WORDS) + r")\b",
        lambda m: _ordinal(_ORDINAL_WORDS[m.group(1).lower()]),
        t,
        flags=re.I,
    )
    return re.sub(
        r"\b(" + "|".join(NUMBER_WORDS) + r")\b(?!\s*o'?clock)",
        lambda m: str(NUMBER_WORDS[m.group(1).lower()]),
        t,
        flags=re.I,
    )


@dataclass(frozen=True)
class Resolved:
    value: str  # ISO date ("2026-11-30") or datetime with offset
    phrase: str
    has_time: bool

    @property
    def day(self) -> date:
        return date.fromisoformat(self.value[:10])


_EVENING = re.compile(r"\b(?:tonight|evening|afternoon|(?:this|the) night|pm)\b", re.I)


def time_of(text: str) -> time | None:
    text = words_to_numbers(text)
    if re.search(r"\b(?:end of (?:the )?day|eod|end of (?:tomorrow|today|the \w+))\b", text, re.I):
        return time(23, 59, 59)
    m = re.search(r"\b(\d{4})-(\d{2})-(\d{2})[t ](\d{2}):(\d{2})(?::(\d{2}))?", text, re.I)
    if m:
        return time(int(m.group(4)), int(m.group(5)), int(m.group(6) or 0))
    m = re.search(
        r"\b(\d{1,2})(?:[:.](\d{2}))?(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)(?![a-z])", text, re.I
    )
    if m:
        h, mi, sec = int(m.group(1)), int(m.group(2) or 0), int(m.group(3) or 0)
        if h > 12 or mi > 59:
            return None
        return time((h % 12) + (12 if m.group(4).lower().startswith("p") else 0), mi, sec)
    hour = None
    m = re.search(r"\b(\d{1,2})[:.](\d{2})(?::(\d{2}))?\b(?!\s*(?:eur|usd|%|kg))", text, re.I)
    if m and int(m.group(1)) < 24 and int(m.group(2)) < 60 and int(m.group(3) or 0) < 60:
        hour, minute, second = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    else:
        m = re.search(
            r"\b(?:at|around|by)\s+(\d{1,2})(?:\s*o'?clock)?\b(?![:./]\d)"
            r"(?!\s*(?:st|nd|rd|th)\b)|^\s*(\d{1,2})\s*,",
            text,
            re.I,
        )
        if m and 0 <= int(m.group(1) or m.group(2)) <= 23:
            hour, minute, second = int(m.group(1) or m.group(2)), 0, 0
    if hour is not None:
        if (hour < 12 and _EVENING.search(text)) or (
            1 <= hour <= 6 and not re.search(r"\bmorning|a\.?m\b", text, re.I)
        ):
            hour += 12
        return time(hour, minute, second)
    if re.search(r"\bnoon|midday\b", text, re.I):
        return time(12, 0)
    if re.search(r"\bmidnight\b", text, re.I):
        return time(0, 0)
    return None


_PAST = re.compile(
    r"\b(?:had|was|were|went|did|got|came|called|visited|bought|ordered|returned|ago|last|"
    r"yesterday|earlier|already|back in)\b",
    re.I,
)


def _next_day_of_month(day: int, today: date, past: bool = False, t: str = "") -> date | None:
    """The nearest day ``day`` of a month on or after today (on or before, when ``past``);
    when ``t`` names a weekday, the nearest within two months either way whose day is that
    weekday ("Thursday the 21st" said on Wednesday the 27th is six days ago), else the day
    wins."""
    named = re.search(rf"\b{_WD_RX}\b", t)
    if named:
        target = _WD[named.group(1)[:3]]
        fits = [c for k in range(-2, 3) if (c := _safe(*_shift_month(today, k), day))]
        fits = [c for c in fits if c.weekday() == target]
        if fits:
            return min(fits, key=lambda c: abs((c - today).days))
    for k in range(0, -13, -1) if past else range(13):
        c = _safe(*_shift_month(today, k), day)
        if c and (c <= today if past else c >= today):
            return c
    return None


def _month_day(
    month: int, day: int, year: int | None, today: date, past: bool = False
) -> date | None:
    try:
        if year is not None:
            return date(year if year > 99 else 2000 + year, month, day)
        candidate = date(today.year, month, day)
        if past:
            return candidate if candidate <= today else date(today.year - 1, month, day)
        return candidate if candidate >= today else date(today.year + 1, month, day)
    except ValueError:
        return None


def _year(y: str, today: date) -> int:
    return n if (n := int(y)) > 99 else 2000 + n if 2000 + n <= today.year + 10 else 1900 + n


def _nth_weekday(year: int, month: int, nth: int, weekday: int) -> date | None:
    first = date(year, month, 1)
    day = first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))
    return day if day.month == month else None


def _shift_month(today: date, delta: int) -> tuple[int, int]:
    index = today.year * 12 + today.month - 1 + delta
    return index // 12, index % 12 + 1


def _relative_rules(t: str, today: date) -> date | None:
    """Offsets from a base day, week-relative weekdays, nth weekdays, 'weekday the 21st'."""
    bases = {"today": 0, "now": 0, "tomorrow": 1, "yesterday": -1}
    m = re.search(r"\b(\d+) (day|week)s? (from|after|before) (today|now|tomorrow|yesterday)\b", t)
    if m:
        step = int(m.group(1)) * (7 if m.group(2) == "week" else 1)
        sign = -1 if m.group(3) == "before" else 1
        return today + timedelta(days=bases[m.group(4)] + sign * step)
    m = re.search(r"\b(?:a )?few (day|week|month)s? ago\b", t)
    if m:
        if m.group(1) == "month":
            y, mo = _shift_month(today, -3)
            return _month_day(mo, min(today.day, 28), y, today)
        return today - timedelta(days=3 * (7 if m.group(1) == "week" else 1))
    m = re.search(rf"\b(\d+) {_WD_RX}s? (?:from now|later)\b", t)
    if m:
        target = _WD[m.group(2)[:3]]
        ahead = (target - today.weekday()) % 7 or 7
        return today + timedelta(days=ahead + 7 * (int(m.group(1)) - 1))
    m = re.search(
        rf"\b(next|last|this) week(?: on)? {_WD_RX}\b|\b(?:on )?{_WD_RX},? (?:of )?"
        rf"(next|last|this) week\b",
        t,
    )
    if m:
        which = m.group(1) or m.group(4)
        target = _WD[(m.group(2) or m.group(3))[:3]]
        monday = today - timedelta(days=today.weekday())
        return monday + timedelta(days=target + {"next": 7, "last": -7, "this": 0}[which])
    m = re.search(
        rf"\b(\d)(?:st|nd|rd|th) {_WD_RX}(?: (?:of|in) (?:(this|next|last|previous) "
        rf"month|{_MONTH_RX}))?\b",
        t,
    )
    if m:
        nth, target = int(m.group(1)), _WD[m.group(2)[:3]]
        if m.group(4):
            month = _MON[m.group(4)[:3]]
            year = today.year if month >= today.month else today.year + 1
        else:
            delta = {"next": 1, "last": -1, "previous": -1}.get(m.group(3) or "this", 0)
            year, month = _shift_month(today, delta)
        return _nth_weekday(year, month, nth, target)
    m = re.search(r"\b(\d{1,2})(?:st|nd|rd|th)? of (next|last|previous|this) month\b", t)
    if m:
        year, month = _shift_month(today, {"next": 1, "this": 0}.get(m.group(2), -1))
        return _month_day(month, int(m.group(1)), year, today)
    m = re.search(r"\bin (\d+) business days?\b", t)
    if m:
        when, left = today, int(m.group(1))
        while left:
            when += timedelta(days=1)
            left -= when.weekday() < 5
        return when
    m = re.search(r"\b(\d{4})[/-](\d{1,2})[/-](\d{1,2})\b", t)
    if m:
        return _safe(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = re.search(r"\b(\d{1,2})[/-](\d{1,2})[/,-](\d{2,4})\b", t)
    if m:  # month first, as American English writes it; day first when the month cannot be
        a, b = int(m.group(1)), int(m.group(2))
        month, day = (a, b) if a <= 12 else (b, a)
        return _safe(_year(m.group(3), today), month, day)
    return None


def _safe(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _aliases(t: str) -> str:
    t = re.sub(r"\btmrw\b|\btmr\b", "tomorrow", t)
    t = re.sub(r"\b(?:the )?next day\b", "tomorrow", t)
    t = re.sub(r"\b(?:the|this|my) day\b(?! (?:after|before))", "today", t)
    return re.sub(r"\b(?:the )?(?:last|past|previous) day\b", "yesterday", t)


_HOLIDAYS = {w: (int(d[:2]), int(d[3:])) for d, w in _CALENDAR if d[0].isdigit()}
_HOLIDAY_RX = re.compile(
    r"\b(?:on\s+)?("
    + "|".join(re.escape(h) for h in sorted(_HOLIDAYS, key=len, reverse=True))
    + r")\b",
    re.I,
)
_BARE_MONTH = re.compile(
    rf"^(?:in|by|this|next|early|late|mid|end of|the end of|the start of|start of)?\s*"
    rf"{_MONTH_RX}(?:\s+(\d{{4}}))?$",
    re.I,
)


def _fixed_days(t: str, today: date, past: bool) -> date | None:
    """Holidays by name, 'Monday week' (the one after next), 'a week tomorrow', and a month
    alone ('in March': its first day, the next March that is not over)."""
    m = _HOLIDAY_RX.search(t)
    if m:
        month, day = _HOLIDAYS[m.group(1).lower()]
        return _month_day(month, day, None, today, past)
    m = re.search(rf"\b{_WD_RX} week\b", t)
    if m:
        target = _WD[m.group(1)[:3]]
        ahead = (target - today.weekday()) % 7 or 7
        return today + timedelta(days=ahead + 7)
    if re.search(r"\ba week (?:from )?tomorrow\b", t):
        return today + timedelta(days=8)
    m = _BARE_MONTH.match(t.strip())
    if m:
        month = _MON[m.group(1)[:3].lower()]
        if m.group(2):
            return date(int(m.group(2)), month, 1)
        ahead = month > today.month or (month == today.month and not past)
        return date(today.year if ahead else today.year - 1 if past else today.year + 1, month, 1)
    return None


def _weekday(t: str, today: date) -> date | None:
    """ "next Tuesday", "this Friday", "last Monday", "Thursday" (never "every Thursday")."""
    m = re.search(rf"\b(next|this|coming|last)?\s*{_WD_RX}\b", t)
    if not m or re.search(rf"\bevery\s+{_WD_RX}", t):
        return None
    target, which = _WD[m.group(2)[:3]], m.group(1)
    monday = today - timedelta(days=today.weekday())
    if which == "next":
        return monday + timedelta(days=7 + target)
    if which == "this":  # this week's, unless it has passed: then the coming one
        this_week = monday + timedelta(days=target)
        return this_week if this_week >= today else this_week + timedelta(days=7)
    if which == "last":
        back = (today.weekday() - target) % 7 or 7
        return today - timedelta(days=back)
    ahead = (target - today.weekday()) % 7 or 7
    return today + timedelta(days=ahead)


def _own_rules(text: str, today: date, past: bool = False) -> date | None:
    t = _aliases(words_to_numbers(text.lower()))
    found = _relative_rules(t, today) or _fixed_days(t, today, past)
    if found is not None:
        return found
    if re.search(r"\bday after tomorrow\b", t):
        return today + timedelta(days=2)
    if re.search(r"\bday before yesterday\b", t):
        return today - timedelta(days=2)
    if re.search(
        r"\b(?:today|tonight|now|asap|as soon as possible|end of (?:the )?day|eod|"
        r"this (?:morning|afternoon|evening|night))\b",
        t,
    ):
        return today
    if re.search(r"\btomorrow\b", t):
        return today + timedelta(days=1)
    if re.search(r"\byesterday\b", t):
        return today - timedelta(days=1)
    m = re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", t)
    if m:
        try:
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return None
    m = re.search(
        rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\.?\s+(?:of\s+)?{_MONTH_RX}\.?(?:,?\s+(\d{{4}}))?\b", t
    )
    if m:
        given = _year(m.group(3), today) if m.group(3) else None
        return _month_day(_MON[m.group(2)[:3]], int(m.group(1)), given, today, past)
    m = re.search(
        rf"\b{_MONTH_RX}\.?\s*(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(\d{{4}}))?", t
    )
    if m:
        given = _year(m.group(3), today) if m.group(3) else None
        return _month_day(_MON[m.group(1)[:3]], int(m.group(2)), given, today, past)
    if (found := _weekday(t, today)) is not None and not _NAMED_DAY.search(t):
        return found
    m = re.search(r"\bnext (week|month|year)\b", t)
    if m:
        if m.group(1) == "week":
            return today - timedelta(days=today.weekday()) + timedelta(days=7)
        if m.group(1) == "month":
            return date(today.year + (today.month == 12), today.month % 12 + 1, 1)
        return date(today.year + 1, 1, 1)
    m = re.search(
        r"\b(?:on|by|until|before)\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b|"
        r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b",
        t,
    )
    if m:
        return _next_day_of_month(int(m.group(1) or m.group(2)), today, past, t)
    m = re.search(
        r"\b(\d{1,2})(?:st|nd|rd|th)\b|\bon (?:the )?(\d{1,2})\b(?![:.]\d)|"
        r"^\s*(\d{1,2})\s*(?:,|at\b)",
        t,
    )
    if m:
        return _next_day_of_month(int(m.group(1) or m.group(2) or m.group(3)), today, past, t)
    m = re.search(r"\b(\d{1,2})[/.](\d{1,2})\b", t)
    if m:  # month first (American English); day first when the first cannot be a month
        a, b = int(m.group(1)), int(m.group(2))
        month, day = (a, b) if a <= 12 else (b, a)
        return _month_day(month, day, None, today)
    return None


HAS_DATE = re.compile(
    rf"\b(?:(?:the )?day after tomorrow|(?:the )?day before yesterday|a week tomorrow"
    rf"|{_WD_RX} week|christmas eve|christmas day|christmas|boxing day|new year'?s (?:eve|day)"
    rf"|today|tonight|tomorrow|yesterday|next (?:week|month|year)"
    rf"|in (?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten) (?:day|week|month)s?"
    rf"|{_WD_RX}|{_MONTH_RX}\.? \d{{1,2}}|\d{{1,2}}(?:st|nd|rd|th)?\.? (?:of )?{_MONTH_RX}"
    rf"|the \d{{1,2}}(?:st|nd|rd|th)|\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?)\b",
    re.I,
)


def find_phrase(sentence: str) -> str | None:
    """The date wording in a sentence, if any (with a following time, when there is one):
    the most specific of dateparser's candidates when one says more than the first word
    this module's pattern finds ("Friday the 17th of April", not "Friday")."""
    m = HAS_DATE.search(sentence)
    if not m:
        return None
    begin, end = m.span()
    best = text_dates.most_specific(sentence[max(0, begin - 40) : end + 60])  # bounded work
    at = sentence.find(best, max(0, begin - 40)) if best and len(best) > end - begin else -1
    if best and at >= 0:  # joined with the first word when they touch ("thurs 4:30 this week")
        touch = sentence[min(end, at + len(best)) : max(begin, at)].strip(" ,") == ""
        begin, end = (min(begin, at), max(end, at + len(best))) if touch else (at, at + len(best))
    tail = sentence[end : end + 25]
    t = re.match(
        r"\s*(?:at|@|around|by|from)?\s*\d{1,2}(?:[:.]\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)?", tail, re.I
    )
    extra = t.group() if t and re.search(r"\d", t.group()) else ""
    head = sentence[max(0, begin - 20) : begin]
    lead = re.search(
        r"(?:(?:at|@|around|by)\s+\d{1,2}(?:[:.]\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)?\s+)?"
        r"(?:(?:next|this|coming|last|on|by|the)\s+)?$",
        head,
        re.I,
    )
    return ((lead.group() if lead else "") + sentence[begin:end] + extra).strip()


# A day of the month beside a weekday ("Friday the 18th", "tues 21st"), not an nth weekday
# ("the 2nd Tuesday"): the month where they meet. No library reads it (dateparser: "tues 21st"
# a day gone by, "Friday the 18th" the next Friday; spaCy's DATE says where, not which day).
# language_en_blind_5 (blind): kept dated items' day right 20/64 -> 22/64 with this reading.
_NAMED_DAY = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)\b(?! (?:mon|tue|wed|thu|fri|sat|sun))"
    rf"|\b(\d{{1,2}})\.? (?:of )?{_MONTH_RX}|{_MONTH_RX}\.? (?:the )?(\d{{1,2}})\b",
    re.I,
)


def resolve(
    phrase: str, said_at: datetime, zone: ZoneInfo, sentence: str | None = None, lang: str = "en"
) -> Resolved | None:
    """Resolve ``phrase`` as said at ``said_at`` (aware) in ``zone``; None if it holds no date.
    ``sentence`` (the whole sentence) lets past-tense wording pick the past reading of a date
    without a year ("I had the dentist on 20 November") — unless the date is what something was
    moved to ("pushed to Halloween, Oct 31" is the one ahead). Another language ``lang`` is
    read in its English words (``memwise._text.date_words``)."""
    if lang != "en":
        phrase, sentence = date_words.english(phrase, lang), None
    try:  # wording no calendar holds is no date ("March 0000", "2026-13-01T25:61")
        local = said_at.astimezone(zone)
        today = local.date()
        said = sentence or phrase
        at = said.find(phrase)
        moved_to = at > 0 and re.search(
            r"\b(?:to|till|until)\s+(?:\w+,\s+)?$", said[max(0, at - 30) : at]
        )
        day = _own_rules(phrase, today, bool(_PAST.search(said)) and not moved_to)
        clock = time_of(phrase)
        dated = HAS_DATE.search(phrase) or re.search(rf"{_MONTH_RX}|\d{{4}}", phrase, re.I)
        if day is None and (clock is None or dated):  # what the rules do not read: "Oct-2"
            day, read = _dateparser(phrase, local)
            clock = clock or read
        if day is None:  # a time alone: today's, or tomorrow's once today's has passed
            if clock is None:
                return None
            day = today if time(clock.hour, clock.minute) > local.time() else today + timedelta(1)
        if clock is None:
            return Resolved(day.isoformat(), phrase, False)
        moment = datetime.combine(day, clock, tzinfo=zone)
        return Resolved(moment.isoformat(), phrase, True)
    except (ValueError, OverflowError):
        return None


def _dateparser(text: str, local: datetime) -> tuple[date | None, time | None]:
    import dateparser

    settings = {"RELATIVE_BASE": local.replace(tzinfo=None), "PREFER_DATES_FROM": "future"}
    try:
        found = dateparser.parse(text[:100], languages=["en"], settings=settings)  # bounded
    except (ValueError, OverflowError):
        return None, None
    if found is None:
        return None, None
    said = (found.hour, found.minute) not in ((local.hour, local.minute), (0, 0))
    return found.date(), time(found.hour, found.minute) if said else None
