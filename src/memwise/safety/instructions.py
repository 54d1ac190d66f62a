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
            r"\b(?:ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}?\b(?:previous|prior|above|"
            r"earlier|all|any|your|the|system|these|those)\b[^.\n]{0,30}?\b(?:instructions?|prompts?|"
            r"rules?|directions?|guidelines?|messages?|context|programming)\b",
            re.I,
        ),
    ),
    (
        "role_marker",
        re.compile(
            r"(?:^|\n|\s)(?:system|assistant|developer|user)\s*[:>\]]|<\|?(?:im_start|system|"
            r"assistant)\|?>|\[/?(?:INST|SYS)\]|###\s*(?:system|instruction)",
            re.I,
        ),
    ),
    (
        "memory_command",
        re.compile(
            r"\b(?:remember|note|save|store|memori[sz]e)\b\s*(?:that|this|:)?[^.\n]{0,20}?\b(?:always|"
            r"never|from now on|going forward|in future|every time)\b",
            re.I,
        ),
    ),
    (
        "standing_order",
        re.compile(
            r"\b(?:always|never|from now on|going forward|for all future)\b[^.\n]{0,30}?\b(?:give|"
            r"grant|apply|offer|send|approve|refund|tell|say|respond|reply|answer|call me|treat|"
            r"waive|discount)\b",
            re.I,
        ),
    ),
    ("discount_demand", re.compile(r"\b\d{1,3}\s?%\s*(?:off|discount)\b|\bfree of charge\b", re.I)),
    (
        "new_identity",
        re.compile(
            r"\byou are (?:now|no longer)\b|\bact as\b|\bpretend (?:to be|you are)\b|"
            r"\bnew (?:instructions?|rules?|persona)\b|\bjailbreak\b|\bDAN\b|\bdeveloper mode\b",
            re.I,
        ),
    ),
    (
        "directive",
        re.compile(
            r"\b(?:you must|you should|you will|you have to|i order you|i command you|do not tell|"
            r"don'?t tell|reveal|print|output|repeat)\b[^.\n]{0,40}?\b(?:prompt|instructions?|"
            r"password|secret|system|rules|above|everything|key)\b",
            re.I,
        ),
    ),
    (
        "tool_syntax",
        re.compile(
            r"\b(?:function_call|tool_call|tool_use|\"name\"\s*:\s*\"\w+\"\s*,\s*\"arguments\")\b|"
            r"<(?:tool|function)[_ ]?(?:call|use)?>|```(?:json|tool)",
            re.I,
        ),
    ),
    (
        "exfiltration",
        re.compile(
            r"\b(?:send|email|post|forward|upload)\b[^.\n]{0,40}?\b(?:to|at)\b[^.\n]{0,10}?"
            r"(?:https?://|[\w.-]+@[\w-]+\.)",
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
