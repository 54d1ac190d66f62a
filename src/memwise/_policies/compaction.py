"""Compaction: turns that scroll out of a window become a running summary.

The extractive summariser needs no model and says only what was said: it keeps sentences
that carry a decision, a question, a date or time, or an amount, and drops the chatter.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

from memwise._policies.window import Message

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")
_DECISION = re.compile(
    r"\b(?:agree[ds]?|confirm(?:ed|s)?|decided?|we(?:'ll| will)|i(?:'ll| will)|let'?s|"
    r"go(?:ing)? with|go ahead|book(?:ed)?|order(?:ed)?|cancel(?:led|ed)?|approved?|deal|"
    r"scheduled?|settled|chose|choose|switch(?:ed)? to|instead|from now on|please)\b",
    re.I,
)
_DATE = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|next (?:week|month|year)|this (?:week|month)|"
    r"mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?\b|"
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b|"
    r"\b\d{1,2}(?:st|nd|rd|th)?\.? (?:of )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|"
    r"\b\d{1,2}[./-]\d{1,2}(?:[./-]\d{2,4})?\b|\b\d{1,2}(?::\d{2})? ?(?:am|pm)\b|\bat \d{1,2}\b|"
    r"\b\d{1,2}:\d{2}\b",
    re.I,
)
_AMOUNT = re.compile(
    r"[€$£]\s?\d|\b\d[\d.,]*\s?(?:eur|euro|usd|gbp|chf|dollars?|%|percent|kg|pcs|units?|items?)\b",
    re.I,
)
_CHATTER = re.compile(
    r"^(?:hi|hello|hey|thanks?|thank you|ok(?:ay)?|sure|great|cool|bye|good (?:morning|day|"
    r"evening)|you'?re welcome|no problem|np|yes|no)\b[\s!.,]*$",
    re.I,
)


class Summariser(Protocol):
    def summarise(self, previous: str | None, scrolled_out: Sequence[Message], limit: int) -> str:
        """The new running summary: ``previous`` plus what ``scrolled_out`` adds."""
        ...


def _label(sentence: str) -> str | None:
    if _CHATTER.match(sentence):
        return None
    if sentence.rstrip().endswith("?"):
        return "asked"
    if _DECISION.search(sentence):
        return "decided" if not _DATE.search(sentence) else "arranged"
    if _DATE.search(sentence):
        return "when"
    if _AMOUNT.search(sentence):
        return "amount"
    return None


def select(messages: Sequence[Message]) -> list[str]:
    """The summary lines the extractive rules keep, in the order they were said."""
    lines = []
    for m in messages:
        for raw in _SENTENCE.findall(m.text or ""):
            sentence = " ".join(raw.split())
            if len(sentence) < 3:
                continue
            label = _label(sentence)
            if label:
                lines.append(f"- {m.role} {label}: {sentence}")
    return lines


def trim(lines: list[str], limit: int) -> str:
    """Newest lines win when the summary outgrows ``limit`` characters."""
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        if used + len(line) + 1 > limit:
            break
        kept.append(line)
        used += len(line) + 1
    kept.reverse()
    if len(kept) < len(lines):
        kept.insert(0, "- (earlier points trimmed)")
    return "\n".join(kept)


class ExtractiveSummariser:
    """Keeps decisions, questions, dates and amounts; drops chatter. No model needed."""

    def summarise(self, previous: str | None, scrolled_out: Sequence[Message], limit: int) -> str:
        old = [
            ln for ln in (previous or "").splitlines() if ln and "earlier points trimmed" not in ln
        ]
        return trim(old + select(scrolled_out), limit)


SUMMARY_PROMPT = """You keep the running summary of a conversation whose older turns have
scrolled out of the window. Keep decisions, commitments, dates, amounts and open questions;
drop greetings and chatter. Never add anything that was not said. Plain lines starting
with "- ". At most {limit} characters."""


class ModelSummariser:
    """The model condenses scrolled-out turns (``complete`` sends one prompt, returns text).

    ``complete`` is a small callable over an SDK client (see ``memwise._config``), so that this
    module stays free of SDK imports and is tested with a fake model server.
    """

    def __init__(
        self, complete: Callable[[str, str], str], fallback: Summariser | None = None
    ) -> None:
        self.complete = complete
        self.fallback = fallback or ExtractiveSummariser()

    def summarise(self, previous: str | None, scrolled_out: Sequence[Message], limit: int) -> str:
        turns = "\n".join(f"[{m.role}] {m.text}" for m in scrolled_out if m.text)
        user = f"Summary so far:\n{previous or '(none)'}\n\nTurns that scrolled out:\n{turns}"
        try:
            text = self.complete(SUMMARY_PROMPT.format(limit=limit), user).strip()
        except Exception:  # the model could not be asked: summarise honestly without it
            return self.fallback.summarise(previous, scrolled_out, limit)
        return text[:limit] if text else self.fallback.summarise(previous, scrolled_out, limit)
