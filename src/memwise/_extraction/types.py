"""What extractors read and propose. Pure data: the harness verifies, the service applies."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol


@dataclass(frozen=True)
class Line:
    """One turn of the transcript an extractor reads."""

    turn_id: str
    role: str
    text: str
    at: datetime


@dataclass(frozen=True)
class Proposal:
    kind: str
    text: str
    quotes: list[str]
    key: str | None = None
    occurs_phrase: str | None = None
    entities: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ProposedEvent:
    type: str
    labels: dict[str, str]
    quote: str


Part = Literal["wanted", "decided", "open"]  # of a session summary
SaidBy = Literal["customer", "business"]


@dataclass(frozen=True)
class SummaryProposal:
    """One sentence of a session summary as a model proposes it: its part (wanted,
    decided, open), its text, the words of one turn it retells, and who said them."""

    part: Part
    text: str
    quote: str
    said_by: SaidBy


@dataclass(frozen=True)
class Extraction:
    items: list[Proposal] = field(default_factory=list)
    events: list[ProposedEvent] = field(default_factory=list)
    summary: list[SummaryProposal] = field(default_factory=list)
    usage: dict[str, Any] = field(default_factory=dict)
    not_read: list[str] = field(default_factory=list)  # what the extractor said it did not read
    malformed: int = 0  # proposals of a model's answer not in its schema: dropped, counted


@dataclass(frozen=True)
class Existing:
    """What the contact already has, so an extractor can reuse keys for corrections."""

    key: str | None
    kind: str
    text: str


class Extractor(Protocol):
    name: str
    prompt_version: str

    def extract(
        self, transcript: Sequence[Line], existing: Sequence[Existing], pack: Any
    ) -> Extraction:
        """Propose items, events and (a model) a session summary for one conversation."""
        ...
