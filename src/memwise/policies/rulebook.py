"""Written rules, checked before anyone can serve them.

An agent's persona and rules, and the workspace's team standards, are text an operator
writes for the model. They sit after the harness rule and can never undo it: a rule that
tells the assistant to take directions from retrieved text, to ask for or reveal secrets,
to guess where it does not know, or to answer account questions from memory is refused
with the reason. Nothing here touches storage.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from memwise import errors
from memwise.policies.limits import RulesLimits
from memwise.safety import instructions, secrets

PERSONA_FIELDS = ("voice", "helps_with")

_SOURCES = (
    r"(?:retrieved|read[- ]back|stored|quoted|pasted|fetched|looked[- ]up|incoming)?\s*"
    r"(?:text|data|data blocks?|blocks?|documents?|docs|knowledge|notes?|memory|memories|"
    r"records?|emails?|messages?|web ?pages?|pages?|search results?|tool (?:results?|output)|"
    r"files?|attachments?|customers?(?:'s?)? (?:messages?|texts?|notes?))"
)
# (why, the shape, whether a "never …" / "do not …" before or inside it makes it a good rule)
_UNDO: list[tuple[str, re.Pattern[str], bool]] = [
    (
        "it tells the assistant to take directions from retrieved text, which is data, never "
        "instructions",
        re.compile(
            r"\b(?:follow|obey|execute|carry out|act on|do what|comply with)\b[^.\n]{0,40}?"
            r"\b(?:instructions?|directions?|commands?|whatever|what (?:it|they))"
            r"\b[^.\n]{0,30}?\b(?:in|inside|from|within|found in|contained in|written in)\b"
            rf"[^.\n]{{0,20}}?{_SOURCES}"
            r"|\b(?:do|follow|obey|believe)\b (?:whatever|what|everything|anything) "
            rf"(?:the |a |any )?{_SOURCES}\s*(?:says?|tells? you|asks?|wants?|instructs?)\b",
            re.I,
        ),
        True,
    ),
    (
        "it tells the assistant to set the harness rule aside, which no written rule can",
        re.compile(
            r"\b(?:ignore|disregard|forget|override|overrule|bypass|skip|drop|suspend|relax|lift)"
            r"\b[^.\n]{0,40}?\b(?:harness|(?:rules?|instructions?) above|above (?:rules?|"
            r"instructions?)|(?:first|system|safety|data[- ]?blocks?|harness) (?:rules?|"
            r"instructions?|prompt)|system prompt)\b",
            re.I,
        ),
        True,
    ),
    (
        "it tells the assistant to treat retrieved text as instructions, which it never is",
        re.compile(
            rf"{_SOURCES}\b[^.\n]{{0,30}}?\b(?:are|is|count as|be treated as|should be)\b"
            r"[^.\n]{0,20}?\b(?:instructions?|commands?|directions?|trusted)\b"
            r"|\btreat\b[^.\n]{0,40}?\bas (?:instructions?|commands?|directions?)\b"
            r"|\b(?:trust|believe|obey)\b[^.\n]{0,20}?\bflagged\b",
            re.I,
        ),
        True,
    ),
    (
        "it asks for a secret (passwords, card numbers, codes, keys), which the assistant never "
        "collects or keeps",
        re.compile(
            r"\b(?:ask|request|collect|get|take|obtain|gather|store|save|keep|remember|record|note"
            r"|write down|require|demand)\b[^.\n]{0,40}?\b(?:passwords?|passcodes?|pins?|pin codes?"
            r"|cvv|cvc|security codes?|(?:full |complete )?(?:credit |debit )?card numbers?"
            r"|card details|one[- ]time (?:codes?|passwords?)|otps?|2fa codes?"
            r"|verification codes?|api keys?|access tokens?|secrets?|ibans?|bank details"
            r"|social security numbers?|ssns?|login details|credentials)\b",
            re.I,
        ),
        True,
    ),
    (
        "it asks the assistant to reveal what it must keep to itself (its instructions, keys "
        "or secrets)",
        re.compile(
            r"\b(?:reveal|share|show|print|repeat|output|disclose|give out|read out|tell)\b"
            r"[^.\n]{0,30}?\b(?:system prompt|(?:your|its) (?:instructions|prompt)|(?:these|this)"
            r" (?:instructions|rules|prompt)|the (?:rules|instructions) above|api keys?|secrets?"
            r"|access tokens?|credentials|passwords?)\b",
            re.I,
        ),
        True,
    ),
    (
        "it tells the assistant to answer where it does not know; unknown stays unknown",
        re.compile(
            r"\bnever (?:say|admit|tell (?:them|customers|anyone))\b[^.\n]{0,20}?\b(?:you )?"
            r"(?:do not|don'?t|cannot|can'?t) know\b"
            r"|\balways (?:give|have|provide|make up) an? answer\b"
            r"|\bnever (?:hand off|pass (?:it|questions) (?:on|to the team))\b",
            re.I,
        ),
        False,
    ),
    (
        "it tells the assistant to answer where it does not know; unknown stays unknown",
        re.compile(
            r"\b(?:make up|invent|fabricate|guess|improvise)\b[^.\n]{0,30}?\b(?:answers?|facts?"
            r"|prices?|numbers?|details?|dates?|policies|information|something)\b",
            re.I,
        ),
        True,
    ),
    (
        "it tells the assistant to answer account questions from memory; orders, invoices, "
        "shipments and balances are read fresh with the lookup tool",
        re.compile(
            r"\b(?:do not|don'?t|never|without)\b[^.\n]{0,20}?\b(?:use|call|using|calling)\b"
            r"[^.\n]{0,20}?\b(?:lookup|look-up|lookup_account|account) tool\b"
            r"|\b(?:orders?|invoices?|shipments?|balances?)\b[^.\n]{0,40}?\bfrom (?:memory|"
            r"(?:the )?notes|what you remember)\b",
            re.I,
        ),
        False,
    ),
]
_NEGATION = re.compile(
    r"\b(?:never|not|no|nor|don'?t|doesn'?t|won'?t|cannot|can'?t|refuse to|avoid)\b"
    r"|n't\b",
    re.I,
)
# instruction-like shapes the harness already treats as attacks in retrieved text
_ATTACK_FLAGS = {"override", "role_marker", "tool_syntax", "exfiltration", "encoded_payload"}


def undoes_harness(text: str) -> str | None:
    """Why this text would undo the harness rule, or None when it does not."""
    for reason, rx, negatable in _UNDO:
        for m in rx.finditer(text):
            clause = re.split(r"[;:,.!?]", text[max(0, m.start() - 30) : m.start()])[-1]
            if negatable and _NEGATION.search(clause + m.group()):
                continue  # "never ask for a password" is the harness's own rule, restated
            return reason
    flags = {f.kind for f in instructions.scan(text)} & _ATTACK_FLAGS
    if flags:
        return "it reads as an attempt to override the harness (" + ", ".join(sorted(flags)) + ")"
    return None


def _one(text: Any, what: str, max_chars: int) -> str:
    if not isinstance(text, str):
        raise errors.Invalid(f"{what} must be text", code="invalid_rule")
    cleaned = " ".join(text.split())
    if len(cleaned) > max_chars:
        raise errors.Invalid(
            f"{what} is limited to {max_chars} characters (this one has {len(cleaned)}); "
            "nothing was saved",
            code="too_long",
            limit=max_chars,
            length=len(cleaned),
        )
    if cleaned:
        reason = undoes_harness(cleaned)
        if reason:
            raise errors.Invalid(
                f"{what} was refused: {reason}. Rules come after the harness rule and cannot "
                "undo it; nothing was saved",
                code="rule_undoes_harness",
                rule=cleaned[:200],
            )
        secrets.check(cleaned)
    return cleaned


def check(
    rules: Sequence[Any], persona: Mapping[str, Any] | None, limits: RulesLimits
) -> tuple[list[str], dict[str, str] | None]:
    """Rules and persona fit to propose: each rule non-empty, within the limits, free of
    secrets and not undoing the harness rule; duplicates dropped, order kept."""
    if isinstance(rules, str) or not isinstance(rules, Sequence):
        raise errors.Invalid("rules must be a list of texts", code="invalid_rule")
    if len(rules) > limits.max_rules:
        raise errors.Invalid(
            f"at most {limits.max_rules} rules (this has {len(rules)}); nothing was saved",
            code="too_many_rules",
            limit=limits.max_rules,
        )
    kept: list[str] = []
    seen: set[str] = set()
    for n, rule in enumerate(rules, 1):
        cleaned = _one(rule, f"rule {n}", limits.max_rule_chars)
        key = cleaned.casefold()
        if cleaned and key not in seen:
            seen.add(key)
            kept.append(cleaned)
    clean_persona: dict[str, str] | None = None
    if persona is not None:
        if not isinstance(persona, Mapping):
            raise errors.Invalid("persona must be an object", code="invalid_rule")
        unknown = set(persona) - set(PERSONA_FIELDS)
        if unknown:
            raise errors.Invalid(
                f"unknown persona fields: {sorted(unknown)} (known: {list(PERSONA_FIELDS)})",
                code="invalid_field",
            )
        clean_persona = {
            k: _one(persona.get(k) or "", f"persona {k.replace('_', ' ')}", limits.persona_chars)
            for k in PERSONA_FIELDS
        }
    return kept, clean_persona


def diff(
    before_rules: Sequence[str],
    before_persona: Mapping[str, str] | None,
    rules: Sequence[str],
    persona: Mapping[str, str] | None,
) -> str:
    """A unified diff of one version against another, persona lines first."""

    def lines(rs: Sequence[str], p: Mapping[str, str] | None) -> list[str]:
        out = [f"{k}: {p[k]}" for k in PERSONA_FIELDS if p and p.get(k)]
        return out + [f"- {r}" for r in rs]

    return "\n".join(
        difflib.unified_diff(
            lines(before_rules, before_persona),
            lines(rules, persona),
            "served",
            "proposed",
            lineterm="",
            n=1,
        )
    )
