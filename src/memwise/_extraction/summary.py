"""A session summary, written offline: what the customer wanted, what was decided or done,
what is still open — two to four short sentences, each kept with the turn it came from.

Sentences are chosen by meaning, not by position or phrase lists: every sentence of the
conversation is embedded (the shipped MiniLM, or the configured embedder) and takes the part
whose example sentences (``_text/data/summary_parts.txt``) it is closest to. The summary then
takes the customer's clearest request, the latest and strongest decisions, and the open
points still standing at the end, each rewritten only as far as grammar needs: the
customer's first person becomes "they", the business's becomes "we", and a date said as
"Thursday" or "tomorrow" carries the day it meant, resolved against when it was said.

What a summary may not say is decided where every memory item's text is decided
(:mod:`memwise._safety.boundary`, :mod:`memwise._safety.secrets`): a secret is masked, and a
sentence that states an operational fact as current, an absence or an instruction is left
out. With no embedder installed, the parts are read off the parse instead (a question or a
wish is a request; a future or an obligation is open; a perfect or passive of the business
is done): weaker, and said in the summary's ``method``.
"""

from __future__ import annotations

import functools
import re
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np

from memwise._extraction import dates, harness
from memwise._extraction.types import Line, Part, SummaryProposal
from memwise._safety import boundary, instructions, secrets
from memwise._text import parse, words

PARTS: tuple[Part, ...] = ("wanted", "decided", "open")
MAX_SENTENCE = 220  # characters of one summary sentence
MAX_SENTENCES = 4
MIN_WORDS = 4
_CUSTOMER = ("customer", "user")
_BUSINESS = ("assistant", "operator")


@dataclass(frozen=True)
class Sentence:
    """One sentence of a summary: its part, its text, and the turn it came from."""

    part: Part
    text: str
    turn_id: str
    role: str  # who said what it came from: customer | assistant | operator
    quote: str  # the words of that turn it rewrites
    occurs_on: str | None = None  # the day (or moment) it names, resolved

    def as_dict(self) -> dict[str, Any]:
        return {
            "part": self.part,
            "text": self.text,
            "turn_id": self.turn_id,
            "role": self.role,
            "quote": self.quote,
            "occurs_on": self.occurs_on,
        }


@dataclass
class Summary:
    sentences: list[Sentence] = field(default_factory=list)
    method: str = "meaning"  # meaning (the embedder) | parse (no embedder installed)
    left_out: dict[str, int] = field(default_factory=dict)  # sentences refused, by class

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.sentences)


@dataclass(frozen=True)
class _Said:
    line: Line
    sentence: parse.Sentence  # one sentence of the turn, read once
    scores: dict[str, float]

    @property
    def text(self) -> str:
        return self.sentence.text


@functools.cache
def _examples() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part, sentence in words.labelled("summary_parts"):
        out.setdefault(part, []).append(sentence)
    return out


class _Centroids:
    """The mean vector of each part's examples, per embedder."""

    def __init__(self, embedder: Any) -> None:
        self.embedder = embedder
        examples = _examples()
        self.parts = list(examples)
        rows = []
        for part in self.parts:
            v = np.asarray(embedder.embed(examples[part]), dtype=np.float32).mean(axis=0)
            rows.append(v / (np.linalg.norm(v) or 1.0))
        self.matrix = np.stack(rows)

    def scores(self, texts: Sequence[str]) -> list[dict[str, float]]:
        if not texts:
            return []
        vectors = np.asarray(self.embedder.embed(list(texts)), dtype=np.float32)
        sims = vectors @ self.matrix.T
        return [dict(zip(self.parts, map(float, row), strict=True)) for row in sims]


# each embedder's centroids, kept as long as the embedder lives (never another one's:
# an id() can be reused by a later embedder of another model)
_centroids: weakref.WeakKeyDictionary[Any, _Centroids] = weakref.WeakKeyDictionary()
_centroids_lock = threading.Lock()


def _by_meaning(embedder: Any, texts: Sequence[str]) -> list[dict[str, float]]:
    with _centroids_lock:
        found = _centroids.get(embedder)
        if found is None:
            found = _centroids[embedder] = _Centroids(embedder)
    return found.scores(texts)


def _by_parse(said: Sequence[tuple[Line, parse.Sentence]]) -> list[dict[str, float]]:
    """The parts read off the grammar, when no embedder is installed: a question or a wish
    of the customer is a request, a future, an obligation or a request to act is open, and
    a past, perfect or passive is done."""
    out = []
    for line, sentence in said:
        text = sentence.text
        clauses = parse.parser().parse(text)
        s = dict.fromkeys(("wanted", "decided", "open", "other"), 0.0)
        for c in clauses[:3]:
            future = "will" in c.aux or "'ll" in c.aux or "shall" in c.aux
            if c.asked or c.head in ("like", "want", "need", "wonder", "hope"):
                s["wanted"] += 0.5 if line.role in _CUSTOMER else 0.1
            if future or c.head in ("confirm", "send", "check", "let") or c.modal:
                s["open"] += 0.4
            if c.tag in ("VBN", "VBD") or "have" in c.aux or "'ve" in c.aux:
                s["decided"] += 0.4
        s["other"] = 0.3 if len(text.split()) < 5 else 0.1
        out.append(s)
    return out


MAX_READ = 30  # sentences a summary reads: the first and the last of a long conversation
TRIES = 3  # candidates a part may lose to the write boundary before it is left out
MAX_TURN = 400  # characters of one turn a summary reads: a long paste is read in part
READS = MAX_TURN + 60  # what of a turn its quotes can come from (masking reads a little more)


def _prose(text: str) -> bool:
    """Whether a turn reads as language a summary can retell: mostly letters, and not one
    word or phrase over and over (a pasted log, a flood of digits or punctuation, the same
    line repeated). Counted in one pass over the first ``MAX_TURN`` characters: whatever a
    turn holds, deciding costs next to nothing, and a turn that is not prose costs no parse."""
    head = text[:MAX_TURN]
    letters = sum(c.isalpha() for c in head)
    words = head.lower().split()
    return letters >= 0.6 * len(head.replace(" ", "")) and (
        len(words) < 12 or len(set(words)) >= 0.4 * len(words)
    )


def _sentences(text: str) -> list[parse.Sentence]:
    """The sentences worth a summary's look in a turn's head (one parse): past any
    greeting, of four words or more (a bare "OK, go ahead." says nothing on its own), none
    longer than a summary's sentence."""
    if not _prose(text):
        return []
    return [
        s
        for s in parse.read(text)
        if len(s.text.split()) >= MIN_WORDS and len(s.text) <= MAX_SENTENCE
    ]


# -- rewriting: person and dates ---------------------------------------------------------
def _dated(
    text: str, line: Line, zone: ZoneInfo, dates_at: Sequence[tuple[int, int]], shown_in: str
) -> tuple[str, str | None]:
    """``shown_in`` (the sentence as the summary says it) with the day that ``text``'s date
    wording meant when the wording does not say it ("on Thursday" → "on Thursday (Thu 5
    Mar 2026)"), and that day. Only wording the parser read as a date is resolved
    (``dates_at``): a bare time ("around 7:30") names no day."""
    phrase = dates.find_phrase(text)
    if not phrase:
        return shown_in, None
    at = text.find(phrase)
    if at < 0 or not any(a < at + len(phrase) and b > at for a, b in dates_at):
        return shown_in, None
    found = dates.resolve(phrase, line.at, zone, text)
    if found is None:
        return shown_in, None
    moment = datetime.fromisoformat(found.value)
    month = f"{moment:%B}".lower()
    low = text.lower()
    if str(moment.day) in low and (month in low or month[:3] in low):
        return shown_in, found.value  # the sentence already says the day and the month
    where = shown_in.find(phrase)
    if where < 0:
        return shown_in, found.value
    end = where + len(phrase)
    day = f"{moment:%a} {moment.day} {moment:%b %Y}"
    return f"{shown_in[:end]} ({day}){shown_in[end:]}", found.value


def _clip(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= MAX_SENTENCE:
        return text
    cut = text[: MAX_SENTENCE - 1].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"


def _render(part: Part, said: _Said, zone: ZoneInfo) -> Sentence:
    """The summary's sentence: the customer's words retold as "they", the business's as
    "we" (a summary never puts the business's words in the customer's mouth)."""
    role = said.line.role
    s = said.sentence
    retold = s.as_customer if role in _CUSTOMER else s.as_business
    text, occurs_on = _dated(s.text, said.line, zone, s.dates, retold)
    wish = s.wish if part == "wanted" and role in _CUSTOMER else None
    if wish is not None:
        body = f"Wanted {wish}"
    else:
        if part == "wanted":
            lead = "Asked" if s.text.rstrip().endswith("?") else "Said"
        else:
            lead = {"decided": "Agreed", "open": "Open"}[part]
        body = f"{lead}: {text[:1].lower() + text[1:] if _lowerable(text) else text}"
    body = _clip(body)
    if body[-1] not in ".?!…":
        body += "."
    role_kept = "customer" if role in _CUSTOMER else role
    return Sentence(part, body, said.line.turn_id, role_kept, s.text, occurs_on)


def _lowerable(text: str) -> bool:
    first = text.split(" ", 1)[0]
    return first.isalpha() and first[1:].islower() and first not in ("I",) and first != "They"


# -- choosing ----------------------------------------------------------------------------
def refusal(text: str) -> str | None:
    """Why ``text`` may not be in a summary (the boundary's class), or None. A request
    retold ("Wanted to order the walnut desk", "Asked: where is order 4410?") states no
    order's state, so the operational class does not read it; every other class does."""
    if instructions.scan(text):
        return "instruction"
    verdict = boundary.classify(text, None, second_look=False, kind="summary")
    if verdict is None or (verdict.kind == "operational" and text.startswith(_REQUESTS)):
        return None
    return verdict.kind


_REQUESTS = ("Wanted to ", "Asked: ")


def summarise(
    transcript: Sequence[Line], zone: ZoneInfo, embedder: Any | None = None
) -> Summary | None:
    """The summary of one conversation, or None when nothing in it can be grounded."""
    said: list[tuple[Line, parse.Sentence]] = []
    for line in transcript:
        if line.role not in _CUSTOMER + _BUSINESS or not line.text.strip():
            continue
        # what a summary reads of a turn: its head, secrets masked before it is cut (a card
        # number across the cut is still found), then cut at a space
        if not _prose(line.text):  # decided on the words as said, before any masking
            continue
        head = secrets.redact(line.text[:READS])
        if len(head) > MAX_TURN:
            cut = head[:MAX_TURN]
            head = cut[: cut.rindex(" ")] if " " in cut else cut
        if instructions.scan(head):  # a turn that tries to steer the assistant: none of its
            continue  # sentences is retold (it stays in the record, as data)
        said += [(line, s) for s in _sentences(head)]
    if len(said) > MAX_READ:  # bounded work: how it began and how it ended
        said = said[: MAX_READ // 2] + said[-MAX_READ // 2 :]
    if not any(line.role in _CUSTOMER for line, _ in said):
        return None
    method = "meaning" if embedder is not None else "parse"
    scores = (
        _by_meaning(embedder, [t.text for _, t in said])
        if embedder is not None
        else _by_parse(said)
    )
    items = [_Said(line, text, s) for (line, text), s in zip(said, scores, strict=True)]
    out = Summary(method=method)

    def part_of(s: _Said) -> str:
        return max(s.scores, key=lambda p: s.scores[p])

    def margin(s: _Said, part: str) -> float:
        return s.scores[part] - max(v for p, v in s.scores.items() if p != part)

    def asked(s: _Said) -> bool:
        return s.text.rstrip().endswith("?")

    n = len(items)
    customers = [s for s in items if s.line.role in _CUSTOMER]
    early = customers[: max(3, len(customers) // 2)]
    wanted = sorted(early, key=lambda s: -(s.scores["wanted"] - 0.02 * early.index(s)))
    decided = [
        s for s in items if part_of(s) == "decided" and not asked(s) and not s.sentence.choice
    ]
    decided.sort(key=lambda s: -(margin(s, "decided") + 0.15 * items.index(s) / n))
    opened = [
        s for s in items if part_of(s) == "open" and not asked(s) and items.index(s) >= n // 3
    ]
    opened.sort(key=lambda s: -(margin(s, "open") + 0.15 * items.index(s) / n))
    chosen: list[tuple[str, _Said, Sentence]] = []
    for part, pool, room in zip(PARTS, (wanted, decided, opened), (1, 2, 1), strict=True):
        for s in pool[: room + TRIES]:  # bounded work: a few refusals, then the part is left
            if room == 0 or len(chosen) >= MAX_SENTENCES:
                break
            if any(s is c for _, c, _ in chosen):
                continue
            sentence = _render(part, s, zone)
            why = refusal(sentence.text) or (
                # read in the speaker's own words: retold, "I" is "they", someone else
                "absence" if s.line.role in _CUSTOMER and boundary.absent(s.text) else None
            )
            if why is not None:  # left out, and the next best is looked at
                out.left_out[why] = out.left_out.get(why, 0) + 1
                continue
            chosen.append((part, s, sentence))
            room -= 1
    chosen.sort(key=lambda c: (PARTS.index(c[0]), items.index(c[1])))
    out.sentences = [sentence for _, _, sentence in chosen]
    if not any(s.role == "customer" for s in out.sentences):
        return None  # nothing of the customer's own is grounded: no summary
    return out


CLOSES = 0.5  # cosine between an open point and what a later conversation said of it


def closing(open_points: Sequence[str], later: Sequence[str], embedder: Any | None) -> list[int]:
    """Which of an earlier summary's open points a later conversation closes: the later
    one says something close in meaning to the point (the embedder: cosine at least
    ``CLOSES``) that shares a content word with it. With no embedder, nothing is closed —
    a point is never marked closed on a guess."""
    if embedder is None or not open_points or not later:
        return []
    a = np.asarray(embedder.embed(list(open_points)), dtype=np.float32)
    b = np.asarray(embedder.embed(list(later)), dtype=np.float32)
    sims = a @ b.T
    out = []
    for i, row in enumerate(sims):
        best = int(row.argmax())
        if float(row[best]) >= CLOSES and harness.shares_meaning(open_points[i], later[best]):
            out.append(i)
    return out


def from_model(
    proposed: Sequence[SummaryProposal], transcript: Sequence[Line], zone: ZoneInfo
) -> Summary | None:
    """A model's summary, held to what the offline one is held to: each sentence must
    retell words found in a turn (word for word, or with a few typos) — the turn decides
    who said them, whatever the model claims, so the business's words never become the
    customer's — share a content word with them, hold no number that neither those words
    nor the day they name hold, and pass :func:`refusal`; a turn that tries to steer the
    assistant gives no sentence. None when no sentence of the customer's is left."""
    if not proposed:
        return None
    steering = {line.turn_id for line in transcript if instructions.scan(line.text[:READS])}
    heads = [replace(x, text=x.text[:READS]) for x in transcript]  # what a summary reads
    checkers = {
        "customer": harness.QuoteChecker([x for x in heads if x.role in _CUSTOMER]),
        "business": harness.QuoteChecker(
            [replace(x, role="customer") for x in heads if x.role in _BUSINESS]
        ),
    }
    by_id = {line.turn_id: line for line in transcript}
    out = Summary(method="model")
    for p in proposed[:MAX_SENTENCES]:
        if p.part not in PARTS or len(p.text) > MAX_SENTENCE + 80:
            out.left_out["ungrounded"] = out.left_out.get("ungrounded", 0) + 1
            continue
        order = ("customer", "business") if p.said_by == "customer" else ("business", "customer")
        found = next((f for who in order if (f := checkers[who].find(p.quote))), None)
        line = by_id.get(found.turn_id) if found else None
        if found is None or line is None or line.turn_id in steering:
            out.left_out["ungrounded"] = out.left_out.get("ungrounded", 0) + 1
            continue
        text = " ".join(p.text.split())
        named = _numbers(found.quote) | _day_numbers(found.quote, line, zone)
        if not harness.shares_meaning(text, found.quote) or not _numbers(text) <= named:
            out.left_out["ungrounded"] = out.left_out.get("ungrounded", 0) + 1
            continue
        why = refusal(text) or (
            "absence" if line.role in _CUSTOMER and boundary.absent(found.quote) else None
        )
        if why is not None:
            out.left_out[why] = out.left_out.get(why, 0) + 1
            continue
        role = "customer" if line.role in _CUSTOMER else line.role
        occurs_on = _quote_day(found.quote, line, zone)
        out.sentences.append(
            Sentence(p.part, _clip(text), line.turn_id, role, found.quote, occurs_on)
        )
    if not any(s.role == "customer" for s in out.sentences):
        return None
    return out


def _quote_day(quote: str, line: Line, zone: ZoneInfo) -> str | None:
    """The day (or moment) the quote's date wording names, resolved, if any."""
    for sentence in parse.read(quote):
        _, value = _dated(sentence.text, line, zone, sentence.dates, sentence.text)
        if value is not None:
            return value
    return None


def _numbers(text: str) -> set[str]:
    return {n.lstrip("0") or "0" for n in re.findall(r"\d+", text)}


def _day_numbers(quote: str, line: Line, zone: ZoneInfo) -> set[str]:
    """The numbers of the day a quote's date wording names ("Friday" said on 2 March 2026:
    6, 3, 2026), which a model may write out."""
    value = _quote_day(quote, line, zone)
    if value is None:
        return set()
    moment = datetime.fromisoformat(value)
    return {
        str(moment.day),
        str(moment.month),
        str(moment.year),
        str(moment.hour),
        f"{moment.minute}",
    }
