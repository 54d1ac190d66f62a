"""The harness around any extractor: quotes are checked against the contact's own turns.

A quote counts only when it is found in a customer turn (never the assistant's, an
operator's or a tool's) after normalising whitespace, case, punctuation and quote marks, or
when it matches one closely enough (rapidfuzz, threshold configurable). An item with no
verified quote is discarded and counted.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from memwise.domain.memory import Evidence
from memwise.extraction.types import Line, Proposal, ProposedEvent

_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "´": "'", "`": "'"})


def norm(text: str) -> str:
    t = unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold()
    t = re.sub(r"[^\w\s']", " ", t)
    return " ".join(t.split())


@dataclass
class Verified:
    items: list[tuple[Proposal, list[Evidence]]] = field(default_factory=list)
    events: list[tuple[ProposedEvent, Evidence]] = field(default_factory=list)
    continuity: tuple[Proposal, list[Evidence]] | None = None
    discarded: int = 0


class QuoteChecker:
    def __init__(self, transcript: Sequence[Line], threshold: float = 90.0) -> None:
        self.customer = [(line, norm(line.text)) for line in transcript if line.role == "customer"]
        self.threshold = threshold

    def find(self, quote: str) -> Evidence | None:
        q = norm(quote)
        if len(q) < 3:
            return None
        for line, text in self.customer:
            if q in text:
                return Evidence(line.turn_id, quote.strip(), line.at)
        best: tuple[float, Line | None] = (0.0, None)
        for line, text in self.customer:
            score = fuzz.partial_ratio(q, text)
            if score > best[0]:
                best = (score, line)
        if best[1] is not None and best[0] >= self.threshold and len(q) >= 8:
            return Evidence(best[1].turn_id, quote.strip(), best[1].at)
        return None

    def evidence(self, quotes: Sequence[str]) -> list[Evidence]:
        found = [e for e in (self.find(q) for q in quotes) if e is not None]
        unique = {(e.turn_id, e.quote): e for e in found}
        return list(unique.values())


def verify(
    items: Sequence[Proposal],
    events: Sequence[ProposedEvent],
    continuity: Proposal | None,
    transcript: Sequence[Line],
    threshold: float = 90.0,
) -> Verified:
    checker = QuoteChecker(transcript, threshold)
    out = Verified()
    for p in items:
        ev = checker.evidence(p.quotes)
        if ev:
            out.items.append((p, ev))
        else:
            out.discarded += 1
    for e in events:
        found = checker.find(e.quote)
        if found:
            out.events.append((e, found))
        else:
            out.discarded += 1
    if continuity is not None:
        ev = checker.evidence(continuity.quotes)
        if ev:
            out.continuity = (continuity, ev)
    return out
