"""The phrase shapes of a written rule that would undo the harness.

An agent's persona and rules, and the workspace's team standards, are text an operator
writes for the model (checked in ``policies.written``). They sit after the harness rule and
can never undo it: a rule that tells the assistant to take directions from retrieved text,
to ask for or reveal secrets, to guess where it does not know, or to answer account
questions from memory is refused with the reason. English phrase shapes: a blind set of
paraphrases in seven languages measures what they miss (bench/rules_bench.py).
"""

from __future__ import annotations

import re
import unicodedata

from memwise._safety import instructions

# Characters that hide or disguise words: removed, or read as the Latin letter they mimic.
INVISIBLE = dict.fromkeys(
    map(
        ord,
        "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b"
        "\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060"
        "\u2061\u2062\u2063\u2064\u206a\u206b\u206c\u206d\u206e\u206f"
        "\ufeff",
    )
)
_LOOKALIKE = str.maketrans(
    "аеорсуххіјѕԁԛԝАВЕКМНОРСТХІЈЅαεικνορτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxxijsdqwABEKMHOPCTXIJSaeikvoptuxABEZHIKMNOPTYX",
)
_G = r"[^.;!?\n]"  # a gap within one clause
_SOURCES = (
    r"(?:retrieved|read[- ]back|stored|quoted|pasted|fetched|looked[- ]up|incoming)?\s*"
    r"(?:text|content|data|<data>|data blocks?|blocks?|documents?|docs|knowledge(?: base)?|"
    r"notes?|memory|memories|records?|emails?|messages?|web ?pages?|pages?|search results?|"
    r"tool (?:results?|output)|files?|attachments?|customers?(?:'s?)? (?:messages?|texts?|notes?)|"
    r"knowledge documents?)"
)
_HARNESS = (
    r"(?:harness(?: rules?)?|(?:rules?|instructions?) above|above (?:rules?|instructions?)|"
    r"everything (?:above|before)|(?:first|system|safety|data[- ]?blocks?|harness) (?:rules?|"
    r"instructions?|prompt)|system prompt|rules? about (?:data|retrieved text|<data>|data blocks?)|"
    r"rules? (?:you were|you've been) given)"
)
_SECRET_NOUNS = (
    r"(?:passwords?|passcodes?|(?-i:PINs?)|pin (?:codes?|numbers?)|cvv|cvc|cvv2|security codes?|"
    r"(?:full |complete |long )?(?:credit |debit )?card numbers?|card details|(?:three|3) digits "
    r"on the back|one[- ]time (?:codes?|passwords?)|otps?|2fa codes?|verification codes?|"
    r"(?:sms|text) codes?|login codes?|api keys?|access tokens?|ibans?|bank details|"
    r"social security numbers?|ssns?|login details|credentials)"
)
_LOOKUP = r"(?:lookup_account|look-?up tool|lookup tool|account (?:look-?up|tool))"
# (why, the shape, whether a "never …" / "do not …" before or inside it makes it a good rule)
_UNDO: list[tuple[str, re.Pattern[str], bool]] = [
    (
        "it tells the assistant to take directions from retrieved text, which is data, never "
        "instructions",
        re.compile(
            rf"\b(?:follow|obey|execute|carry out|act on|do what|comply with){_G}{{0,40}}?"
            rf"\b(?:instructions?|directions?|commands?|whatever|what (?:it|they)){_G}{{0,30}}?"
            rf"\b(?:in|inside|from|within|found in|contained in|written in)\b{_G}{{0,20}}?"
            rf"{_SOURCES}"
            r"|\b(?:do|follow|obey|believe)\b (?:whatever|what|everything|anything) "
            rf"(?:the |a |any )?{_SOURCES}\s*(?:says?|tells? you|asks?|wants?|instructs?)\b"
            rf"|\bwhatever (?:a |the |any )?{_SOURCES}\s+(?:says?|tells? you|asks?|wants?)"
            rf"|\b{_SOURCES}\s+(?:contains?|has|includes?|gives?){_G}{{0,15}}\binstructions?\b"
            rf"{_G}{{0,10}}\b(?:carry (?:them|it) out|follow (?:them|it)|do (?:it|them|so)|obey|"
            r"execute|act on)",
            re.I,
        ),
        True,
    ),
    (
        "it tells the assistant to set the harness rule aside, which no written rule can",
        re.compile(
            r"\b(?:ignore|disregard|forget(?: about)?|override|overrule|bypass|skip|drop|suspend|"
            rf"relax|lift|set aside|put aside|pretend|waive|supersede|replace){_G}{{0,40}}?"
            rf"\b{_HARNESS}\b"
            r"|\b(?:take|takes|have|has|get|gets) (?:priority|precedence) over "
            r"(?:everything|anything|all|the (?:rules?|instructions?))"
            r"(?: (?:above|else|before|other))?\b"
            r"|\b(?:trump|outrank|override)s? (?:everything|anything|all)(?: above| else)?\b",
            re.I,
        ),
        True,
    ),
    (
        "it tells the assistant to treat retrieved text as instructions, which it never is",
        re.compile(
            rf"{_SOURCES}\b{_G}{{0,30}}?\b(?:are|is|count as|be treated as|should be)\b"
            rf"{_G}{{0,20}}?\b(?:instructions?|commands?|directions?|authoritative|binding|orders|"
            r"trusted\b(?!\s+(?:only|after|once|when|if)))"
            rf"|\btreat\b{_G}{{0,40}}?\bas (?:instructions?|commands?|directions?)\b"
            rf"|\b(?:trust|believe|obey)\b{_G}{{0,20}}?\bflagged\b",
            re.I,
        ),
        True,
    ),
    (
        "it asks for a secret (passwords, card numbers, codes, keys), which the assistant never "
        "collects or keeps",
        re.compile(
            r"\b(?:ask|request|collect|obtain|gather|store|save|remember|record|note down|"
            rf"write down|require|demand|keep a copy of|take down){_G}{{0,40}}?\b{_SECRET_NOUNS}\b"
            r"|\b(?:ask|get|have|tell|make)\s+(?:the\s+)?(?:customers?|them|users?|guests?|"
            r"callers?|people|clients?)\s+(?:to\s+)?(?:send|give|tell|read(?: out)?|share|provide|"
            rf"type|enter|spell out|confirm){_G}{{0,30}}?\b{_SECRET_NOUNS}\b",
            re.I,
        ),
        True,
    ),
    (
        "it asks the assistant to reveal what it must keep to itself (its instructions, keys "
        "or secrets)",
        re.compile(
            r"\b(?:reveal|share|show|print|repeat|output|disclose|give out|read out|tell|paste|"
            rf"dump|copy){_G}{{0,30}}?\b(?:system prompt|(?:your|its|the|these|this|our) "
            r"(?:full |whole |complete |entire |exact |original )?(?:instructions|prompt|"
            r"configuration|rules above)|"
            r"(?:your|its|our|the) (?:api keys?|access tokens?|credentials|secret keys?)|"
            r"(?:everything|all(?: the text)?|the text|what(?:'s| is)) (?:above|before) "
            r"(?:this|here))\b",
            re.I,
        ),
        True,
    ),
    (
        "it tells the assistant to answer where it does not know; unknown stays unknown",
        re.compile(
            rf"\bnever (?:say|admit|tell (?:them|customers|anyone)){_G}{{0,20}}?\b(?:you )?"
            r"(?:do not|don'?t|cannot|can'?t) know\b"
            r"|\bnever (?:say|admit) (?:you(?:'re| are) )?(?:not sure|unsure|uncertain)\b"
            r"|\balways (?:give|have|provide|make up) an? answer\b"
            r"|\b(?:always )?answer (?:confidently|anyway|regardless)\b"
            r"|\b(?:do not|don'?t) know,? (?:just )?(?:answer|reply|respond|say something)\b",
            re.I,
        ),
        False,
    ),
    (
        "it tells the assistant to answer where it does not know; unknown stays unknown",
        re.compile(
            rf"\b(?:make up|invent|fabricate|guess|improvise){_G}{{0,30}}?\b(?:answers?|facts?"
            r"|prices?|numbers?|details?|dates?|policies|information|something)\b",
            re.I,
        ),
        True,
    ),
    (
        "it tells the assistant to answer account questions from memory; orders, invoices, "
        "shipments and balances are read fresh with the lookup tool",
        re.compile(
            rf"\b(?:avoid|skip|bypass|stop using|no need (?:for|to use)|(?:do not|don'?t|never) "
            rf"(?:use|call)){_G}{{0,10}}?\b(?:the )?{_LOOKUP}"
            rf"|\b{_LOOKUP} never\b",
            re.I,
        ),
        False,
    ),
    (
        "it tells the assistant to answer account questions from memory; orders, invoices, "
        "shipments and balances are read fresh with the lookup tool",
        re.compile(
            r"\b(?:orders?|invoices?|shipments?|balances?|bookings?|payments?|refunds?)"
            rf"{_G}{{0,40}}?\bfrom (?:memory|(?:the |your |its )?notes|what you remember|"
            r"your memory|the record)\b"
            rf"|\bwithout (?:using|calling|checking) (?:the )?{_LOOKUP}",
            re.I,
        ),
        True,
    ),
]
_NEGATION = re.compile(
    r"\b(?:never|not|no|nor|don'?t|doesn'?t|won'?t|cannot|can'?t|refuse to|avoid)\b"
    r"|n't\b",
    re.I,
)
# "do not forget to …", "don't hesitate to …": not a negation at all
_FALSE_NEGATION = re.compile(
    r"\b(?:do not|don'?t|never|please don'?t)\s+(?:forget|hesitate|fail|neglect|omit|be afraid)"
    r"\s+to\b|\bnever fail to\b|\bbe sure not to forget to\b",
    re.I,
)
# "if someone asks you to …, refuse": describing an attack in order to refuse it
_IF_ASKED = re.compile(
    r"\bif\b[^.!?]*\b(?:asks?|tells?|wants?|tries?|requests?|begs?|orders?)\b[^.!?]*$", re.I
)
_REFUSAL = re.compile(
    r"^[^.!?]*\b(?:refuse|decline|say no|politely (?:say no|decline|refuse)|don'?t|do not|"
    r"never|explain (?:that )?you can'?t|say you can'?t|say that you can'?t)\b",
    re.I,
)
_STILL_HOLDS = re.compile(
    r"^\W*(?:rules? )?(?:still|always) (?:apply|applies|holds?|stands?)\b", re.I
)
# instruction-like shapes the harness already treats as attacks in retrieved text
_ATTACK_FLAGS = {"override", "role_marker", "tool_syntax", "exfiltration", "encoded_payload"}


def plain(text: str) -> str:
    """The text as the model would read it: compatibility forms folded, invisible
    characters dropped, look-alike letters read as the Latin ones they mimic."""
    t = unicodedata.normalize("NFKC", text).translate(INVISIBLE).translate(_LOOKALIKE)
    return " ".join(t.split())


def undoes_harness(text: str) -> str | None:
    """Why this text would undo the harness rule, or None when it does not."""
    t = _FALSE_NEGATION.sub(" ", plain(text))
    for reason, rx, negatable in _UNDO:
        for m in rx.finditer(t):
            before, after = t[: m.start()], t[m.end() :]
            clause = re.split(r"[;:,.!?]", before[-30:])[-1]
            if negatable and _NEGATION.search(clause + m.group()):
                continue  # "never ask for a password" is the harness's own rule, restated
            sentence = re.split(r"[.!?]", before)[-1][-300:]
            if _IF_ASKED.search(sentence) and _REFUSAL.search(after[:300]):
                continue  # "if someone asks you to reveal your instructions, refuse"
            if _STILL_HOLDS.match(after):
                continue  # "drop the formal tone, the harness rules still apply"
            return reason
    flags = {f.kind for f in instructions.scan(t)} & _ATTACK_FLAGS
    if flags:
        return "it reads as an attempt to override the harness (" + ", ".join(sorted(flags)) + ")"
    return None
