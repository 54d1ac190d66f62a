"""Flagging instruction-like content in stored or retrieved text.

Text read back from memory is data, never instructions. This detector finds what looks
like an instruction aimed at the assistant (imperatives, role markers, "ignore previous
instructions", tool-call syntax, encoded payloads) so it can be refused at a write boundary
or flagged inside a data block. Flagging never deletes the record line.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "override",
        re.compile(
            r"\b(?:ignore|disregard|forget|overlook|override|bypass|discard|drop)\b[^.\n?]{0,40}?"
            r"\b(?:(?:previous|prior|above|earlier|original|initial|system|these|those|your|all|any)"
            r"\b[^.\n?]{0,30}?\b(?:instructions?|prompts?|rules?|directives?|directions?|guidelines?|"
            r"context|programming|constraints?|tasks?)|everything|all (?:that )?you(?:'ve| have)? "
            r"(?:been )?(?:told|instructed|said))\b",
            re.I,
        ),
    ),
    (
        "override",
        re.compile(
            r"\b(?:regardless of|instead of) (?:any |all |the )?(?:previous|prior|earlier|above|"
            r"original) (?:tasks?|instructions?|rules?|directives?)\b"
            r"|\bforget (?:about )?(?:that|this|everything|the above)\b[^?]{0,80}"
            r"\b(?:instead|now)\b",
            re.I,
        ),
    ),
    (
        "role_marker",
        re.compile(
            r"(?:^|\n)[ \t]*(?:system|assistant|developer)[ \t]*[:>\]]|<\|?(?:im_start|system|"
            r"assistant)\|?>|\[/?(?:INST|SYS)\]|###\s*(?:system|instruction)",
            re.I,
        ),
    ),
    (
        "memory_command",
        re.compile(
            r"\b(?:remember|note|save|store|memori[sz]e)\b\s*(?:that|this|:)[^.\n]{0,20}?\b(?:always|"
            r"never|from now on|going forward|in future|every time)\b",
            re.I,
        ),
    ),
    (
        "standing_order",
        re.compile(
            r"\b(?:always|never|from now on|going forward|for all future)\b[^.\n]{0,30}?\b(?:give|"
            r"grant|apply|offer|send|approve|refund|waive|discount)\b",
            re.I,
        ),
    ),
    ("discount_demand", re.compile(r"\b\d{1,3}\s?%\s*(?:off|discount)\b|\bfree of charge\b", re.I)),
    (
        "new_identity",
        re.compile(
            r"\byou are (?:now|no longer)\b|\bfrom now on,? you\b|\bnew (?:instructions?|rules?)\b"
            r"|\b(?:DAN|developer mode|god mode|admin mode|unrestricted mode)\b",
            re.I,
        ),
    ),
    (
        "secret_request",
        re.compile(
            r"\b(?:what(?:'s| is| are)|tell me|share|reveal|give me|show me|print|repeat|output)\b"
            r"[^.\n?]{0,20}?\byour\b[^.\n?]{0,15}?\b(?:secret|password|passcode|pass phrase|"
            r"passphrase|key|system prompt|instructions|initial prompt|credentials)\b",
            re.I,
        ),
    ),
    (
        "directive",
        re.compile(
            r"\b(?:you must|i order you|i command you|do not tell|don'?t tell)\b[^.\n]{0,40}?"
            r"\b(?:prompt|instructions?|password|secret|system|rules)\b",
            re.I,
        ),
    ),
    (
        "tool_syntax",
        re.compile(
            r"\b(?:function_call|tool_call|tool_use)\b|\"name\"\s*:\s*\"\w+\"\s*,\s*\"arguments\"|"
            r"<(?:tool|function)[_ ]?(?:call|use)?>",
            re.I,
        ),
    ),
    (
        "exfiltration",
        re.compile(
            r"\b(?:send|email|post|forward|upload)\b[^.\n]{0,40}?\b(?:to|at)\b[^.\n]{0,10}?"
            r"(?:https?://|[\w.-]{1,64}@[\w-]{1,63}\.)",
            re.I,
        ),
    ),
]
_B64 = re.compile(r"[A-Za-z0-9+/]{24,}={0,2}")


@dataclass(frozen=True)
class Flag:
    kind: str
    excerpt: str


def _encoded(text: str) -> list[Flag]:
    flags = []
    for m in _B64.finditer(text):
        chunk = m.group()
        try:
            decoded = base64.b64decode(chunk + "=" * (-len(chunk) % 4), validate=True)
            plain = decoded.decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            continue
        if plain.isprintable() and scan(plain, encoded=False):
            flags.append(Flag("encoded_payload", chunk[:24]))
    return flags


def scan(text: str, *, encoded: bool = True) -> list[Flag]:
    """Every instruction-like span found in ``text``."""
    found = [
        Flag(kind, m.group().strip()[:80]) for kind, rx in _PATTERNS for m in rx.finditer(text)
    ]
    if encoded:
        found += _encoded(text)
    return found


def looks_like_instruction(text: str) -> bool:
    return bool(scan(text))
