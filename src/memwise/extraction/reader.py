"""The offline extractor's reading by meaning: what the customer states of themselves, kept
when its kind is one memory holds.

Statements come off the parse (``memwise.text.statements``: clauses about the speaker,
retold in the third person from their own words). Each takes the kind of fact its meaning
is closest to — home, work, family, diet, allergy, access needs, contact channel and times,
language, vehicle, equipment, pet, appointment, booking, plan, preference, or none of them —
by the shipped embedder against labelled example statements (``text/data/fact_kinds.txt``),
never a phrase list: a new phrasing of a known kind is recognised without a new rule.

What is not kept: questions, suppositions ("if I move …", "I could …"), someone else's
clauses, statements closest to "none" (the conversation itself, orders, moods), and negated
statements except where a "not" is the fact (diet, allergies, access needs, contact
preferences). The write boundary still judges every item (absences, instructions, secrets).
"""

from __future__ import annotations

import re
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from memwise.extraction import dates
from memwise.extraction.types import Existing, Proposal
from memwise.text import statements, words
from memwise.text.statements import Statement

MAX_SENTENCE = 300  # characters; customers' sentences are far shorter
# the kinds a "not" belongs to ("doesn't eat pork", "can't do mornings"); elsewhere a negated
# statement is an absence, which memory never keeps as a fact
_NEGATION_HOLDS = frozenset(["diet", "allergy", "health_access", "contact_channel", "contact_time"])
_DATED_KINDS = frozenset(["appointment", "booking", "plan"])
_PREFERENCES = frozenset(["preference", "contact_channel", "contact_time", "language"])
# the least similarity to a kind's closest example, and the least lead over "none", for a
# statement to be kept (chosen on language_en_blind_1, a tuning set since 2026-12-07)
MIN_SIMILARITY = 0.35
MIN_LEAD = 0.05


@dataclass(frozen=True)
class Read:
    """A statement and the sentence it was said in (the proposal's quote)."""

    statement: Statement
    sentence: str


@dataclass(frozen=True)
class Dated:
    """A customer's sentence that names a date (its wording, ``dates.find_phrase``)."""

    sentence: str
    phrase: str


def candidates(sentence: str, found: Sequence[Proposal] = ()) -> list[Read]:
    """The statements of a customer's sentence that could be memory: about the speaker,
    not asked, not supposed, ending on a word of their own ("Their eyesight isn't" is a
    clause cut short), and not already kept by a pattern (most of their words are in one
    of ``found``'s texts). A sentence longer than ``MAX_SENTENCE`` is not read (a paste, a
    log, an attack: the CPU budget of docs/security.md)."""
    if len(sentence) > MAX_SENTENCE:
        return []
    return [
        Read(s, sentence)
        for s in statements.read(sentence)
        if not s.asked
        and not s.conditional
        and not (s.modal and not s.negated)
        and s.text.split()[-1].lower() not in _CUT_SHORT
        and not _covered(s, found)
    ]


# words a clause cut short ends on (an auxiliary or a negation left without its verb)
_CUT_SHORT = frozenset(["is", "isn't", "not", "n't", "does", "doesn't", "has", "was", "will"])


def _covered(s: Statement, found: Sequence[Proposal]) -> bool:
    own = {w for w in s.text.lower().split() if len(w) > 3}
    return any(len(own & set(p.text.lower().split())) * 2 >= len(own) for p in found)


def dated(sentence: str) -> list[Dated]:
    """The sentence with its date wording, when it names a date and says nothing under a
    condition ("if I move next year …")."""
    phrase = dates.find_phrase(sentence) if len(sentence) <= MAX_SENTENCE else None
    if not phrase or any(s.conditional for s in statements.read(sentence)):
        return []
    return [Dated(sentence, phrase)]


class _Examples:
    """The example statements' vectors, per embedder and file."""

    def __init__(self, embedder: Any, name: str) -> None:
        examples = words.labelled(name)
        self.kinds, texts = [k for k, _ in examples], [t for _, t in examples]
        self.names = sorted(set(self.kinds))
        self.vectors = _unit(np.asarray(embedder.embed(texts), dtype=np.float32))
        self.columns = np.asarray([self.names.index(k) for k in self.kinds])


def _unit(v: Any) -> Any:
    return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-9)


_examples_of: weakref.WeakKeyDictionary[Any, dict[str, _Examples]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def kinds(
    embedder: Any, texts: Sequence[str], examples: str = "fact_kinds"
) -> list[dict[str, float]]:
    """Each text's similarity to each kind of ``text/data/<examples>.txt`` (its closest
    example of that kind)."""
    if not texts:
        return []
    with _lock:
        per = _examples_of.setdefault(embedder, {})
        found = per.get(examples)
        if found is None:
            found = per[examples] = _Examples(embedder, examples)
    sims = _unit(np.asarray(embedder.embed(list(texts)), dtype=np.float32)) @ found.vectors.T
    out = []
    for row in sims:
        best = np.full(len(found.names), -1.0, dtype=np.float32)
        np.maximum.at(best, found.columns, row)
        out.append(dict(zip(found.names, map(float, best), strict=True)))
    return out


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:40]


def _key(kind: str, thing: str) -> str | None:
    """The key a kind of fact supersedes under: one home, one role, one value per channel
    preference; a booking, plan or appointment per the thing booked."""
    fixed = {
        "home": "address.city",
        "work": "role",
        "diet": "dietary",
        "contact_channel": "preference.contact_channel",
        "contact_time": "preference.contact_time",
        "language": "preference.language",
    }
    if kind in fixed:
        return fixed[kind]
    if kind in ("appointment", "booking", "plan") and thing:
        return f"{'appointment' if kind != 'plan' else 'plan'}.{_slug(thing)}"
    if kind in ("allergy", "health_access", "vehicle", "equipment", "pet") and thing:
        prefix = {"allergy": "allergy", "health_access": "accessibility"}.get(kind, kind)
        return f"{prefix}.{_slug(thing)}"
    return None


def propose(read: Sequence[Read], embedder: Any | None) -> list[Proposal]:
    """The statements kept as proposals, each with its kind's key and its date wording."""
    if embedder is None or not read:
        return []
    scored = kinds(embedder, [r.statement.text for r in read])
    out = []
    for r, score in zip(read, scored, strict=True):
        kind = max((k for k in score if k != "none"), key=lambda k: score[k])
        if score[kind] < MIN_SIMILARITY or score[kind] < score["none"] + MIN_LEAD:
            continue
        s = r.statement
        if s.negated and kind not in _NEGATION_HOLDS:
            continue
        phrase = dates.find_phrase(s.said) if kind in _DATED_KINDS else None
        item_kind = "event" if phrase else "preference" if kind in _PREFERENCES else "fact"
        out.append(
            Proposal(item_kind, s.text, [r.sentence], key=_key(kind, s.thing), occurs_phrase=phrase)
        )
    return out


# the least lead of a dated sentence's reading ("book", "change") over the others
MIN_MOVE_LEAD = 0.03


def bookings(
    said: Sequence[Dated],
    proposed: Sequence[Proposal],
    existing: Sequence[Existing],
    embedder: Any | None,
) -> list[Proposal]:
    """What the customer's dated sentences do to bookings, read by meaning
    (``text/data/booking_moves.txt``): a sentence that asks for something on a date is a
    booking of the thing it names ("can I book an eye test for this saturday?" → "Asked
    for eye test this saturday"); one that moves a booking ("can we do the Friday instead,
    same time?") is the latest booking of the thing it names — or of this conversation —
    on the new date, under the same key, so it supersedes the old value (a day said without
    a time keeps the old time when applied)."""
    if embedder is None or not said:
        return []
    readings = kinds(embedder, [d.sentence for d in said], "booking_moves")
    events = [p for p in proposed if p.kind == "event" and p.key]
    earlier = [e for e in existing if e.kind == "event" and e.key]
    out: list[Proposal] = []
    for d, reading in zip(said, readings, strict=True):
        reading = {k: reading[k] for k in ("book", "change", "none")}
        move = max(reading, key=lambda k: reading[k])
        lead = reading[move] - max(v for k, v in reading.items() if k != move)
        if move == "none" or lead < MIN_MOVE_LEAD:
            continue
        if any(d.sentence in p.quotes for p in events):
            continue  # a pattern or a statement already read this sentence's booking
        named = statements.things(d.sentence)
        asked = "Asked for" if d.sentence.rstrip().endswith("?") else "Wants"
        target = _booked(named, events, earlier)
        thing = _bookable(named, embedder)
        if (move == "change" and target is not None) or (not thing and target is not None):
            if target is None:
                continue
            thing, key, quotes = target
            made = Proposal(
                "event", f"{asked} {thing} {d.phrase}", [d.sentence, *quotes], key, d.phrase
            )
        else:
            if not thing:
                continue
            made = Proposal(
                "event",
                f"{asked} {thing} {d.phrase}",
                [d.sentence],
                f"appointment.{_slug(thing)}",
                d.phrase,
            )
        out.append(made)
        events.append(made)
    return out


def _bookable(named: Sequence[str], embedder: Any) -> str | None:
    """Of the things a sentence names, the one most like something booked (closer to the
    booked things' examples than to the others')."""
    if not named:
        return None
    scored = kinds(embedder, list(named), "booking_moves")
    lead = [s["thing"] - s["other"] for s in scored]
    best = max(range(len(named)), key=lambda n: lead[n])
    return named[best] if lead[best] > 0 else None


def _booked(
    named: Sequence[str], events: Sequence[Proposal], earlier: Sequence[Existing]
) -> tuple[str, str, list[str]] | None:
    """The booking a move is of: the latest one whose key names a thing the sentence names,
    else the latest of this conversation; its thing, key and quotes."""
    slugs = {_slug(w) for thing in named for w in thing.split()}
    for p in reversed(events):
        assert p.key is not None
        if slugs & set(p.key.split(".")[-1].split("_")):
            return _thing_of(p.key), p.key, list(p.quotes)
    for e in reversed(earlier):
        assert e.key is not None
        if slugs & set(e.key.split(".")[-1].split("_")):
            return _thing_of(e.key), e.key, []
    if events:
        p = events[-1]
        assert p.key is not None
        return _thing_of(p.key), p.key, list(p.quotes)
    return None


def _thing_of(key: str) -> str:
    return key.split(".")[-1].replace("_", " ")
