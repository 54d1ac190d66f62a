"""The offline extractor's everyday slots: where the customer lives (and moves), how to reach
them, their family, their work, their dietary and accessibility needs, their language.

Each finder reads one sentence the customer said and returns proposals with a stable key, so
a later statement of the same slot supersedes the earlier one ("Actually I moved to Hamburg"
replaces "Lives in Berlin"). No parser, no model: patterns over words, with a short list of
words that are never a place, a name or a job. What it cannot read, it leaves alone.
"""

from __future__ import annotations

import re

from memwise._extraction import dates
from memwise._extraction.types import Proposal
from memwise._safety import instructions
from memwise._text import lexical
from memwise._text import words as text_words


# -- words -------------------------------------------------------------------------------------
def _words(text: str) -> list[str]:
    return text.split()


CHANNEL_WORDS = {
    "email": "email",
    "e-mail": "email",
    "emails": "email",
    "mail": "email",
    "phone": "phone",
    "call": "phone",
    "calls": "phone",
    "calling": "phone",
    "ring": "phone",
    "phone call": "phone",
    "phone calls": "phone",
    "text": "text message",
    "texts": "text message",
    "texting": "text message",
    "text message": "text message",
    "text messages": "text message",
    "sms": "text message",
    "message": "text message",
    "whatsapp": "WhatsApp",
    "telegram": "Telegram",
    "post": "post",
    "letter": "post",
}
_CH = (
    r"(e-?mails?|e-mail|phone calls?|text messages?|texts?|texting|sms|whatsapp|telegram|"
    r"calls?|calling|phone|ring|post|letter|mail|message)"
)
_NOT_PLACE = (
    set(
        _words(
            "new another town city country flat house apartment place area street address home "
            "abroad get live stay work somewhere different bigger smaller next last now soon back "
            "spring summer autumn fall winter week month year today tomorrow yesterday recently "
            "finally"
        )
    )
    | set(dates.MONTHS + dates.WEEKDAYS)
    | lexical.STOPWORDS  # "leslieville so it's close": the place is not "Leslieville So"
    | text_words.load("fillers")
)
_PLACE = (
    r"([A-Za-zÀ-ÿ][\wÀ-ÿ'.-]*(?:[ -](?:am|an|upon|on|de|del|la|le|sur)?[ -]?[A-ZÀ-Ý][\wÀ-ÿ'.-]*)?)"
)
RELATIONS = {
    "wife": "wife",
    "husband": "husband",
    "partner": "partner",
    "boyfriend": "boyfriend",
    "girlfriend": "girlfriend",
    "fiance": "fiancé",
    "fiancé": "fiancé",
    "fiancée": "fiancée",
    "son": "son",
    "daughter": "daughter",
    "kid": "child",
    "child": "child",
    "baby": "baby",
    "mother": "mother",
    "mum": "mother",
    "mom": "mother",
    "father": "father",
    "dad": "father",
    "brother": "brother",
    "sister": "sister",
    "grandson": "grandson",
    "granddaughter": "granddaughter",
    "grandmother": "grandmother",
    "grandma": "grandmother",
    "grandfather": "grandfather",
    "grandpa": "grandfather",
    "stepson": "stepson",
    "stepdaughter": "stepdaughter",
}
_REL = "(" + "|".join(sorted(RELATIONS, key=len, reverse=True)) + ")"
_COUNT = {"a": 1, "an": 1, **dates.NUMBER_WORDS}
_JOB_PHRASES = sorted(text_words.load("jobs"), key=lambda j: (-len(j), j))  # longest first
_JOB = "(" + "|".join(re.escape(j) for j in _JOB_PHRASES) + ")"
DIETS = (
    r"vegetarian|vegan|pescatarian|coeliac|celiac|diabetic|lactose[- ]intolerant|"
    r"gluten[- ]intolerant|gluten[- ]free|dairy[- ]free|halal|kosher|teetotal"
)
LANGUAGES = _words(
    "english german french spanish italian portuguese dutch polish turkish arabic russian "
    "ukrainian greek swedish danish norwegian finnish czech hungarian romanian chinese "
    "mandarin cantonese japanese korean hindi urdu farsi persian hebrew vietnamese thai"
)
_LANG = "(" + "|".join(LANGUAGES) + ")"
_NEG = re.compile(r"\b(?:not|no longer|never|n't|no more|any ?more|stopped being)\b", re.I)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:40]


def _place(raw: str | None) -> str | None:
    """A place name as said ('hamburg' → 'Hamburg'), or None when it is not one."""
    if not raw:
        return None
    words = raw.strip(" .,!").split()
    named = len(words) > 1 and words[0][:1].isupper() and words[1][:1].isupper()  # "New York"
    if not words or (words[0].lower() in _NOT_PLACE and not named):
        return None
    while words and words[-1].lower() in _NOT_PLACE:
        words.pop()
    if not words:
        return None
    return " ".join(w if w[:1].isupper() else w.capitalize() for w in words)


def _clause_of(s: str, start: int) -> str:
    """The clause of ``s`` around ``start``: what negation may reach."""
    left = max(s.rfind(c, 0, start) for c in ",;:") + 1
    return s[left:start]


# -- where they live, and moves ----------------------------------------------------------------
_LIVES = re.compile(
    r"\b(?:i|we)(?:'m|'re| am| are|'?ve| have|'?ve been| have been)?\s*"
    r"(?:now\s+|still\s+|currently\s+|actually\s+|both\s+)?"
    r"(?:live|living|reside|residing|lived)\s+in\s+"
    rf"{_PLACE}"
    rf"|\b(?:i'm|i am|we're|we are)\s+(?:now\s+|currently\s+)?based\s+in\s+{_PLACE}"
    rf"|\b(?:my|our)\s+home\s+is\s+(?:now\s+)?(?:in\s+)?{_PLACE}"
    rf"|\b(?:i'm|i am|we're|we are)\s+(?:now\s+)?in\s+{_PLACE}\s+(?:now|these days)\b",
    re.I,
)
_MOVED = re.compile(
    r"\b(?:i|we)(?:'?ve| have| had)?\s+(?:just\s+|recently\s+|finally\s+|actually\s+|already\s+)?"
    r"(?:moved|relocated)(?:\s+house)?(?:\s+back)?\s+(?:from\s+[\w -]+?\s+)?(?:to|into)\s+"
    r"(?:(?:my|our)\s+home\s?town,?\s+)?"
    rf"{_PLACE}"
    rf"|\bsince\s+(?:i|we)\s+moved\s+to\s+{_PLACE}",
    re.I,
)
_MOVING = re.compile(
    r"\b(?:i'm|i am|we're|we are|i'll|i will|we'll|we will|i'm going to|we're going to|"
    r"i am going to|we are going to|i plan to|we plan to|i'm planning to|we're planning to)"
    r"\s+(?:be\s+)?(?:moving|relocating|move|relocate)\s+(?:house\s+)?(?:from\s+[\w -]+?\s+)?"
    rf"to\s+{_PLACE}",
    re.I,
)
_MONTH_PHRASE = re.compile(
    rf"\b(?:in|by|this|next|early|late|mid|end of|the end of)\s+(?:{'|'.join(dates.MONTHS)})\b",
    re.I,
)


def home(s: str) -> list[Proposal]:
    """'I live in X', 'I moved to X', 'we relocated to X': where they live now (one key, so
    the newest supersedes); 'I'm moving to X in March': an upcoming move, dated."""
    m = _MOVING.search(s)
    if m:
        place = _place(m.group(1))
        if place:
            phrase = dates.find_phrase(s) or (_MONTH_PHRASE.search(s) or [None])[0]
            text = f"Is moving to {place}" + (f" ({phrase})" if phrase else "")
            return [
                Proposal(
                    "event", text, [s], key="address.move", occurs_phrase=phrase, entities=[place]
                )
            ]
    for rx in (_MOVED, _LIVES):
        m = rx.search(s)
        if not m:
            continue
        if re.search(
            r"\b(?:if|suppose|imagine|were to|would|might|thinking (?:of|about)|in case)\b",
            _clause_of(s, m.start()) + s[max(0, m.start() - 20) : m.start()],
            re.I,
        ):
            continue  # "if I moved to Vienna, …" is not a move
        place = _place(next((g for g in m.groups() if g), None))
        if not place or _NEG.search(_clause_of(s, m.start()) + m.group(0)[:12]):
            continue
        lived = re.search(r"\blived\b", m.group(0), re.I)
        if lived and not re.search(r"(?:'?ve|have)\s+(?:\w+\s+)?lived", m.group(0), re.I):
            continue  # "I lived in Paris" is then, not now
        return [Proposal("fact", f"Lives in {place}", [s], key="address.city", entities=[place])]
    return []


# -- how to reach them --------------------------------------------------------------------------
_PREFERS = [
    re.compile(
        r"\b(?:i(?:'d| would)?\s+(?:much\s+)?prefer|i'd rather|i would rather)\s+"
        r"(?:to\s+be\s+|be\s+|it\s+)?"
        r"(?:contacted\s+|reached\s+|if you\s+)?(?:by|via|on|through|over|with)?\s*(?:a\s+)?"
        rf"{_CH}\b",
        re.I,
    ),
    re.compile(
        r"\b(?:contact|reach|get hold of|get in touch with|update|notify)\s+me\s+(?:only\s+)?"
        rf"(?:by|via|on|through|over)\s+(?:a\s+)?{_CH}\b",
        re.I,
    ),
    re.compile(
        rf"\b{_CH}\s+(?:is|works|would be)\s+(?:best|better|easiest|ideal|preferred|fine|ok|"
        r"okay|good|great)\b",
        re.I,
    ),
    re.compile(
        r"\b(?:best|easiest)\s+(?:to\s+|way\s+to\s+reach\s+me\s+is\s+(?:by\s+|via\s+)?|by\s+|"
        rf"via\s+)?{_CH}\b",
        re.I,
    ),
    re.compile(rf"\bonly\s+(?:by\s+|via\s+|on\s+|through\s+)?{_CH}\b|\b{_CH}\s+only\b", re.I),
    re.compile(rf"\b{_CH}\s+(?:rather than|instead of|over|not)\s+(?:a\s+)?(?:{_CH})", re.I),
    re.compile(rf"\bi'd rather you\s+{_CH}\s+me\b", re.I),
    re.compile(r"\b(?:by|via)\s+" + _CH + r"\s+(?:please|thanks|if possible)\b", re.I),
    re.compile(rf"\b{_CH}\s+(?:from now on|in future|going forward)\b", re.I),
    re.compile(rf"(?:^|[,;.!]\s*|\bjust\s+|\bplease\s+|\bpls\s+)use\s+(?:the\s+)?{_CH}\b", re.I),
    re.compile(rf"\b(?:please|pls|plz)\s+{_CH}(?:\s+me)?,?\s+(?:don'?t|not|never|no)\b", re.I),
    re.compile(
        rf"(?:^|[,;.!]\s*|\bplease\s+|\bjust\s+)(?:please\s+)?{_CH}\s+me\b"
        r"(?=\s*(?:[,;.!]|$|instead|rather|only|please|from now on|in future|going forward|"
        r"next time|if you need|if anything|when|with any))",
        re.I,
    ),
]
_REFUSES = [
    re.compile(
        r"\b(?:please\s+|pls\s+)?(?:don'?t|do not|never)\s+(call|phone|ring|email|e-mail|text|"
        r"sms|message|whatsapp)\s+me\b(?!\s+(?:today|tonight|this|until|till|before|after|now|"
        r"at \d|during|in the|on|between)\b)",
        re.I,
    ),
    re.compile(
        r"(?:^|[,;.!]\s*|\band\s+|\bbut\s+|\bplease\s+|\bpls\s+|\bjust\s+)(?:please\s+)?"
        r"(?:never|don'?t|do not)\s+"
        r"(call|phone|ring|email|e-mail|text)\b(?!\s+(?:back|you|them|us|him|her|today|tonight|"
        r"this|until|till|before|after|at \d|during|in the|on|between|me\s+(?:today|tonight|"
        r"this|until|till|before|after|now|at \d|during|in the|on|between))\b)",
        re.I,
    ),
    re.compile(
        r"\bi\s+(?:never|don'?t|do not|rarely|can'?t|cannot|won'?t)\s+(?:pick up|answer|take)\s+"
        r"(?:the\s+|my\s+|any\s+)?(phone|calls)\b",
        re.I,
    ),
    re.compile(r"\bno\s+(?:more\s+)?(?:phone\s+)?(calls|emails|texts|phone calls)\b", re.I),
    re.compile(r"\bnot\s+(?:by|via|over\s+the)\s+(phone|email|text|sms)\b", re.I),
]
_OBJECT_AFTER = re.compile(
    r"\s+(?:the|a|an|my|your|it|them|this|that|those|these|back|over|some|any|details|"
    r"information|info|confirmation|receipt|invoice|link|copy|tracking|when|if|about)\b",
    re.I,
)


def _channel(word: str) -> str:
    w = word.lower().replace("e-mail", "email")
    return CHANNEL_WORDS.get(w, CHANNEL_WORDS.get(w.rstrip("s"), w))


_SAID_AS = {"sms": "SMS", "whatsapp": "WhatsApp", "telegram": "Telegram"}
_REFUSED_AS = {
    "phone": "phone calls",
    "email": "emails",
    "text message": "text messages",
    "WhatsApp": "WhatsApp messages",
    "Telegram": "Telegram messages",
    "post": "post",
}


def _said(word: str) -> str:
    """The channel in the customer's word where it is a name ('SMS'), else the usual one."""
    return _SAID_AS.get(word.lower(), _channel(word))


def channels(s: str) -> list[Proposal]:
    """A preferred channel and channels refused, in their common forms."""
    out: list[Proposal] = []
    refused: set[str] = set()
    for rx in _REFUSES:
        for m in rx.finditer(s):
            ch = _channel(m.groups()[-1])
            if ch not in refused and ch in CHANNEL_WORDS.values():
                refused.add(ch)
                out.append(
                    Proposal(
                        "preference",
                        f"Does not want {_REFUSED_AS.get(ch, ch)}",
                        [s],
                        key=f"preference.no_{ch.replace(' ', '_')}",
                    )
                )
    for rx in _PREFERS:
        p = rx.search(s)
        if not p:
            continue
        word = next(g for g in p.groups() if g)
        ch = _channel(word)
        if ch in refused or ch not in CHANNEL_WORDS.values():
            continue
        if _NEG.search(_clause_of(s, p.start()) + p.group(0)[:6]) and "rather" not in p.group(0):
            continue
        out.insert(
            0,
            Proposal(
                "preference",
                f"Prefers to be contacted by {_said(word)}",
                [s],
                key="preference.contact_channel",
            ),
        )
        break
    return out


_WHEN = (
    r"(mornings?|evenings?|afternoons?|weekends?|weekdays?|lunchtimes?|after (?:\d{1,2}|work|"
    r"school|noon|lunch)(?:\s?(?:am|pm))?|before (?:\d{1,2}|noon|work)(?:\s?(?:am|pm))?)"
)
_CONTACT_TIME = re.compile(
    r"\b(?:best time to (?:reach|call|contact|ring|get) me is\s+|(?:call|reach|contact|ring|phone)"
    r" me (?:only )?(?:in the |on |at )?|you can (?:call|reach|ring) me,? but only (?:in the |on )?"
    r"|only (?:call )?(?:in the |on )|(?:calls?|phoning) (?:are|is) (?:better|best|fine) "
    rf"(?:in the |on |at )?){_WHEN}"
    rf"|\b(?:in the |on )?{_WHEN},? (?:are|is) (?:better|best) for (?:calls|me)\b",
    re.I,
)
_CONTACT_LINE = re.compile(
    r"\b(?:please\s+)?(?:use|call|ring|try|text)\s+(?:me\s+on\s+)?my\s+(mobile|cell|landline|"
    r"work (?:phone|number|email)|personal (?:email|number)|home (?:phone|number))\b",
    re.I,
)


def _when(phrase: str) -> str:
    w = phrase.lower()
    if w.startswith(("morning", "evening", "afternoon")):
        return f"in the {w}"
    if w.startswith(("weekend", "lunch")):
        return f"at {w}"
    if w.startswith("weekday"):
        return f"on {w}"
    return w


_NOT_BEFORE = re.compile(
    r"\b(?:please\s+)?(?:don'?t|do not|never|no)\s+(call|ring|phone|calls)(?:\s+me)?\s+"
    r"(before|after|until|till)\s+(noon|midday|lunch(?:time)?|work|\d{1,2}(?:[:.]\d{2})?\s?"
    r"(?:am|pm)?)",
    re.I,
)


def contact_time(s: str) -> list[Proposal]:
    """When to reach them ('mornings, before 9'; 'only in the evenings'; 'don't ring before
    noon'), and which line."""
    out = []
    late = _NOT_BEFORE.search(s)
    if late:
        out.append(
            Proposal(
                "preference",
                f"Prefers not to be called {late.group(2).lower()} {late.group(3).lower()}",
                [s],
                key="preference.contact_time",
            )
        )
        return out
    m = _CONTACT_TIME.search(s)
    when = next((g for g in m.groups() if g), None) if m else None
    if when:
        out.append(
            Proposal(
                "preference",
                f"Prefers to be contacted {_when(when)}",
                [s],
                key="preference.contact_time",
            )
        )
    line = _CONTACT_LINE.search(s)
    if line:
        out.append(
            Proposal(
                "preference",
                f"Prefers to be contacted on their {line.group(1).lower()}",
                [s],
                key="preference.contact_line",
            )
        )
    return out


_CALL_AGAIN = re.compile(
    r"\byou\s+(?:can|may)\s+(?:call|ring|phone)\s+me\s+(?:again|now|any ?time|whenever)\b", re.I
)


def call_again(s: str) -> list[Proposal]:
    """'You can call me again now': a refusal of calls lifted (it supersedes it)."""
    if _CALL_AGAIN.search(s):
        return [Proposal("preference", "Happy to be called again", [s], key="preference.no_phone")]
    return []


def is_request(s: str) -> bool:
    """A one-off request ('I'd like to change…', 'can you…', 'please cancel…'): a task for
    the team, or nothing to remember; never a preference."""
    return bool(
        re.search(
            r"\b(?:i'd like to|i would like to|i'd love to|i want to|i wanna|i wish to|"
            r"can you|could you|would you|can i|could i|may i|i need you to|"
            r"please\s+(?:change|cancel|update|resend|send|refund|check|add|remove|delete|book|"
            r"reschedule|return|replace|fix|sort|confirm|arrange|process|correct|amend|stop))\b",
            s,
            re.I,
        )
    )


# -- family -------------------------------------------------------------------------------------
_NAME_WORD = r"([A-ZÀ-ÝĀ-Ž][^\W\d_]+(?:-[A-ZÀ-ÝĀ-Ž][^\W\d_]+)?)"
_FAMILY_NAMED = re.compile(
    rf"\b(?i:my)\s+(?:(?i:little|youngest|oldest|eldest|older|younger|baby|twin)\s+)?{_REL}"
    r"(?:'s name is|\s+is called|\s+is named|\s+called|\s+named|,)?\s+"
    rf"{_NAME_WORD}(?:\s*\(?(?i:is|who is|who's|,)?\s*(\d{{1,2}})\)?)?",
)
_FAMILY_COUNT = re.compile(
    r"\bi(?:'ve| have)?\s+(?:got\s+)?(a|an|one|two|three|four|five|six|\d)\s+"
    r"(?:little\s+|young\s+|grown-up\s+|teenage\s+)?(kids|children|sons|daughters|son|daughter|"
    r"grandchildren|grandkids|boys|girls|twins)\b",
    re.I,
)
_FAMILY_STATUS = re.compile(
    r"\bi(?:'m| am)\s+(?:a\s+)?(married|divorced|widowed|engaged|pregnant|single (?:mum|mom|dad|"
    r"parent|father|mother)|(?:mum|mom|dad|father|mother|parent|grandparent|grandmother|"
    r"grandfather) of (?:one|two|three|four|\d))\b",
    re.I,
)
_NOT_NAMES = {"And", "But", "So", "The", "He", "She", "They", "Is", "Has", "Was", "Will", "Who"}


def family(s: str) -> list[Proposal]:
    out = []
    for named in _FAMILY_NAMED.finditer(s):
        rel, name, age = RELATIONS[named.group(1).lower()], named.group(2), named.group(3)
        if name in _NOT_NAMES:
            continue
        text = f"Has a {rel}, {name}" + (f" ({age})" if age else "")
        rest = s[named.end() : named.end() + 80]
        allergy = re.match(
            r"\s+(?:has|with|who has)\s+(?:a\s+|an\s+)?(?:\w+\s+)?([\w -]{2,25}?)\s+allergy"
            r"|\s+is\s+(?:\w+ly\s+)?allergic\s+to\s+([\w -]{2,30}?)(?=[,.;!]|$|\s+and\b)",
            rest,
            re.I,
        )
        if allergy:
            text += f", allergic to {(allergy.group(1) or allergy.group(2)).strip()}"
        out.append(Proposal("fact", text, [s], key=f"family.{rel}.{slug(name)}", entities=[name]))
    if out:
        return out
    listed = re.search(
        r"\b(?:i|we)(?:'ve| have)?\s+(?:got\s+)?(?:a|an|one|two|three|four|\d)\s+"
        r"(?:little\s+|young\s+)?(boys|girls|sons|daughters|kids|children)\s*[,:(]\s*"
        + _NAME_WORD
        + r"(?:\s*\((\d{1,2})\))?(?:,|\s+and|\s*&)\s+"
        + _NAME_WORD
        + r"(?:\s*\((\d{1,2})\))?",
        s,
        re.I,
    )
    if listed:
        rel = {"boys": "son", "sons": "son", "girls": "daughter", "daughters": "daughter"}.get(
            listed.group(1).lower(), "child"
        )
        for name, age in ((listed.group(2), listed.group(3)), (listed.group(4), listed.group(5))):
            text = f"Has a {rel}, {name}" + (f" ({age})" if age else "")
            out.append(Proposal("fact", text, [s], key=f"family.{rel}.{slug(name)}"))
        return out
    lives = re.search(
        rf"\bmy\s+{_REL}\s+(?:now\s+)?(?:lives|is living|has moved in|moved in)\s+with\s+"
        r"(?:us|me)\b",
        s,
        re.I,
    )
    if lives:
        said, rel = lives.group(1).lower(), RELATIONS[lives.group(1).lower()]
        return [Proposal("fact", f"Their {said} lives with them", [s], key=f"family.{rel}.home")]
    baby = re.search(
        r"\b(?:we're|we are|i'm|i am)\s+(?:expecting|having)\s+(?:a|our|my)\s+"
        r"(?:first\s+|second\s+|third\s+)?(baby|child|little one)\b",
        s,
        re.I,
    )
    if baby:
        phrase = dates.find_phrase(s) or (_MONTH_PHRASE.search(s) or [None])[0]
        text = "Is expecting a baby" + (f" ({phrase})" if phrase else "")
        return [Proposal("event", text, [s], key="family.baby", occurs_phrase=phrase)]
    m = _FAMILY_COUNT.search(s)
    if m and not _NEG.search(_clause_of(s, m.start())):
        n, what = m.group(1).lower(), m.group(2).lower()
        count = _COUNT.get(n, n)
        return [Proposal("fact", f"Has {count} {what}", [s], key=f"family.{slug(what)}")]
    m = _FAMILY_STATUS.search(s)
    if m and not _NEG.search(_clause_of(s, m.start()) + m.group(0)):
        return [Proposal("fact", f"Is {m.group(1).lower()}", [s], key="family.status")]
    return []


# -- work ---------------------------------------------------------------------------------------
_ORG = r"((?:the\s+|a\s+|an\s+)?[A-Za-z][\w&.'-]*(?:\s+(?:[A-Z][\w&.'-]*|&|of|und|and)){0,4})"
_WORK = [
    (
        re.compile(
            r"\bi(?:'ve| have)?\s+(?:now\s+|still\s+|currently\s+|actually\s+)?"
            r"(?:work|working|am working|'m working|been working)\s+(?:at|for|in)\s+" + _ORG,
            re.I,
        ),
        "Works at {}",
    ),
    (
        re.compile(
            r"\bi(?:'ve| have)?\s+(?:just\s+|recently\s+)?(?:started|got|taken|accepted|landed)\s+"
            r"(?:a\s+)?(?:new\s+)?(?:job|position|role)\s+(?:at|with)\s+"
            + _ORG
            + r"|\bi(?:'ve| have)?\s+(?:just\s+)?(?:joined|started at)\s+"
            + _ORG,
            re.I,
        ),
        "Works at {}",
    ),
    (
        re.compile(r"\bi\s+(?:teach|lecture)\s+(?:at|in)\s+" + _ORG, re.I),
        "Teaches at {}",
    ),
    (
        re.compile(
            r"\b(?i:i'm|i am)\s+(?:now\s+)?(?:at|with)\s+([A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})"
            r"\s+now\b"
        ),
        "Works at {}",
    ),
    (
        re.compile(r"\bi\s+(?:run|own|manage)\s+(?:a|an|my own|the)\s+([\w' -]{3,40})", re.I),
        "Runs a {}",
    ),
]
_JOB_RX = re.compile(
    rf"\bi(?:'m| am)\s+(?:now\s+|currently\s+|actually\s+|still\s+)?(?:a|an)\s+"
    rf"((?:[a-z-]+\s+){{0,2}}?{_JOB})\b(?:\s+(?:at|for|in)\s+{_ORG})?"
    rf"|\bi\s+work\s+as\s+(?:a|an)\s+([\w -]{{3,40}}?)(?:\s+(?:at|for|in)\s+{_ORG})?(?=[,.!;]|$)",
    re.I,
)
_STATUS_RX = re.compile(
    r"\bi(?:'m| am)\s+(?:now\s+)?(retired|self-employed|freelance|a freelancer|unemployed|"
    r"between jobs|a student|on parental leave|on maternity leave)\b"
    r"|\bi(?:'ve| have)?\s+(?:just\s+|recently\s+|finally\s+)?(retired)\b",
    re.I,
)
_LEFT = re.compile(
    r"\bi\s+(?:no longer|don't|do not)\s+work\s+(?:at|for)\s+"
    + _ORG
    + r"(?!\s+any)|\bi\s+(?:left|quit)\s+(?:my job at\s+)?"
    + _ORG,
    re.I,
)
_NOT_ORG = {"home", "the moment", "night", "nights", "weekends", "the weekend", "it", "the same"}


def _org(raw: str | None) -> str | None:
    if not raw:
        return None
    words = raw.strip(" .,!").split()
    while words and words[-1].lower() in {"now", "again", "too", "and", "since", "as", "for"}:
        words.pop()
    org = " ".join(words)
    if (
        not org
        or org.lower() in _NOT_ORG
        or org.split()[0].lower() in _NOT_PLACE - {"a", "an", "the"}
    ):
        return None
    return org


def work(s: str) -> list[Proposal]:
    found = _work(s)
    if found:
        return found
    m = _LEFT.search(s)
    if m:
        org = _org(m.group(1) or m.group(2))
        if org:
            return [Proposal("fact", f"No longer works at {org}", [s], key="role")]
    return []


def _work(s: str) -> list[Proposal]:
    m = _JOB_RX.search(s)
    if m:
        g = m.groups()
        job = (g[0] or g[3] or "").lower()
        org = _org(g[2] or g[4])
        if job and not _NEG.search(_clause_of(s, m.start()) + m.group(0)[:12]):
            article = "an" if job[0] in "aeiou" else "a"
            text = f"Works as {article} {job}" + (f" at {org}" if org else "")
            return [Proposal("fact", text, [s], key="role", entities=[org] if org else [])]
    for rx, template in _WORK:
        m = rx.search(s)
        if not m:
            continue
        org = _org(m.group(1))
        if org and not _NEG.search(_clause_of(s, m.start()) + m.group(0)[:12]):
            return [Proposal("fact", template.format(org), [s], key="role", entities=[org])]
    m = _STATUS_RX.search(s)
    if m and not _NEG.search(_clause_of(s, m.start())):
        status = (m.group(1) or m.group(2)).lower()
        return [Proposal("fact", f"Is {status}", [s], key="role")]
    return []


# -- dietary and accessibility needs ------------------------------------------------------------
_ALLERGY = re.compile(
    r"\b(?:i'm|i am|i've been|i have been|i'm also|i am also)\s+(?:\w+ly\s+)?(?:(not)\s+)?"
    r"allergic\s+to\s+([\w' -]{3,40}?)(?=[,.;!]|\s+(?:and|but|so|which|too|as well)\b|$)"
    r"|\bi\s+(?:have|'ve got|have got)\s+(?:a|an)\s+(?:\w+\s+)?([\w' -]{3,25}?)\s+allergy\b"
    r"|\b(?:i\s+)?(?:can't|cannot|can not)\s+(?:eat|have|tolerate)\s+(?!any\b)([\w' -]{3,30}?)"
    r"(?=[,.;!]|\s+(?:and|but|so|because)\b|$)",
    re.I,
)
_DIET = re.compile(
    rf"\bi(?:'m| am)\s+(?:now\s+|strictly\s+|also\s+|fully\s+)?(?:(not|no longer)\s+)?(?:a\s+)?"
    rf"({DIETS})(?:\s+(?:now|any ?more))?\b"
    rf"|\b(?:i|we)\s+(?:only\s+|always\s+)?eat\s+(halal|kosher)\b"
    rf"|\bi\s+(?:went|have gone|'ve gone|turned)\s+({DIETS})\b"
    rf"|\b(?:we|my \w+ and i)\s+(?:are|'re)\s+(?:both\s+|all\s+)?({DIETS})\b"
    rf"|\b(?:put|mark|list|have)\s+me\s+(?:down\s+)?as\s+(?:a\s+)?({DIETS})\b",
    re.I,
)
_NO_FOOD = re.compile(
    r"\bi\s+(?:don't|do not|never)\s+(?:eat|drink)\s+(meat|pork|beef|fish|seafood|dairy|eggs|"
    r"gluten|nuts|alcohol|shellfish|chicken|wheat|sugar)\b",
    re.I,
)
_ACCESS = [
    (
        re.compile(
            r"\bi(?:'m| am)?\s+(?:use|in|a)\s+(?:a\s+)?wheelchair(?:\s+user)?\b",
            re.I,
        ),
        "Uses a wheelchair",
        "wheelchair",
    ),
    (
        re.compile(
            r"\bi(?:'m| am)\s+(?:partially\s+|profoundly\s+|totally\s+)?(deaf|blind|"
            r"hard of hearing|partially sighted|visually impaired|hearing[- ]impaired|"
            r"registered blind|sight[- ]impaired)\b",
            re.I,
        ),
        "Is {}",
        None,
    ),
    (
        re.compile(
            r"\bi\s+(?:need|require|rely on|use)\s+(step[- ]free access|large print|a ramp|a lift|"
            r"an elevator|wheelchair access|subtitles|captions|a sign language interpreter|"
            r"sign language|braille|a hearing loop|a walking frame|a walker|crutches|"
            r"a mobility scooter|a guide dog|an accessible (?:room|entrance|toilet))\b",
            re.I,
        ),
        "Needs {}",
        None,
    ),
    (
        re.compile(r"\b(?:in|with)\s+(large print|braille|easy read)\b", re.I),
        "Needs {}",
        None,
    ),
    (
        re.compile(
            r"\bi\s+(?:have|'ve got)\s+(?:a\s+)?(hearing|visual|sight|mobility)\s+"
            r"(?:impairment|problems|issues|loss|difficulties)\b",
            re.I,
        ),
        "Has a {} impairment",
        None,
    ),
]


def needs(s: str) -> list[Proposal]:
    out: list[Proposal] = []
    for m in _ALLERGY.finditer(s):
        what = (m.group(2) or m.group(3) or m.group(4) or "").strip()
        if not what or re.match(r"(?:anything|it|that|this|them|much|well)\b", what, re.I):
            continue
        key = f"dietary.allergy.{slug(what)}"
        if m.group(1) or _NEG.search(_clause_of(s, m.start())):
            out.append(Proposal("fact", f"Is not allergic to {what}", [s], key=key))
        elif m.group(4):
            out.append(Proposal("fact", f"Cannot eat {what}", [s], key=key))
        else:
            out.append(Proposal("fact", f"Is allergic to {what}", [s], key=key))
    d = _DIET.search(s)
    if d:
        diet = next(g for g in d.groups()[1:] if g).lower()
        diet = diet.replace("celiac", "coeliac")
        if d.group(1) or re.search(r"\bnot\b.{0,15}\bany ?more\b", d.group(0), re.I):
            out.append(Proposal("fact", f"Is no longer {diet}", [s], key="dietary"))
        elif d.group(3):
            out.append(Proposal("fact", f"Eats {diet}", [s], key="dietary"))
        else:
            out.append(Proposal("fact", f"Is {diet}", [s], key="dietary"))
    for f in _NO_FOOD.finditer(s):
        food = f.group(1).lower()
        out.append(Proposal("fact", f"Does not eat {food}", [s], key=f"dietary.no_{slug(food)}"))
    for rx, template, slot in _ACCESS:
        a = rx.search(s)
        if a and not _NEG.search(_clause_of(s, a.start()) + a.group(0)[:8]):
            what = a.group(1).lower() if a.groups() and a.group(1) else ""
            out.append(
                Proposal(
                    "fact",
                    template.format(what),
                    [s],
                    key=f"accessibility.{slot or slug(what)}",
                )
            )
    return out


# -- language -----------------------------------------------------------------------------------
_REPLY_IN = re.compile(
    r"\b(?:please\s+)?(?:reply|answer|write|respond|talk|speak|communicate)\s+(?:to\s+me\s+)?"
    rf"(?:only\s+)?in\s+{_LANG}\b"
    r"|\b(?:i(?:'d| would)?\s+prefer|i'd rather)\s+(?:to\s+(?:speak|write|talk)\s+)?"
    rf"(?:in\s+)?{_LANG}\b"
    rf"|\b{_LANG}\s+(?:please|if possible|is (?:better|easier) for me)\b",
    re.I,
)
_SPEAKS = re.compile(rf"\bi\s+(?:speak|only speak|mostly speak)\s+{_LANG}\b", re.I)
_NATIVE = re.compile(
    rf"\b(?:my\s+)?(?:native|first|mother)\s+(?:language|tongue)\s+is\s+{_LANG}\b", re.I
)


def language(s: str) -> list[Proposal]:
    m = _REPLY_IN.search(s)
    if m:
        lang = next(g for g in m.groups() if g).capitalize()
        return [
            Proposal(
                "preference",
                f"Prefers to be addressed in {lang}",
                [s],
                key="preference.language",
            )
        ]
    m = _SPEAKS.search(s) or _NATIVE.search(s)
    if m and not _NEG.search(_clause_of(s, m.start()) + m.group(0)[:10]):
        lang = m.group(1).capitalize()
        return [Proposal("fact", f"Speaks {lang}", [s], key=f"language.{lang.lower()}")]
    return []


# -- names --------------------------------------------------------------------------------------
_SPELLED = re.compile(
    r"\b(?:my name is|it's|it is|name's)\s+(?:spelled|spelt|written)\s+(?:with\s+\w+,?\s+)?"
    rf"{_NAME_WORD}(?:\s+{_NAME_WORD})?"
    rf"|\b(?:my name is|it's|i'm|i am)\s+{_NAME_WORD}(?:\s+{_NAME_WORD})?,\s+not\s+[A-Z]",
)


_ADDRESS_AS = re.compile(
    r"\b(?:please\s+)?(?:address|call|refer to)\s+me\s+as\s+((?:(?:Dr|Mr|Mrs|Ms|Mx|Prof|Professor)"
    rf"\.?\s+)?{_NAME_WORD}(?:\s+{_NAME_WORD})?)"
)
_MY_NAME = re.compile(rf"\b(?i:my name's|my name is|name's)\s+{_NAME_WORD}(?:\s+{_NAME_WORD})?")


def address_as(s: str) -> list[Proposal]:
    m = _ADDRESS_AS.search(s)
    if not m:
        return []
    return [
        Proposal(
            "preference",
            f"Prefers to be addressed as {m.group(1)}",
            [s],
            key="preference.address_as",
        )
    ]


def spelled_name(s: str) -> list[Proposal]:
    m = _SPELLED.search(s)
    if not m:
        plain = _MY_NAME.search(s)
        if plain:
            name = " ".join(g for g in plain.groups() if g)
            return [Proposal("fact", f"Is called {name}", [s], key="name", entities=[name])]
        return []
    parts = [g for g in m.groups() if g]
    name = " ".join(parts[:2])
    return [Proposal("fact", f"Is called {name}", [s], key="name", entities=[name])]


# -- a request the team has promised to act on ---------------------------------------------------
_ASKED = re.compile(
    r"^(?:(?:hi|hello|hey|ok|okay|so|and|also|just this once|one more thing)[,!]?\s+)*"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?(?P<you>.+)"
    r"|please\s+(?P<please>.+)"
    r"|i(?:'d| would)\s+like\s+(?:you\s+)?to\s+(?P<like>.+)"
    r"|i\s+(?:want|need|wish)\s+to\s+(?P<want>.+)"
    r"|i\s+need\s+you\s+to\s+(?P<need>.+))$",
    re.I,
)
_PROMISE = re.compile(
    r"\b(?:i'll|i will|we'll|we will|they'll|they will|someone will|somebody will|"
    r"(?:a|the|our)\s+\w+\s+will|will\s+(?:be\s+)?(?:send|sent|call|ring|email|post|collect|"
    r"arrange|get back|contact|follow up|pick)|i've (?:asked|passed|forwarded|arranged|"
    r"escalated)|i have (?:asked|passed|forwarded|arranged|escalated))\b",
    re.I,
)
_DONE = re.compile(
    r"\b(?:done|it's cancelled|has been cancelled|is cancelled|sent!|already sent|i've added|"
    r"i've noted|i've set|i've changed|i've updated|is now|have now|i've just sent|all set)\b",
    re.I,
)


# the assistant could not answer and passed the question on: the teach queue holds it
_HANDOFF = re.compile(
    r"\b(?:don't know|do not know|couldn't|could not|can't|cannot|passed (?:it|this|that) "
    r"(?:on|to)|not (?:able|sure))\b",
    re.I,
)


def _them(text: str) -> str:
    swaps = [(r"\bmy\b", "their"), (r"\bme\b", "them"), (r"\bmine\b", "theirs"), (r"\bi\b", "they")]
    for rx, to in swaps:
        text = re.sub(rx, to, text, flags=re.I)
    return text


def promised_task(request: str, answer: str) -> Proposal | None:
    """A customer's request ('Can you resend the invoice?') the assistant promised to act on
    later ('accounts will send it within a day'): a task, in the customer's own words. A
    request done on the spot ('Done — it's cancelled') is nothing to remember."""
    if not _PROMISE.search(answer) or _DONE.search(answer) or _HANDOFF.search(answer):
        return None
    if instructions.scan(request):  # an instruction to the assistant is never a task
        return None
    m = _ASKED.match(request.strip().rstrip("?.! "))
    if not m:
        return None
    what = next(v for v in m.groupdict().values() if v)
    what = _them(re.split(r",\s*(?:they're|it's|as|because|since|so)\b", what)[0]).strip()
    if len(what.split()) < 2:
        return None
    lead = (
        "Asked the team to"
        if (m.group("you") or m.group("please") or m.group("need"))
        else "Wants to"
    )
    return Proposal("task", f"{lead} {what}", [request])
