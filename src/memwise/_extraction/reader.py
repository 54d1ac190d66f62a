"""The offline extractor's reading by meaning: what the customer states of themselves, kept
when its kind is one memory holds.

Statements come off the parse (``memwise._text.statements``: clauses about the speaker,
retold in the third person from their own words). Each takes the kind of fact its meaning
is closest to — home, work, family, diet, allergy, access needs, contact channel and times,
language, vehicle, equipment, pet, appointment, booking, plan, preference, or none of them —
by the shipped embedder against labelled example statements (``_text/data/fact_kinds.txt``),
never a phrase list: a new phrasing of a known kind is recognised without a new rule.

What is not kept: questions, suppositions ("if I move …", "I could …"), someone else's
clauses, statements closest to "none" (the conversation itself, orders, moods), and negated
statements except where a "not" is the fact (diet, allergies, access needs, contact
preferences). The write boundary still judges every item (absences, instructions, secrets).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from memwise._extraction import dates
from memwise._extraction.slots import slug as slugged
from memwise._extraction.types import Existing, Proposal
from memwise._safety import instructions
from memwise._text import statements, words
from memwise._text.normal import norm
from memwise._text.statements import Statement

MAX_SENTENCE = 300  # characters; customers' sentences are far shorter
TURN_CHARS = 1_000  # of a customer's turn, read by the parse (the rest: the patterns)
CONVERSATION_CHARS = 12_000  # of one conversation
MAX_STATEMENTS, MAX_DATED = 60, 12  # of one conversation: what is embedded is bounded too
# proposals of one customer turn, patterns and statements together: the busiest turns of the
# blind sets state about 8 facts, and each proposal costs ~30 ms to check and write
PER_TURN = 10
# a turn longer than this is a paste (a log, a list, an attack) more than a message: the
# parse does not read it, and the patterns keep its first few proposals
LONG_TURN, PER_LONG_TURN = 2_500, 3


def per_turn(turn: str) -> int:
    """How many proposals one customer turn may give."""
    return PER_TURN if len(turn) <= LONG_TURN else PER_LONG_TURN


MAX_BOOKINGS = 8  # of one conversation
TIME_ONLY_WORDS = 15  # a time said alone ("3.30pm ok") is read in a short sentence only
# the kinds a "not" belongs to ("doesn't eat pork", "can't do mornings"); elsewhere a negated
# statement is an absence, which memory never keeps as a fact
_NEGATION_HOLDS = frozenset(["diet", "allergy", "health_access", "contact_channel", "contact_time"])
_DATED_KINDS = frozenset(["appointment", "booking", "plan"])
_PREFERENCES = frozenset(["preference", "contact_channel", "contact_time", "language"])
# the least similarity to a kind's closest example, and the least lead over "none", for a
# statement to be kept (chosen on language_en_blind_1, a tuning set since 2026-12-07)
MIN_SIMILARITY = 0.35
MIN_LEAD = 0.05


class Reading:
    """One conversation's reading: each customer turn is parsed once, its first
    ``TURN_CHARS`` characters (a conversation at most ``CONVERSATION_CHARS``, a turn past
    ``LONG_TURN`` not at all: a parse costs about 50 ms of CPU a thousand characters, and a
    pasted log must not hold the worker); then the statements and dated sentences become
    proposals."""

    def __init__(self) -> None:
        self.stated: list[Read] = []
        self.dated: list[Dated] = []
        self.related: list[Proposal] = []  # "my son Aarav": who the customer's people are
        self.read = 0  # characters parsed so far

    def add(self, turn: str, found: Sequence[Proposal]) -> None:
        """Read a customer's turn (``found``: what the patterns kept from it)."""
        limit = min(TURN_CHARS, CONVERSATION_CHARS - self.read) if len(turn) <= LONG_TURN else 0
        if limit and instructions.scan(turn[:limit]):
            return  # a turn that tries to steer the assistant: none of it is read as memory
        room = per_turn(turn) - len(found)  # proposals this turn may still give
        for piece in statements.pieces(turn, limit):
            self.read += len(piece)
            related = [
                Proposal(
                    "fact",
                    f"Has a {r.relation}, {r.name}",
                    [r.sentence],
                    f"family.{slugged(r.relation)}.{slugged(r.name)}",
                )
                for r in statements.relations(piece)
                if not any(r.name.lower() in p.text.lower() for p in [*found, *self.related])
            ][: max(0, room)]
            supposed = {s.sentence for s in statements.read(piece) if s.conditional}
            stated = candidates(piece, found)[: max(0, room - len(related))]
            room -= len(related) + len(stated)
            self.related += related
            self.stated += stated
            for sentence, named in statements.sentences(piece):
                if sentence not in supposed and len(self.dated) < MAX_DATED:
                    self.dated += [replace(d, named=named) for d in dated(sentence, parsed=False)]
        del self.stated[MAX_STATEMENTS:], self.dated[MAX_DATED:]

    def proposals(
        self,
        proposed: Sequence[Proposal],
        existing: Sequence[Existing],
        meaning: Callable[[], Any] | None,
    ) -> list[Proposal]:
        """The kept statements and bookings (``meaning``: the embedder, when there is one)."""
        embedder = meaning() if meaning is not None and (self.stated or self.dated) else None
        kept = self.related + _one_per_key(propose(self.stated, embedder), proposed)
        return kept + bookings(self.dated, [*proposed, *kept], existing, embedder)


def _one_per_key(read: Sequence[Proposal], proposed: Sequence[Proposal]) -> list[Proposal]:
    """The statements read, those whose key a proposal before them holds from the same
    sentence kept without it: one sentence says one value of a key (a slot's "Prefers to be
    contacted by email" and the reading "Prefers email for anything about orders", both of
    "I prefer email for anything about orders", stood in the profile as a conflict). Left
    out, the reading lost facts its words hold and the slot's do not (language_en_blind_7:
    85 → 83 of 371 kept); kept without its key, it stands beside the slot's value."""
    out: list[Proposal] = []
    for p in read:
        said = [norm(q) for q in p.quotes]
        taken = p.key is not None and any(
            q.key == p.key and any(a in b or b in a for a in said for b in map(norm, q.quotes))
            for q in [*proposed, *out]
        )
        out.append(replace(p, key=None) if taken else p)
    return out


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
    time_only: bool = False  # "3.30pm ok": a time for the booking under way, no day
    named: tuple[str, ...] | None = None  # the things it names, when read with its turn


def candidates(text: str, found: Sequence[Proposal] = ()) -> list[Read]:
    """The statements of a customer's text that could be memory (``_kept``) and that no
    pattern kept already (most of their words are in one of ``found``'s texts), each with
    the sentence it is said in."""
    return [
        Read(s, s.sentence) for s in statements.read(text) if _kept(s) and not _covered(s, found)
    ]


def _kept(s: Statement) -> bool:
    """About the speaker, not asked, not supposed, ending on a word of its own ("Their
    eyesight isn't" is a clause cut short)."""
    return not s.asked and not s.conditional and not (s.modal and not s.negated) and not s.cut_short


def _covered(s: Statement, found: Sequence[Proposal]) -> bool:
    own = {w for w in s.text.lower().split() if len(w) > 3}
    return any(len(own & set(p.text.lower().split())) * 2 >= len(own) for p in found)


def dated(sentence: str, parsed: bool = True) -> list[Dated]:
    """The sentence with its date wording, when it names a date and says nothing under a
    condition ("if I move next year …"; ``parsed=False``: the caller has read that)."""
    if len(sentence) > MAX_SENTENCE:
        return []
    phrase = dates.find_phrase(sentence)
    short = len(sentence.split()) <= TIME_ONLY_WORDS
    if not phrase and short and any(ch.isdigit() for ch in sentence):  # a time is in digits
        return [Dated(sentence, sentence, True)] if dates.time_of(sentence) else []
    if not phrase or (parsed and any(s.conditional for s in statements.read(sentence))):
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
        return f"{'appointment' if kind != 'plan' else 'plan'}.{slugged(thing)}"
    if kind in ("allergy", "health_access", "vehicle", "equipment", "pet") and thing:
        prefix = {"allergy": "allergy", "health_access": "accessibility"}.get(kind, kind)
        return f"{prefix}.{slugged(thing)}"
    return None


def propose(read: Sequence[Read], embedder: Any | None) -> list[Proposal]:
    """The statements kept as proposals, each with its kind's key and its date wording."""
    if embedder is None or not read:
        return []
    scored = kinds(embedder, [r.statement.masked for r in read])
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
# how much less like a booked thing than like another thing a sentence's best thing may be
# (short nouns read weakly: "shoot", "groom", "SUV")
MIN_THING_LEAD = -0.12


def bookings(
    said: Sequence[Dated],
    proposed: Sequence[Proposal],
    existing: Sequence[Existing],
    embedder: Any | None,
) -> list[Proposal]:
    """What the customer's dated sentences do to bookings, read by meaning
    (``_text/data/booking_moves.txt``): a sentence that asks for something on a date is a
    booking of the thing it names ("can I book an eye test for this saturday?" → "Asked
    for eye test this saturday"); one that moves a booking ("can we do the Friday instead,
    same time?") is the latest booking of the thing it names — or of this conversation —
    on the new date, under the same key, so it supersedes the old value (a day said without
    a time keeps the old time when applied)."""
    if embedder is None or not said:
        return []
    said = said[:MAX_DATED]
    readings = kinds(embedder, [d.sentence for d in said], "booking_moves")
    # the things every dated sentence names, read in one pass of the embedder
    every = sorted({t for d in said if not d.time_only for t in _things(d)})
    bookable = {
        t: s["thing"] - s["other"]
        for t, s in zip(every, kinds(embedder, every, "booking_moves"), strict=True)
    }
    events = [p for p in proposed if p.kind == "event" and p.key]
    earlier = [e for e in existing if e.kind == "event" and e.key]
    out: list[Proposal] = []
    for d, reading in zip(said, readings, strict=True):
        if len(out) >= MAX_BOOKINGS:
            break
        if d.time_only:  # a time for this conversation's latest booking, never a new one
            out += _timed(d, events)
            continue
        reading = {k: reading[k] for k in ("book", "change", "none")}
        move = max(reading, key=lambda k: reading[k])
        lead = reading[move] - max(v for k, v in reading.items() if k != move)
        if move == "none" or lead < MIN_MOVE_LEAD:
            continue
        if any(d.sentence in q or q in d.sentence for p in events for q in p.quotes[:1]):
            continue  # a pattern or a statement already read this sentence's booking
        asked = "Asked for" if d.sentence.rstrip().endswith("?") else "Wants"
        named = _things(d)
        target = _booked(named, events, earlier)
        thing = _bookable(named, bookable)
        if (move == "change" and target is not None) or (not thing and target is not None):
            if target is None:
                continue
            thing, key, quotes = target
            phrase = _last_phrase(d.sentence) or d.phrase  # "on saturday … to sunday?"
            made = Proposal(
                "event", f"{asked} {thing} {phrase}", [d.sentence, *quotes], key, phrase
            )
        else:
            if not thing:
                continue
            made = Proposal(
                "event",
                f"{asked} {thing} {d.phrase}",
                [d.sentence],
                f"appointment.{slugged(thing)}",
                d.phrase,
            )
        out.append(made)
        events.append(made)
    return out


def _things(d: Dated) -> tuple[str, ...]:
    return d.named if d.named is not None else tuple(statements.things(d.sentence))


def _last_phrase(sentence: str) -> str | None:
    """The last date wording of a sentence: where a move says its new day ("my mum got a
    dinner on saturday, can we move to sunday?")."""
    found, rest = None, sentence
    for _ in range(4):  # a sentence names a few dates at most; bounded
        phrase = dates.find_phrase(rest)
        if not phrase or phrase not in rest:
            break
        found, rest = phrase, rest[rest.index(phrase) + len(phrase) :]
    return found


def _timed(d: Dated, events: list[Proposal]) -> list[Proposal]:
    """A time said alone ("3.30pm ok", "08:15 please for the follow-up") sets the time of
    the conversation's latest booking (of the thing it names, if it names one); a sentence
    with a statement of its own ("I get off work at 3:30") is not a booking's time."""
    latest = _booked(_things(d), events, [])
    if latest is None or statements.read(d.sentence):
        return []
    thing, key, quotes = latest
    asked = "Asked for" if any(q.rstrip().endswith("?") for q in quotes) else "Wants"
    made = Proposal("event", f"{asked} {thing}", [d.sentence, *quotes], key, d.phrase)
    events.append(made)
    return [made]


def _bookable(named: Sequence[str], lead: dict[str, float]) -> str | None:
    """Of the things a sentence names, the one most like something booked (``lead``: how
    much closer each is to the booked things' examples than to the others')."""
    best = max(named, key=lambda n: lead.get(n, -1.0), default=None)
    return best if best is not None and lead.get(best, -1.0) > MIN_THING_LEAD else None


def _booked(
    named: Sequence[str], events: Sequence[Proposal], earlier: Sequence[Existing]
) -> tuple[str, str, list[str]] | None:
    """The booking a move is of: the latest one whose key names a thing the sentence names,
    else the latest of this conversation; its thing, key and quotes."""
    slugs = {slugged(w) for thing in named for w in thing.split()}
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
