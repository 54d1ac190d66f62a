"""The harness around any extractor: quotes are checked against the contact's own turns.

A quote counts only when it is found in a customer turn (never the assistant's, an
operator's or a tool's) after normalising whitespace, case, punctuation and quote marks —
on word boundaries, with at least two content words (or the whole turn) — or when it
matches one closely enough (rapidfuzz, threshold configurable, at least two content words).
Then the item must be grounded in its quotes: every number and every name in the item's
text is in them, and so is at least one of its other content words. An item with no
verified, grounding quote is discarded and counted. A model's item said only by the
assistant ("Relocating to Munich in March", quoting "the" from "Hi there") never passes.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from memwise.domain.memory import Evidence
from memwise.extraction.types import Line, Proposal, ProposedEvent
from memwise.retrieval.lexical import STOPWORDS, snowball

MIN_CONTENT_WORDS = 2
# Words an item's wording adds around what the customer said: never evidence on their own.
TEMPLATE_WORDS = frozenset(
    [
        "customer",
        "customers",
        "client",
        "prefers",
        "prefer",
        "preferred",
        "preference",
        "likes",
        "like",
        "liked",
        "wants",
        "want",
        "wanted",
        "has",
        "have",
        "had",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "said",
        "says",
        "stated",
        "mentioned",
        "mentions",
        "told",
        "asked",
        "asks",
        "about",
        "needs",
        "need",
        "needed",
        "would",
        "could",
        "should",
        "will",
        "they",
        "them",
        "their",
        "he",
        "she",
        "his",
        "her",
        "him",
        "contacted",
        "contact",
        "reached",
        "reach",
        "uses",
        "use",
        "used",
        "usually",
        "always",
        "often",
        "mostly",
        "really",
        "also",
        "not",
        "does",
        "doesn",
        "did",
        "didn",
        "don",
        "dont",
        "very",
        "person",
        "someone",
        "something",
        "things",
        "thing",
    ]
)

# The same thing said in other words (an item may say "phone" for "don't call me").
SAME = [
    {"phone", "call", "ring", "telephon", "landlin", "mobil", "cell"},
    {"email", "mail", "inbox"},
    {"sms", "text", "messag", "whatsapp", "signal", "telegram"},
    {"vegetarian", "veggi", "meat"},
    {"move", "reloc", "live", "home"},
]

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


def content_words(text: str) -> list[str]:
    return [w for w in norm(text).split() if w not in STOPWORDS and len(w) > 1]


def _stems(text: str) -> set[str]:
    return {snowball(w) for w in content_words(text)}


class QuoteChecker:
    def __init__(self, transcript: Sequence[Line], threshold: float = 90.0) -> None:
        self.customer = [(line, norm(line.text)) for line in transcript if line.role == "customer"]
        self.threshold = threshold

    def find(self, quote: str, min_words: int = MIN_CONTENT_WORDS) -> Evidence | None:
        q = norm(quote)
        words = content_words(q)
        if not words:
            return None
        for line, text in self.customer:
            if f" {q} " in f" {text} " and (len(words) >= min_words or q == text):
                return Evidence(line.turn_id, quote.strip(), line.at)
        if len(words) < MIN_CONTENT_WORDS or len(q) < 8:
            return None
        best: tuple[float, Line | None] = (0.0, None)
        for line, text in self.customer:
            score = fuzz.partial_ratio(q, text)
            if score > best[0]:
                best = (score, line)
        if best[1] is not None and best[0] >= self.threshold:
            return Evidence(best[1].turn_id, quote.strip(), best[1].at)
        return None

    def evidence(self, quotes: Sequence[str]) -> list[Evidence]:
        found = [e for e in (self.find(q) for q in quotes) if e is not None]
        unique = {(e.turn_id, e.quote): e for e in found}
        return list(unique.values())


def grounded(text: str, evidence: Sequence[Evidence], turns: dict[str, str] | None = None) -> bool:
    """Whether the item's text is supported by what its quotes (and their turns) say: its
    numbers and names appear there, and at least one of its other content words."""
    said = " ".join(e.quote for e in evidence)
    if turns:
        said += " " + " ".join(turns.get(e.turn_id, "") for e in evidence)
    said += " " + said.replace("-", "")  # "e-mail" says email
    said_norm, said_stems = f" {norm(said)} ", _stems(said)
    for group in SAME:
        if group & said_stems:
            said_stems |= group
    for number in re.findall(r"\d+", text):
        if not re.search(rf"(?<!\d){number}(?!\d)", said_norm):
            return False
    words = re.findall(r"[^\W\d_][\w'-]*", text)
    for i, word in enumerate(words):
        name = i > 0 and word[:1].isupper() and word.lower() not in TEMPLATE_WORDS | STOPWORDS
        if name and snowball(norm(word)) not in said_stems and f" {norm(word)} " not in said_norm:
            return False
    meaning = {snowball(w) for w in content_words(text) if w not in TEMPLATE_WORDS}
    return not meaning or bool(meaning & said_stems)


def verify(
    items: Sequence[Proposal],
    events: Sequence[ProposedEvent],
    continuity: Proposal | None,
    transcript: Sequence[Line],
    threshold: float = 90.0,
) -> Verified:
    checker = QuoteChecker(transcript, threshold)
    turns = {line.turn_id: line.text for line in transcript if line.role == "customer"}
    out = Verified()
    for p in items:
        ev = checker.evidence(p.quotes)
        if ev and grounded(p.text, ev, turns):
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
        if ev and grounded(continuity.text, ev, turns):
            out.continuity = (continuity, ev)
    return out
