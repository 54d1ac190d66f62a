"""What any extractor returns, made safe to read and to store before anything reads it.

A model's JSON may hold characters no database stores (NUL: PostgreSQL refuses it in text
and JSON) or that cannot be encoded at all (a lone UTF-16 surrogate, "\\ud800"); a custom
extractor (``Memwise.open(extractor=…)``) is not schema-checked and may hand over None or a
number where text belongs. Either failed a conversation's whole extraction, the valid
proposals beside it included. Every string is cleaned as turns are (``record.clean``: the
Unicode "other" characters go); a proposal whose text or quote is not text, or whose kind is
none of the five an extractor proposes ("pattern" is memwise's own count: as a proposal it
passed the harness's past-tense reading and was served as stated), is dropped and counted
(``malformed``); a date phrase or an entity that is not text is left out.
"""

from __future__ import annotations

from typing import Any

from memwise._domain.record import clean
from memwise._extraction.types import Extraction, Proposal, ProposedEvent, SummaryProposal

PROPOSED = frozenset(["preference", "fact", "event", "task", "note"])  # an extractor's kinds


def _text(value: Any) -> str | None:
    return clean(value)[0] if isinstance(value, str) else None


def _texts(values: Any) -> list[str]:
    if not isinstance(values, (list, tuple)):  # a lone string is no list of texts
        return []
    return [t for v in values if (t := _text(v)) is not None]


def json_strings(value: Any) -> Any:
    """A parsed JSON value with every string (keys too) cleaned: what a model's answer is
    checked against its schema as."""
    if isinstance(value, str):
        return clean(value)[0]
    if isinstance(value, list):
        return [json_strings(v) for v in value]
    if isinstance(value, dict):
        return {json_strings(k): json_strings(v) for k, v in value.items()}
    return value


def cleaned(found: Extraction) -> tuple[Extraction, int]:
    """``found`` with its strings cleaned and the proposals that are not text dropped, and
    how many were dropped."""
    items = [
        Proposal(
            str(p.kind),
            text,
            _texts(p.quotes),
            _text(p.key) if isinstance(p.key, str) else p.key,
            _text(p.occurs_phrase),
            _texts(p.entities),
        )
        for p in found.items
        if (text := _text(p.text)) is not None and isinstance(p.kind, str) and p.kind in PROPOSED
    ]
    events = [
        ProposedEvent(kind, {_text(k) or "": _text(str(v)) or "" for k, v in e.labels.items()}, q)
        for e in found.events
        if (kind := _text(e.type)) is not None
        and (q := _text(e.quote)) is not None
        and isinstance(e.labels, dict)
    ]
    summary = [
        SummaryProposal(s.part, text, quote, s.said_by)
        for s in found.summary
        if (text := _text(s.text)) is not None and (quote := _text(s.quote)) is not None
    ]
    dropped = len(found.items) + len(found.events) + len(found.summary)
    dropped -= len(items) + len(events) + len(summary) - found.malformed
    return (
        Extraction(items, events, summary, found.usage, _texts(found.not_read)),
        dropped,
    )
