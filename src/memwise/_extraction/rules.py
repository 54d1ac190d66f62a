"""The offline extractor: no model, only patterns, and honest about it.

It reads the customer's own sentences and finds what patterns can find: stated preferences
("I prefer …", "please don't call …"), names and roles, appointments and deadlines with dates,
relocations, errands, and plain stated facts ("I'm allergic to …", "I live in …"). Every
proposal quotes the sentence it came from; the harness checks the quote like any other.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from memwise._extraction import dates, reader, slots
from memwise._extraction.pack import Pack
from memwise._extraction.types import Existing, Extraction, Line, Proposal, ProposedEvent
from memwise._text import language, words

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")
_OPERATIONAL_EVENTS = words.load("operational_events")
_NOT_AN_END = re.compile(r"\b(Dr|Mr|Mrs|Ms|Mx|Prof|St|Jr|Sr|No|Nr|vs|etc|approx)\.|(?<=\d)\.(?=\d)")
# the things a dated sentence books (a data file; longest first, so "check-up" before "check")
_APPOINTMENT_WORDS = "|".join(sorted(words.load("appointments"), key=len, reverse=True))
_ROLE = re.compile(
    r"\b(?i:i'm|i am)\s+(?i:the|a|an)\s+([a-z][\w -]{2,40}?)\s+(?:at|for|with)\s+"
    r"([A-Z][\w&.'-]{1,40}(?: [A-Z][\w&.'-]+)*)"
    r"|\b(?i:i work as) (?:a|an|the)?\s*([a-z][\w -]{2,40}?)(?:\s+(?:at|for)\s+"
    r"([A-Z][\w&.'-]{1,40}(?: [A-Z][\w&.'-]+)*))?"
    r"(?=[,.!?]|$)",
)
_NAME = re.compile(
    r"\b(?i:my name is|call me|this is|i'm|i am)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)"
    r"(?=[\s,.!?]|$)(?!\s+(?:at|from|of|the|a)\b)"
)


def _clean(text: str) -> str:
    return " ".join(text.strip(" ,;:-").split())


def _third_person(clause: str) -> str:
    """'I prefer email for updates' → 'prefers email for updates' (light, honest rewrite)."""
    c = _clean(clause)
    swaps = [
        (r"\bmy\b", "their"),
        (r"\bme\b", "them"),
        (r"\bi'm\b", "is"),
        (r"\bi am\b", "is"),
        (r"\bi've\b", "has"),
        (r"\bi have\b", "has"),
        (r"\bi\b", "they"),
        (r"\bmyself\b", "themselves"),
        (r"\bour\b", "their"),
        (r"\bwe\b", "they"),
    ]
    for pattern, repl in swaps:
        c = re.sub(pattern, repl, c, flags=re.I)
    return c


def _first_clause(text: str) -> str:
    """What was liked, without the reason or the request after it ('mushrooms, so leave them
    off' → 'mushrooms')."""
    return re.split(r",|;|\s+(?:so|because|but|as|since|which|and then|if)\s+", text, maxsplit=1)[0]


def _sentences(line: Line) -> list[str]:
    """The turn's sentences; a title ('Dr.') or a decimal point ('3.50') does not end one."""
    kept = _NOT_AN_END.sub(lambda m: (m.group(1) or "") + "\x00", line.text)
    found = (_clean(s).replace("\x00", ".") for s in _SENTENCE.findall(kept))
    return [s for s in found if len(s) >= 4]


# The languages the offline extractor's rules read. A customer turn detected in another
# language (memwise._text.language) is not read, and the extraction result says so.
READS = frozenset({"en"})

# The offline extractor reads at most this much of one turn: its rules cost about 2–3 ms of
# CPU per thousand characters, and a turn may hold 32,000 (a paste, a log, an attack), which
# would hold the shared worker far past its budget (docs/security.md, "Budgets"). What lies
# beyond is kept in the record and searchable, a model extractor reads it, and the
# extraction result says what was not read.
READ_CHARS = 6000


def _read_part(line: Line) -> tuple[Line, str | None]:
    """The part of a turn the offline extractor reads, cut at a sentence end or a space, and
    what it leaves unread (None: the whole turn is read)."""
    if len(line.text) <= READ_CHARS:
        return line, None
    head = line.text[:READ_CHARS]
    cut = max(head.rfind(mark) for mark in (". ", "! ", "? ", "\n", " "))
    cut = cut + 1 if cut > READ_CHARS // 2 else READ_CHARS
    left = len(line.text) - cut
    note = f"{left:,} characters of a long turn past the first {cut:,} (turn {line.turn_id})"
    return replace(line, text=line.text[:cut]), note


class RuleExtractor:
    """Pattern rules over the customer's own sentences. No model, no network, no cost."""

    name = "rules"
    prompt_version = "rules-1"

    def __init__(self, meaning: Callable[[], Any] | None = None) -> None:
        self.meaning = meaning  # the embedder reading kinds by meaning (_extraction/reader.py)

    def extract(
        self, transcript: Sequence[Line], existing: Sequence[Existing], pack: Pack | Any
    ) -> Extraction:
        items: list[Proposal] = []
        events: list[ProposedEvent] = []
        asked: list[str] = []  # the customer's requests since the assistant last spoke
        not_read: list[str] = []
        reading = reader.Reading()  # what the parse reads, for the kinds by meaning
        other_languages: Counter[str] = Counter()
        for line in transcript:
            if line.role == "assistant":
                for request in asked:
                    task = slots.promised_task(request, line.text)
                    if task is not None:
                        items.append(task)
                asked = []
                continue
            if line.role != "customer":
                continue
            said_in = language.detect(line.text)
            if said_in is not None and said_in.code not in READS:
                other_languages[said_in.name] += 1  # said plainly, never read as English
                continue
            line, unread = _read_part(line)
            if unread:
                not_read.append(unread)
            before = len(items)
            for sentence in _sentences(line):
                found = self._sentence(sentence)
                items += found
                if slots.is_request(sentence):
                    asked.append(sentence)
                events += self._events(sentence, pack)
            del items[before + reader.per_turn(line.text) :]  # a turn states a few facts
            reading.add(line.text, items[before:])
        items += reading.proposals(items, existing, self.meaning)
        not_read += [
            f"not read: language {name} ({n} turn{'s' * (n != 1)}; the offline extractor reads "
            f"{', '.join(language.NAMES[c] for c in sorted(READS))}, a configured model reads any)"
            for name, n in other_languages.most_common()
        ]
        return Extraction(
            items=items,
            events=events,
            not_read=not_read,
        )

    # -- one sentence --------------------------------------------------------------------
    def _sentence(self, s: str) -> list[Proposal]:
        if s.endswith("?"):
            return self._question(s)
        out: list[Proposal] = []
        low = s.lower()
        request = slots.is_request(s)
        out += slots.channels(s) or slots.call_again(s)
        out += slots.contact_time(s)
        out += slots.address_as(s)
        out += (
            [] if any(p.key == "preference.address_as" for p in out) else slots.spelled_name(s)
        ) or self._identity(s)
        out += self._appointment(s, low)
        out += slots.home(s)
        out += slots.family(s)
        out += slots.needs(s)
        out += slots.language(s)
        if not any(p.key == "role" for p in out):
            out += slots.work(s)
        if not request:
            out += self._errand(s, low)
        if not request and not any(p.kind == "preference" for p in out):
            out += self._likes(s, low) or ([] if out else self._fact(s, low))
        return out

    def _question(self, s: str) -> list[Proposal]:
        """A question is not a statement, but a clause before it may be ("I live in Stuttgart,
        do you ship there?"), and a standing request is a preference ("Could you send the
        reminders by SMS from now on?")."""
        out: list[Proposal] = []
        clauses = [c.strip() for c in re.split(r"\s*(?:[,;]|—|–|\s-\s)\s*", s) if c.strip()]
        for clause in clauses[:-1]:
            if len(clause.split()) >= 2 and not slots.is_request(clause):
                out += slots.home(clause) + slots.needs(clause) + slots.family(clause)
                out += slots.work(clause) + slots.language(clause)
        standing = re.search(
            r"\b(?:from now on|in future|in the future|going forward|always|every time|"
            r"each time)\b",
            s,
            re.I,
        )
        if standing:
            out += [p for p in slots.channels(s) if p.key == "preference.contact_channel"]
            out += slots.language(s)
        out += [p for p in slots.needs(s) if p.key == "accessibility.large_print"]
        return out

    def _likes(self, s: str, low: str) -> list[Proposal]:
        m = re.search(
            r"\bi (?:really |do |also |much |still )?(?:prefer|like|love|adore|enjoy)s?"
            r"\s+(.{3,80})",
            s,
            re.I,
        )
        if m and not re.search(
            r"\b(?:to (?:order|buy|know|ask|return|book|check|change|cancel|get|have|see|speak)"
            r"|would (?:like|love)|'d (?:like|love))\b",
            low,
        ):
            what = _clean(_first_clause(m.group(1)).rstrip(".!"))
            verb = "Prefers" if "prefer" in low or "rather" in low else "Likes"
            return [Proposal("preference", f"{verb} {_third_person(what)}", [s])]
        m = re.search(
            r"\bi (?:don't|do not|really don't) (?:like|want)\s+(.{3,80})|\bi (?:hate|dislike)"
            r"\s+(.{3,80})",
            s,
            re.I,
        )
        if m:
            what = _clean(_first_clause(m.group(1) or m.group(2)).rstrip(".!"))
            return [Proposal("preference", f"Dislikes {_third_person(what)}", [s])]
        return []

    def _identity(self, s: str) -> list[Proposal]:
        out = []
        m = _ROLE.search(s)
        if m:
            role = _clean(m.group(1) or m.group(3) or "")
            org = _clean(m.group(2) or m.group(4) or "").rstrip(".")
            text = f"Works as {role}" + (f" at {org}" if org else "")
            out.append(Proposal("fact", text, [s], key="role", entities=[org] if org else []))
        m = _NAME.search(s)
        if m and m.group(1).split()[0].lower() not in words.load("not_names") and not out:
            name = m.group(1)
            surname = re.match(r"\s+([A-Z][a-z]+)\s+(?:from|at|of)\b", s[m.end(1) :])
            if " " not in name and surname:  # "This is Peter Novak from the Linz store"
                name = f"{name} {surname.group(1)}"
            out.append(Proposal("fact", f"Is called {name}", [s], key="name"))
        return out

    def _appointment(self, s: str, low: str) -> list[Proposal]:
        phrase = dates.find_phrase(s)
        m = re.search(rf"\b({_APPOINTMENT_WORDS})\b", low)
        if not phrase or not m:
            return []
        operational = m.group(1) in _OPERATIONAL_EVENTS
        if operational and re.search(r"\b(?:order|parcel|package|shipment|refund)\b", low):
            return []  # when the order arrives is the live account record's
        if re.search(r"\b(?:don'?t|do not|never|no)\s+(?:\w+\s+)?$", low[: m.start()]):
            return []  # "please don't call me today" is not an appointment
        what = m.group(1)
        kind_key = "deadline" if what in ("deadline", "due") else "appointment"
        slot = re.sub(r"[^a-z]", "_", what.split("-")[0])
        said = re.sub(r"^(?:and|so|also|well|oh|ok|okay|but)\s+", "", s, flags=re.I)
        said = re.sub(
            r"^(?:let's|let us|can we|could we|shall we)\s+"
            r"(?:have|do|make|book|set up|schedule)?\s*(?:the|a|an|our)?\s*",
            "",
            said,
            flags=re.I,
        )
        text = _third_person(said)
        text = text.rstrip(".!")
        return [
            Proposal(
                "event",
                text[0].upper() + text[1:],
                [s],
                key=f"{kind_key}.{slot}",
                occurs_phrase=phrase,
            )
        ]

    def _errand(self, s: str, low: str) -> list[Proposal]:
        m = re.search(
            r"\bi (?:still )?(?:need to|have to|must|should|gotta|want to)\s+(.{4,90})", s, re.I
        )
        if not m or re.search(
            r"\b(?:know|ask|check with you|order|buy|be|keep|avoid|watch)\b",
            m.group(1).lower()[:12],
        ):
            return []
        task = _third_person(m.group(1).rstrip(".!"))
        phrase = dates.find_phrase(s)
        return [Proposal("task", f"Needs to {task}", [s], occurs_phrase=phrase)]

    def _fact(self, s: str, low: str) -> list[Proposal]:
        patterns = [
            (
                r"\bi (?:have|own|drive) (?:a|an|two|three|\d+) (?!(?:question|problem|issue|"
                r"query|complaint|request|few|couple|minute|second)\b)(.{3,60})",
                "Has {}",
                None,
            ),
            (
                r"\bmy (budget|size|shoe size|company|team|fleet|birthday|favou?rite \w+) is "
                r"(.{1,60})",
                None,
                None,
            ),
        ]
        for rx, template, key in patterns:
            m = re.search(rx, s, re.I)
            if not m:
                continue
            if template is None:
                slot, value = m.group(1).lower(), _clean(m.group(2).rstrip(".!"))
                return [
                    Proposal(
                        "fact",
                        f"Their {slot} is {value}",
                        [s],
                        key=f"fact.{slot.replace(' ', '_')}",
                    )
                ]
            value = _clean(m.group(1).rstrip(".!"))
            return [Proposal("fact", template.format(_third_person(value)), [s], key=key)]
        return []

    # -- events -----------------------------------------------------------
    @staticmethod
    def _events(s: str, pack: Pack | Any) -> list[ProposedEvent]:
        if not isinstance(pack, Pack):
            return []
        low = s.lower()
        out = []
        for spec in pack.events:
            if not any(t in low for t in spec.triggers):
                continue
            labels = {}
            for label in spec.labels:
                for value in sorted(pack.vocabulary.get(label, []), key=len, reverse=True):
                    if re.search(rf"\b{re.escape(value)}\b", low):
                        labels[label] = value.title()
                        break
            if labels:
                out.append(ProposedEvent(spec.type, labels, s))
        return out
