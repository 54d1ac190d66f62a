"""Notebook rules that need no storage: normalising, and building the prompt block."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from memwise import errors
from memwise._domain.notebook import Entry
from memwise._policies import rulebook
from memwise._policies.limits import NotebookLimits
from memwise._safety import secrets


@dataclass(frozen=True)
class Block:
    """The notebook as the model sees it."""

    text: str
    entries: list[Entry]  # oldest → newest
    left_out: int

    @property
    def chars(self) -> int:
        return sum(len(e.text) for e in self.entries)


def normalize(text: str) -> str:
    """Case, spacing and punctuation folded away: how duplicates are recognised."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    folded = re.sub(r"[^\w\s]", " ", folded)
    return " ".join(folded.split())


def check_entry(text: str, limits: NotebookLimits) -> str:
    """A rule fit to keep: non-empty, within the length limit, and free of secrets."""
    if not isinstance(text, str) or not text.strip():
        raise errors.Invalid("a rule needs some text", code="empty_rule")
    cleaned = " ".join(text.split())
    if len(cleaned) > limits.max_entry_chars:
        raise errors.Invalid(
            f"a rule is limited to {limits.max_entry_chars} characters "
            f"(this one has {len(cleaned)}); nothing was saved",
            code="too_long",
            limit=limits.max_entry_chars,
            length=len(cleaned),
        )
    if not normalize(cleaned):
        raise errors.Invalid("a rule needs some words", code="empty_rule")
    secrets.check(cleaned)
    return cleaned


# -- facts about one customer ----------------------------------------------------------------
# A working rule speaks of customers in general; a line that names one person and says
# something of them ("Ann is allergic to peanuts", "Ms Lee prefers email", "Bob's refund went
# through") is a fact about a customer, whoever they are.
_TITLE = r"(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Herr|Frau|Sir|Madam)\.?"
_PERSON_VERB = (
    r"(?:is|was|are|has|had|'s|prefers|preferred|likes|liked|loves|hates|dislikes|lives|lived|"
    r"moved|moves|works|worked|wants|wanted|needs|owes|owed|paid|pays|ordered|bought|returned|"
    r"cancelled|canceled|speaks|uses|used|can't|cannot|can|doesn't|does|won't|will|got|gets|"
    r"asked|complained|called|said|told|mentioned|booked|eats|drinks|drives|goes|went|came|"
    r"just|never|always|still|already|also|picks|collects|visits|calls|comes|shops|orders|"
    r"books|phones|emails|texts|rings|prefer|like|want|need|live)"
)
_NOT_A_NAME = frozenset(
    [
        "I",
        "We",
        "You",
        "They",
        "He",
        "She",
        "It",
        "This",
        "That",
        "These",
        "Those",
        "There",
        "Everyone",
        "Everybody",
        "Anyone",
        "Anybody",
        "Nobody",
        "Someone",
        "Customer",
        "Customers",
        "Client",
        "Clients",
        "Staff",
        "Support",
        "Team",
        "Shipping",
        "Delivery",
        "Returns",
        "Refunds",
        "Billing",
        "Sales",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
        "Today",
        "Tomorrow",
        "Always",
        "Never",
        "Please",
        "When",
        "If",
        "Whoever",
        "The",
        "A",
        "An",
        "My",
        "Our",
        "Your",
        "Each",
        "Every",
        "Any",
        "No",
        "All",
        "Most",
        "Some",
        "VIP",
        "VIPs",
        "Premium",
        "Gold",
        "Silver",
        "Trade",
        "Wholesale",
        "New",
        "Returning",
        "Management",
        "Managers",
        "Manager",
        "Accounting",
        "Finance",
        "Legal",
        "Marketing",
        "Office",
        "Warehouse",
        "Agents",
        "Operators",
    ]
)
_NAME = r"[A-Z][a-z]+(?:[-'][A-Z][a-z]+)?"
_ACT_ON = (
    r"(?:greet|call|ring|phone|email|e-mail|text|ask|tell|remind|send|give|offer|thank|address|"
    r"treat|help|contact|warn|invite|serve|charge|refund|upgrade|prioriti[sz]e|trust)"
)
_TITLED = re.compile(rf"\b{_TITLE}\s+(?:{_NAME}\b|[A-Z]\.)")
_POSSESSIVE = re.compile(
    rf"\b({_NAME})['’]s\s+(?:\w+\s+)?(?:parcel|package|order|refund|account|invoice|payment|"
    r"delivery|shipment|subscription|card|balance|booking|appointment|address|email|phone|number|"
    r"husband|wife|partner|son|daughter|kids?|children|mother|father|mum|dad|dog|cat|birthday|"
    r"allerg\w*|diet|car|bike|flat|house|job|boss|order)\b"
)
# Without the contact store, only verbs said of people ("Carla prefers email"), never "is".
_PERSONAL_VERB = (
    r"(?:prefers|likes|loves|hates|dislikes|lives|lived|moved|works|worked|owes|owed|speaks|"
    r"eats|drinks|complained|is\s+allergic|is\s+vegan|is\s+vegetarian|is\s+pregnant|"
    r"is\s+married|is\s+divorced|has\s+\d+\s+kids|can't\s+eat|doesn't\s+eat)"
)
_NAMED_STATEMENT = re.compile(
    rf"(?:^|[.;!?]\s+)({_NAME})(?:\s+{_NAME})?\s+(?:also\s+|still\s+|now\s+)?{_PERSONAL_VERB}\b"
)
_LISTING = re.compile(rf"^\s*({_NAME}),\s*{_NAME}\s*:")  # "Lee, Ann: vegan, lives in Kiel"
# what a person is, said right after a name ("Ann vegan", "Ann - vegan") or before it ("Vegan
# customer: Ann")
_ATTRIBUTE = (
    r"(?:vegan|vegetarian|allergic|allergy|diabetic|pregnant|deaf|blind|coeliac|celiac|"
    r"halal|kosher|gluten|lactose|wheelchair|disabled|elderly|widow(?:er)?|divorced|married|"
    r"vip|difficult|rude|angry|lovely|regular)"
)
_ATTRIBUTE_FIRST = re.compile(rf"\b{_ATTRIBUTE}(?:\s+\w+)?\s*:\s*{_NAME}\b", re.I)
# someone described instead of named: "The guy from Kiel with the red car is allergic …"
_DESCRIBED = re.compile(
    r"\b(?:the|that|this)\s+(?:guy|man|woman|lady|gentleman|customer|client|caller|chap|girl|"
    r"boy|couple|family|gent|bloke|person)\s+(?:from|with|in|at|who|on|that)\b[^.;]{0,80}?\b"
    r"(?:is|are|was|has|prefers|likes|lives|owes|wants|needs|hates|can't|cannot|doesn't)\b",
    re.I,
)


def plain(text: str) -> str:
    """The text as a reader sees it (``rulebook.plain``: compatibility forms, invisible
    characters and lookalike letters folded), with names run together by _ or / apart."""
    return re.sub(r"(?<=\w)[_/](?=\w)", " ", rulebook.plain(text))


_OBFUSCATED_EMAIL = re.compile(
    r"\b[\w.+-]+\s*(?:\s@\s|\s@|@\s|\(at\)|\[at\]|\{at\}|\sat\s)\s*[\w-]+\s*"
    r"(?:\(dot\)|\[dot\]|\[\.\]|\(\.\)|\.|\sdot\s)\s*"
    r"[a-z]{2,}\b",
    re.I,
)


# a capitalised name with what a person is ("Carla vegan"), for people who are not contacts
# yet (an action on a name is refused only for a contact: "Call Marco at the warehouse" may
# name a colleague)
_NAME_ATTRIBUTE = re.compile(rf"\b({_NAME})\s+(?:is\s+)?{_ATTRIBUTE}\b")


def names_a_person(text: str, names: Sequence[str] = ()) -> str | None:
    """Why this line reads as a fact about one person (or ``None``): a contact's name or a
    part of it said as a name ("Ann is…", "Ms Lee…", "AnnLee…"), a title and a name, a name
    with a possessive of their things or people, or an email address written around."""
    text = plain(text)
    if _OBFUSCATED_EMAIL.search(text):
        return "an email address"
    if _DESCRIBED.search(text) or _ATTRIBUTE_FIRST.search(text):
        return "a person described"
    squashed = re.sub(r"[^\w]", "", text).casefold()
    for name in names:
        parts = [p for p in re.findall(r"[^\W\d_]+", name) if len(p) >= 2]
        if len(parts) >= 2 and "".join(parts).casefold() in squashed:
            return "a contact's name"
        for part in parts:
            for m in re.finditer(rf"\b{re.escape(part)}\b", text, re.I):
                after = text[m.end() :].replace("-", " ")
                said_of = re.match(
                    rf"(?:\s+(?:{_NAME}|[A-Z]\.))?"  # a surname or an initial
                    r"(?:\s*\([^)]{1,30}\))?"  # "(Kiel)"
                    rf"(?:\s+(?:from|in|at|of)\s+{_NAME})?"  # "from Kiel"
                    r"(?:\s+(?:really|definitely|usually|always|never|also|still|now|just|"
                    r"only|often|mostly|\w+ly))?"
                    rf"(?:['’]s\b|s?\s+(?:family|household|couple|kids)\b|\s*[,:–-]|"
                    rf"\s+{_PERSON_VERB}\b|\s+{_ATTRIBUTE}\b)",
                    after,
                )
                if said_of:  # said of them, in any case ("ann is allergic", "ANN vegan")
                    return "a contact's name"
                if not m.group()[:1].isupper() or m.group() in _NOT_A_NAME:
                    continue
                # "Always greet Ann warmly", "Call Ann back": an action on that person
                if re.search(rf"\b{_ACT_ON}\s+$", text[: m.start()], re.I):
                    return "a contact's name"
            if re.search(
                rf"\bthe\s+{re.escape(part)}(?:s|es)\b|\b{re.escape(part)}\s+(?:family|"
                r"household)\b",
                text,
                re.I,
            ):
                return "a contact's name"  # "The Smiths are vegan", "Lee household …"
    if _TITLED.search(text) or _LISTING.search(text):
        return "a person's name"
    for rx in (_POSSESSIVE, _NAMED_STATEMENT, _NAME_ATTRIBUTE):
        for m in rx.finditer(text):
            if m.group(1) not in _NOT_A_NAME:
                return "a person's name"
    return None


# One transaction's state, without a number to give it away ("The parcel arrived yesterday",
# "Bob's account is frozen", "Ann owes us three hundred euros"): the account record's.
_ONE_TRANSACTION = re.compile(
    r"(?:^|\b(?:the|her|his|their|its|this|that|our|[A-Z][a-z]+['’]s)\s+)(?:[\w-]+\s+){0,3}?"
    r"(?:parcel|package|order|refund|payment|account|invoice|delivery|shipment|subscription|"
    r"card|transfer|booking|return|repair|replacement)"
    r"(?:\s+(?:(?:on|in|for|from|of|to)\s+(?:the\s+|a\s+)?[\w-]+(?:\s+customer)?|[\w-]+)){0,4}?\s+"
    r"(?:(?:has|have|had|was|were|is|got|finally|just|still|already|been|never|not|remains?)\s+)*"
    r"(?:arrived|went through|gone through|frozen|declined|shipped|bounced|overdue|refunded|"
    r"came back|come back|blocked|suspended|lost|late|delayed|cancell?ed|canceled|paid|unpaid|"
    r"delivered|returned|stuck|missing|closed|reopened|on hold|processed|failed|rejected|"
    r"approved|dispatched|turned up|showed up|open|renewed|reactivated|expired|received|"
    r"outstanding)\b",
    re.I,
)
_OWES = re.compile(
    r"\bow(?:es|ed|e)\s+(?:us\s+|you\s+|me\s+)?(?:[\w,.-]+\s+){0,4}?"
    r"(?:euros?|dollars?|pounds?|francs?|EUR|USD|GBP|CHF|bucks|quid)\b|\bow(?:es|ed)\s+(?:us|you)\b"
    r"|\bow(?:es|ed)\s+[$€£]?\d",
    re.I,
)


_CONDITION = re.compile(
    r"\b(?:if|when|whenever|whether|once|unless|until|after|before|in case|as soon as|check|"
    r"confirm|verify|ask|see if)\b",
    re.I,
)
# what makes a state a procedure wherever it stands: "… within 14 days", "… after three
# failed logins", "… at the end of the month", "… on public holidays"
_GENERAL = re.compile(
    r"\b(?:within|after|before|if|when|whenever|unless|until|once|always|usually|normally|"
    r"typically|automatically|by default|every|each|at the end of|on (?:public )?holidays|"
    r"on weekends|per|as a rule)\b",
    re.I,
)


def one_transaction(text: str) -> bool:
    """Whether the line states one transaction's or account's state (not a procedure)."""
    for rx in (_ONE_TRANSACTION, _OWES):
        for m in rx.finditer(text):
            before, after = text[: m.end()], text[m.end() :]
            # "If the payment failed, …", "The refund is processed within 14 days": rules
            if not _CONDITION.search(before) and not _GENERAL.search(after):
                return True
    return False


def build_block(entries: Sequence[Entry], limits: NotebookLimits) -> Block:
    """Newest entries first until the character budget is reached, then shown oldest → newest.

    ``entries`` come oldest → newest. An entry is taken while the running total of entry
    characters stays within ``limits.block_chars``; the first that does not fit stops the walk.
    """
    kept: list[Entry] = []
    used = 0
    for entry in reversed(entries):
        if used + len(entry.text) > limits.block_chars:
            break
        kept.append(entry)
        used += len(entry.text)
    kept.reverse()
    left_out = len(entries) - len(kept)
    lines = [f"- {e.text}" for e in kept]
    if left_out:
        lines.append(
            f"({left_out} older rule{'s' if left_out != 1 else ''} not shown: over the "
            f"{limits.block_chars}-character limit)"
        )
    return Block("\n".join(lines), kept, left_out)
