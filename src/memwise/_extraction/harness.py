"""The harness around any extractor: quotes are checked against the contact's own turns.

A quote counts only when it is found in a customer turn (never the assistant's, an
operator's or a tool's) word for word after normalising case, punctuation, quote marks and
contractions ("I'd" is "I would") — on word boundaries, with at least two content words (or
the whole turn); an ellipsis may leave words out between parts found in order. A near match
forgives a typo or two, never a different word, a negation or a number ("I am allergic to
walnuts" is not "I am allergic to peanuts"). What is kept is the turn's own words.

Then the item must be grounded in its quotes alone: every number and every name in the
item's text is in them, and its other content words (all but one of four or more); and the
clause that says it must state it — not ask it ("Munich in March? No, I'm staying in
Hamburg."), not negate it ("I'm not vegetarian"), not suppose it ("If I ever moved to
Vienna"), not say it of someone else ("My neighbour is allergic to peanuts, not me") —
unless the item says so too. An item with no verified, grounding quote is discarded.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz
from rapidfuzz.distance import DamerauLevenshtein

from memwise._domain.memory import Evidence
from memwise._extraction.dates import CARDINALS
from memwise._extraction.types import Line, Proposal, ProposedEvent
from memwise._safety import secrets
from memwise._text import parse
from memwise._text import words as wordlists
from memwise._text.find import Budget, Joined, Searchable, masked
from memwise._text.lexical import STOPWORDS, snowball
from memwise._text.normal import norm, words_at

MIN_CONTENT_WORDS = 2
# Words an item's wording adds around what the customer said: never evidence on their own.
TEMPLATE_WORDS = wordlists.load("item_template")

# The same thing said in other words (an item may say "phone" for "don't call me").
SAME = [
    {"phone", "call", "ring", "telephon", "landlin", "mobil", "cell"},
    {"email", "mail", "inbox"},
    {"sms", "text", "messag", "whatsapp", "signal", "telegram"},
    {"vegetarian", "veggi"},
    {"kid", "kids", "child", "children"},
    {"son", "boy"},
    {"daughter", "girl"},
    {"speak", "languag", "spoken"},
    {"move", "reloc", "live", "home", "base", "resid"},
]


@dataclass
class Verified:
    items: list[tuple[Proposal, list[Evidence]]] = field(default_factory=list)
    events: list[tuple[ProposedEvent, Evidence]] = field(default_factory=list)
    discarded: int = 0
    # what was discarded, why: too_long, not_the_customers_words, not_grounded (quotes don't say it)
    dropped: list[tuple[str, str]] = field(default_factory=list)


def content_words(text: str) -> list[str]:
    return [w for w in norm(text).split() if w not in STOPWORDS and len(w) > 1]


def _stems(text: str) -> set[str]:
    return {snowball(w) for w in content_words(text)}


# An ellipsis in a quote leaves words out: each part must be found, in order, in one turn.
_ELLIPSIS = re.compile(r"\s*(?:\[\s*(?:\.\.\.|…)\s*\]|\.\.\.+|…)\s*")
_CONTRAST = r"\b(?:but|though|although|whereas)\b"  # ends a clause (_BOUNDARY) and an ellipsis


# Words whose change turns a statement around: a near-match never differs in them.
NEGATIONS = wordlists.load("negations")


NEAR_WORK = 100_000_000  # what one checker's near searches compare (_text.find): ~0.1 s CPU


class QuoteChecker:
    """Finds a quote in the customer's own turns: word for word after normalising, or with
    a few typos (each differing word close in spelling, never a negation or a number). An
    ellipsis may skip words within one sentence, never a negation. What is returned is the
    turn's own words, with any secret of the turn that they touch masked; ``context`` keeps,
    for each quote returned, the clauses of its turn around it (what grounding reads)."""

    def __init__(self, transcript: Sequence[Line], threshold: float = 90.0) -> None:
        self.lines = list(transcript)
        self.said = [line for line in transcript if line.role == "customer"]
        self.joined = Joined([line.text for line in self.said])  # one search finds the turns
        self.threshold = threshold
        self.context: dict[tuple[str, str], list[str]] = {}
        self._hidden: dict[str, list[secrets.Finding]] = {}  # each turn's secrets, found once
        self._near = Budget(NEAR_WORK)  # past it, a quote is found word for word or not at all

    def find(self, quote: str, min_words: int = MIN_CONTENT_WORDS) -> Evidence | None:
        parts = [p for q in _ELLIPSIS.split(quote) if (p := [w for w, _, _ in words_at(q)])]
        said = [w for p in parts for w in p]
        content = [w for w in said if w not in STOPWORDS and len(w) > 1]
        if not content:
            return None
        content += [w for w in said if w in NEGATIONS]  # "I'm not vegetarian" says two things
        if len(content) < MIN_CONTENT_WORDS and len(said) >= 3:
            content.append("")  # "I'm vegetarian": three words, one of them content, is enough
        coded = [(p, self.joined.words.code(p)) for p in parts]
        for fuzzy in (False, True):
            if fuzzy and (len(content) < MIN_CONTENT_WORDS or len(" ".join(said)) < 8):
                return None
            near = max(1, len(parts[0]) // 5) if fuzzy else None
            for k in self.joined.holding(coded[0][1], near, self._near):  # the first part's
                line, turn = self.said[k], self.joined.texts[k]
                spans = self._locate(coded, line.text, turn, fuzzy)
                if spans is None:
                    continue
                whole = len(said) == len(turn.words)
                if len(content) < min_words and not whole:
                    continue
                if line.turn_id not in self._hidden:
                    self._hidden[line.turn_id] = secrets.find(line.text)
                hidden = [(f.span, f"[{f.kind}]") for f in self._hidden[line.turn_id]]
                text = " … ".join(masked(line.text, a, b, hidden) for a, b in spans)
                kept = " ".join(text.split())
                self.context[(line.turn_id, kept)] = [_around(line.text, a, b) for a, b in spans]
                return Evidence(line.turn_id, kept, line.at)
        return None

    def _locate(
        self, parts: list[tuple[list[str], list[int]]], text: str, turn: Searchable, fuzzy: bool
    ) -> list[tuple[int, int]] | None:
        spans: list[tuple[int, int]] = []
        words, at = turn.words, 0
        for part, code in parts:
            found = self._window(part, code, turn, at, fuzzy)
            if found is None:
                return None
            i, j = found
            if spans:  # what an ellipsis leaves out: one clause of one sentence, no negation
                skipped = _ELLIPSIS.sub(" ", text[spans[-1][1] : words[i][1]])
                said = re.search(rf"[.!?;:\n]|{_CONTRAST}", skipped, re.I)
                if said or any(w in NEGATIONS for w, _, _ in words[at:i]):
                    return None
            spans.append((words[i][1], words[j - 1][2]))
            at = j
        return spans

    def _window(
        self, part: list[str], code: list[int], turn: Searchable, start: int, fuzzy: bool
    ) -> tuple[int, int] | None:
        """Where ``part`` is first said from word ``start`` on: word for word, or near."""
        n = len(part)
        if not fuzzy:
            i = turn.exact(code, start)
            return (i, i + n) if i is not None else None
        for i in turn.near(code, start, max(1, n // 5), self._near):
            if self._close(part, [w for w, _, _ in turn.words[i : i + n]]):
                return i, i + n
        return None

    def _close(self, quote: list[str], window: list[str]) -> bool:
        differ = [(a, b) for a, b in zip(quote, window, strict=True) if a != b]
        if len(differ) > max(1, len(quote) // 5):
            return False
        for a, b in differ:
            if not (a.isalpha() and b.isalpha()) or min(len(a), len(b)) < 4:
                return False
            if a in NEGATIONS or b in NEGATIONS or a.endswith(b) or b.endswith(a):
                return False  # nor a prefix: "impossible" is not a typo of "possible"
            if DamerauLevenshtein.distance(a, b) > (1 if max(len(a), len(b)) < 8 else 2):
                return False  # a typo, not another word ("pecans" is not "peanuts")
        return fuzz.ratio(" ".join(quote), " ".join(window)) >= self.threshold

    def evidence(self, quotes: Sequence[str]) -> list[Evidence]:
        found = [e for e in (self.find(q) for q in quotes) if e is not None]
        unique = {(e.turn_id, e.quote): e for e in found}
        return list(unique.values())

    def before(self, evidence: Sequence[Evidence], turns: int = 2) -> list[str]:
        """The texts of the few turns just before the quotes' turns, the customer's or the
        assistant's (never a tool's output or an operator's note): what they answer."""
        said = [line for line in self.lines if line.role in ("customer", "assistant")]
        at = {line.turn_id: i for i, line in enumerate(said)}
        spans = [(max(0, at.get(e.turn_id, 0) - turns), at.get(e.turn_id, 0)) for e in evidence]
        return [line.text for a, b in spans for line in said[a:b]]

    def around(self, evidence: Sequence[Evidence]) -> list[str]:
        """The clauses of the turns around these quotes (the quotes themselves if unknown)."""
        out: list[str] = []
        for e in evidence:
            out += self.context.get((e.turn_id, e.quote), [e.quote])
        return out


# where a clause of a turn ends (what grounding reads around a quote)
_BOUNDARY = re.compile(
    rf"[.;:!?…]+|,|\n|\s[-–—]\s|{_CONTRAST}"
    r"|\band\b(?=\s+(?:i|i'm|i've|i'd|we|my|our|he|she|they|his|her|their)\b)",
    re.I,
)


def _around(text: str, a: int, b: int) -> str:
    """The clauses of ``text`` the span ``a:b`` lies in, with what ends the last one (so a
    question keeps its "?")."""
    start, end = 0, len(text)
    for m in _BOUNDARY.finditer(text):
        if m.end() <= a:
            start = m.end()
        elif m.start() >= b:
            end = m.end()
            break
    return text[start:end].strip()


# -- grounding -------------------------------------------------------------------------------
# An item that says the opposite of a negated clause needs a negation of its own; a few
# words carry one in their meaning ("Vegetarian" from "I don't eat meat") — unless the
# clause negates that very word ("I'm not vegetarian").
_INHERENTLY_NEGATIVE = wordlists.load("negative_by_nature")
_HYPOTHETICAL = wordlists.load("supposing")
# someone else than the customer, when a clause is said of them (a data file: text/data)
OTHERS = wordlists.load("people")
_REPORTED = wordlists.load("reporting")
_FORMER = wordlists.load("former")
_DESIRE = wordlists.load("desire")
_NUMBER_WORDS = {w: str(n) for w, n in CARDINALS.items()}
_SCALES = frozenset(["hundred", "thousand", "million", "billion", "trillion", "k", "bn", "dozen"])


# A clock time is one number, so its minutes never ground another ("Is 15 years old" from
# "at 8:15"): the parser's TIME entities cover "tonight" too and cost a parse; dateparser gives
# no spans. Linear. Blind sets honesty_blind_3/4/5, language_en_blind_3: no figure changes.
_TIME = re.compile(r"(?<![\d.:])(\d{1,2})[:.](\d{2})(?![\d:])")


def _numbers(text: str) -> set[str]:
    """The numbers a text says, in digits ("forty-five" is 45, "two" is 2), and its scales; a
    time is one number ("8:15", "8.15": never the 15 of "Is 15 years old")."""
    times = _TIME.findall(text)
    low = norm(_TIME.sub(" ", text)).replace("-", " ")
    found = {f"{int(h)}:{m}" for h, m in times} | set(re.findall(r"\d+", low))
    words = low.split()
    for i, w in enumerate(words):
        if w in _NUMBER_WORDS:
            n = int(_NUMBER_WORDS[w])
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if n >= 20 and nxt in _NUMBER_WORDS and int(_NUMBER_WORDS[nxt]) < 10:
                found.add(str(n + int(_NUMBER_WORDS[nxt])))
            found.add(str(n))
        elif w in _SCALES or re.fullmatch(r"\d+(?:k|m|bn)", w):
            found.add(w)
    return found


_ASKING = wordlists.load("asking")


def _clauses(text: str) -> list[tuple[list[str], bool]]:
    """The clauses of a text as normalised words, each with whether it is asked, not said:
    the clause before a "?", or one that opens as a question in a sentence ending with one
    ("Would a vegan meal be available, or …?"); a polite request ("Could you …?") asks
    nothing."""
    out: list[tuple[list[str], bool]] = []
    at = 0
    for m in [*_BOUNDARY.finditer(text), None]:
        piece, end = (text[at:], "") if m is None else (text[at : m.start()], m.group())
        words = [w for w, _, _ in words_at(piece)]
        if words:
            request = (
                words[:2] in (["could", "you"], ["can", "you"], ["would", "you"], ["will", "you"])
                or words[0] == "please"
            )
            sentence_end = re.search(r"[.!?…]", text[m.start() if m else len(text) :])
            opens = words[0] in _ASKING and sentence_end is not None and "?" in sentence_end.group()
            out.append((words, ("?" in end or opens) and not request))
        if m is not None:
            at = m.end()
    return out


@functools.cache
def _cue(label: str) -> re.Pattern[str]:
    """The words by which an item says it is negated, tentative, former, past, reported or
    asked (``_text/data/item_cues.txt``, literal alternatives: linear): a model's notes ("Dairy-
    free", "No longer smokes") have no clause the parser reads so. The six regexes of before."""
    cues = [c for lab, c in wordlists.labelled("item_cues") if lab == label]
    alts = [
        (r"\w+" if c.startswith("*") else "")
        + re.escape(c.strip("*"))
        + (r"\w*" if c.endswith("*") else "")
        for c in cues
    ]
    return re.compile(rf"\b(?:{'|'.join(alts)})\b", re.I)


def _negation_ok(words: list[str], item: str, item_words: set[str]) -> bool:
    if _cue("negation").search(item):
        return True
    return bool(item_words & _INHERENTLY_NEGATIVE - set(words))


def attribution(
    text: str, context: Sequence[str], quotes: Sequence[str] = ()
) -> tuple[parse.Who, str, str]:
    """Whom the quoted clause is about, read off the parse (``memwise._text.parse``): of the
    clauses around the quotes that the quotes touch, the ones holding most of the item's
    words decide — the customer ("speaker", or "household" for "we"), someone else
    ("other", with the words that name them: "My sister-in-law Priya", "Joan", "she"), or
    no one in particular ("none"). Also returns the deciding clause's own text."""
    wanted = _same(set(content_words(text))) - {snowball(w) for w in TEMPLATE_WORDS}
    best: list[tuple[parse.Clause, str]] = []
    touched: list[tuple[parse.Clause, str]] = []
    score = 0
    for said in context:
        low = said.lower()
        spans = [(at, at + len(q)) for q in quotes if (at := low.find(q.lower())) >= 0]
        for clause in parse.parser().parse(said):
            if spans and not any(clause.start < b and clause.end > a for a, b in spans):
                continue  # a clause the quote does not touch says nothing of it
            own = said[clause.start : clause.end]
            touched.append((clause, own))
            n = len(_same(set(content_words(own))) & wanted)
            if n > score:
                best, score = [(clause, own)], n
            elif n == score and n:
                best.append((clause, own))
    for who in ("speaker", "household", "other"):  # said in other words: what it touches
        for clause, own in best or touched:
            if clause.who == who:
                return who, clause.name, own
    return "none", "", ""


def names(text: str, name: str, clause: str) -> bool:
    """Whether the item names whom its clause is about: a word of their name ("Priya",
    "sister"); for "he", "she" or "they", a person word or a name that the clause itself
    does not hold ("Colleague is a platinum member", not "Platinum member")."""
    item = {w.split("'")[0] for w in norm(text).split()}
    person = {w.split("'")[0] for w in parse.people(name)}  # "mum" of "my mum's ipad"
    named = (
        (person or {w.split("'")[0] for w in norm(name).split()})
        - STOPWORDS
        - {"my", "our", "mine"}
    )
    people = wordlists.load("people")
    if named - parse.PRONOUNS:  # "Father lives with …" names "my dad": any person word does,
        return bool(_same(named) & _same(item) or item & people)  # checked against the turn
    own = {w.split("'")[0] for w in norm(clause).split()}
    capitals = {norm(w) for w in text.split()[1:] if w[:1].isupper()} & parse.people(text)
    return bool((item & people | capitals) - own)  # a person's name, not "Perth, Australia"


def _names_whom(text: str, quotes: str) -> bool:
    """Whether an item names the person its quotes speak of, when they speak of someone:
    a quote that says "he", "my husband", "Joan" or "the dog" grounds "Husband takes
    metformin" or "Has a greyhound called Pip", never a bare "Takes metformin"."""
    mentioned = parse.people(quotes)
    if not mentioned or parse.SELF & {w for w, _, _ in words_at(quotes)}:  # "i'm" is "i am"
        return True  # "My husband and I are … retired teachers": said of the customer too
    item = {w.split("'")[0] for w in norm(text).split()}
    if _same(item) & _same(set(mentioned)) or item & parse.THIRD:
        return True  # the item names them as the quote does
    words = OTHERS | wordlists.load("animals")
    # a quote that says only "he" or "Joan" is named by any person word ("Father died …")
    return bool(item & words) and not mentioned & words


def predicate(text: str) -> str:
    """What an item text says of its subject, as a lemma: the head of its first clause, or
    for "is …" the word it is ("allergic" in "Is allergic to peanuts")."""
    first = text.split()[0].lower() if text.split() else ""
    subject = first in parse.PRONOUNS | {"my", "our", "the", "a", "an"}  # else a note's verb
    said = text if subject else f"The customer {text[:1].lower()}{text[1:]}"
    clauses = parse.parser().parse(said)
    if clauses and not subject and clauses[0].head == "customer":  # "Safe with penicillin"
        clauses = parse.parser().parse(f"The customer is {text[:1].lower()}{text[1:]}")
    if not clauses:
        return ""
    c = clauses[0]
    rest = [w for w in c.lemmas[c.lemmas.index(c.head) + 1 :] if w not in STOPWORDS]
    return rest[0] if c.head == "be" and rest else c.head


def shares_meaning(new: str, old: str) -> bool:
    """Whether two item texts share a content word (a stem, or words that say the same):
    what tells a correction from an unrelated item when no embedder is installed."""
    return bool(_same(set(content_words(new))) & _same(set(content_words(old))))


def key_about(text: str, key: str, context: Sequence[str], evidence: Sequence[Evidence]) -> str:
    """The item's key, under the person it is about when that is not the customer: "Sister-
    in-law lives in Denpasar" proposed as ``home.city`` is kept as
    ``people.sister_in_law.home.city``, so it never supersedes the customer's own city."""
    who, name, _ = attribution(text, context, [e.quote for e in evidence])
    if who != "other":
        return key
    item = [w.split("'")[0] for w in norm(text.replace("-", "_")).split()]
    named = [w for w in norm(name.replace("-", "_")).split() if w not in STOPWORDS]
    people = OTHERS | {p.replace("-", "_") for p in OTHERS}
    whom = next((w for w in item if w in people or w.split("_")[0] in people), None)
    whom = whom or next((w for w in named if w in item), None) or "someone"
    prefix = f"people.{re.sub(r'[^0-9a-z_]', '_', whom) or 'someone'}."  # a key's own letters
    return key if key.startswith(prefix) else (prefix + key)[:200].rstrip(".")  # a key's form


# verbs of a state that has ended; not "moved", "married", "retired", which start one
_GONE = wordlists.load("ended_states")


def _past(before: list[str]) -> bool:
    """Whether the customer says it of a time gone: "I was a smoker", "We had a dog", "I
    worked as a nurse" (not "I've had this phone for years", not "I'm interested")."""
    for k in range(1, len(before)):
        if before[k - 1] in ("i", "we") and before[k] in _GONE:
            return before[k - 2 : k - 1] not in (["have"], ["has"])
    return False


def _reported(before: list[str]) -> bool:
    """Whether someone other than the customer says it: "the letter says I'm…", "according
    to your system…", "people tell me I'm…" (not "As I said, I prefer email")."""
    for k, w in enumerate(before):
        if w == "according" or (w in _REPORTED and before[k - 1 : k] != ["i"]):
            return before[k - 2 : k] != ["as", "i"]
    return False


def _clause_ok(
    words: list[str], asked: bool, hits: list[int], item: str, kind: str | None = None
) -> bool:
    """Whether a clause holding the item's words states it: said, not asked; not negated,
    wished, supposed, reported or (for a lasting fact or preference) past before them unless
    the item says so too. Whom it is about is read by the parser (``attribution``)."""
    if asked and not _cue("asked").search(item):  # "Asked about: the Alpine 2" may quote a question
        return False
    item_words = {w.split("'")[0] for w in norm(item).split()} | set(norm(item).split())
    before = words[: max(hits) + 1]
    if any(w in NEGATIONS for w in before) and not _negation_ok(words, item, item_words):
        return False
    wished = [w for k, w in enumerate(before) if w in _DESIRE and before[k - 1 : k] != ["not"]]
    supposed = (
        bool(wished)
        or any(w in _HYPOTHETICAL for w in before)
        or any(
            before[k] == "would" and before[k + 1] in ("love", "like", "prefer", "hate")
            for k in range(len(before) - 1)
        )
    )
    if supposed and not _cue("tentative").search(item):
        return False
    former = any(w in _FORMER for w in before) and not (
        "used" in before and "to" not in before  # "I used the app" is not "used to"
    )
    if former and not _cue("former").search(item):
        return False
    lasting = kind in ("fact", "preference")
    if lasting and _past(before) and not _cue("past").search(item):
        return False
    return not (_reported(words[: min(hits)]) and not _cue("reported").search(item))


_BEING = frozenset(["is", "was", "are", "were", "has", "had", "remains", "stays"])


def _prefix_of(stem: str, stems: set[str]) -> bool:
    """Stems of one word the stemmer cut apart ("allerg" and "allergi")."""
    return len(stem) >= 5 and any(
        len(s) >= 5 and (s.startswith(stem) or stem.startswith(s)) for s in stems
    )


def _same(words: set[str]) -> set[str]:
    """Stems, with the words that say the same ("kids" and "children")."""
    stems = {snowball(w) for w in words}
    return stems.union(*(g for g in SAME if g & stems))


# an item that says this is grounded by a quote that says that
_ENTAILED = [
    (
        re.compile(r"\bdislik\w*|\bhates?\b", re.I),
        re.compile(
            r"\b(?:(?:not|never) (?:want|like|love|enjoy|care for|fancy)|hate|hates|detest|"
            r"can not stand)\b",
            re.I,
        ),
        "dislik",
    ),
    (
        re.compile(r"\blives? in\b", re.I),
        re.compile(r"\b(?:i am|we are) (?:now |currently |based |living )?in\b", re.I),
        "live",
    ),
    (re.compile(r"\bworks? as an?\b", re.I), re.compile(r"\bi am an?\b", re.I), "work"),
    (
        re.compile(r"\b(?:vegetarian|vegan)\b", re.I),
        re.compile(r"\b(?:do not|does not|never|no longer|not) eat (?:any )?(?:meat|animal)", re.I),
        "vegetarian",
    ),
]


def _unsaid(
    text: str, quotes: str, kind: str | None = None, answered: Sequence[str] = ()
) -> tuple[set[str], set[str], set[str]]:
    """What an item says that its quotes do not: its numbers ("#12") and names (as stems),
    which must all be said; its other content words (stems), all but one of four or more of
    which must be; and the content stems they do say. ``answered``: the turns just before the
    quotes: a booking (an event with numbers) whose quote confirms a date or time takes its
    other words, never its numbers, from them."""
    said = quotes + " " + quotes.replace("-", "")  # "e-mail" says email
    hard = {f"#{n}" for n in _numbers(text) - _numbers(said)}  # its numbers: the customer's own
    if not hard and answered and kind == "event" and _numbers(text) and parse.dated(quotes):
        said += " . " + " . ".join(answered)  # a booking: the turns it answers name the thing
    said_norm, said_stems = f" {norm(said)} ", _stems(said)
    for group in SAME:
        if group & said_stems:
            said_stems |= group
    spelled = " ".join(w for w, _, _ in words_at(said))  # contractions spelled out
    for claim, support, stem in _ENTAILED:
        if claim.search(text) and support.search(spelled):
            said_stems.add(stem)
    words = re.findall(r"[^\W\d_][\w'-]*", text)
    for i, word in enumerate(words):
        base = word.lower().split("'")[0]
        capital = word[:1].isupper() and base not in TEMPLATE_WORDS | STOPWORDS | OTHERS
        # A capitalised first word is a name when the item goes on "is …" ("Munich is home").
        lead = i == 0 and len(words) > 1 and words[1].lower() in _BEING
        stem = snowball(norm(word))
        if capital and (i > 0 or lead) and stem not in said_stems:
            hard |= set() if f" {norm(word)} " in said_norm else {stem}
    meaning = {
        snowball(w)
        for w in content_words(text)
        if w not in TEMPLATE_WORDS
        and w.split("'")[0] not in TEMPLATE_WORDS | STOPWORDS | OTHERS
        and not any(ch.isdigit() for ch in w)
        and w not in _NUMBER_WORDS
    }
    found = {m for m in meaning if m in said_stems or _prefix_of(m, said_stems)}
    return hard, meaning - found, found


def grounded(
    text: str,
    evidence: Sequence[Evidence],
    context: Sequence[str] | None = None,
    kind: str | None = None,
    answered: Sequence[str] = (),
) -> bool:
    """Whether the item's text is supported by what its quotes say (``_unsaid``: its numbers
    and names, and its other content words, all but one when it has four or more; a few
    channel words count as the same); and the clause of the turn that says it states it —
    not as a question, not negated, not as a wish, a supposition or something past — unless
    the item says so too; and about the customer, unless the item names whom it is about
    (``attribution``). ``context``: the clauses of the turns around the quotes
    (``QuoteChecker.around``); ``answered``: the turns just before (``QuoteChecker.before``)."""
    if not evidence:
        return False
    text = re.sub(r"(?i)\b(\w+)-in-laws?\b", r"\1", text)  # a sister-in-law is a sister here
    quotes = " . ".join(e.quote for e in evidence)
    hard, soft, found = _unsaid(text, quotes, kind, answered)
    if hard or len(soft) > (1 if len(soft) + len(found) >= 4 else 0):
        return False
    # Someone the item names ("Daughter is allergic …") is in the turn around the quote, or
    # the quote says it of someone ("she's allergic to nuts").
    said_of = context if context else [e.quote for e in evidence]
    who, name, clause = attribution(text, said_of, [e.quote for e in evidence])
    if who == "other" and not names(text, name, clause):
        return False  # "Joan gets seasick" is not the customer's "Gets seasick"
    if who == "none" and not _names_whom(text, quotes):
        return False  # "my husband his metformin" is not the customer's "Takes metformin"
    others = {w.split("'")[0] for w in norm(text).split()} & OTHERS
    around = _clauses(" . ".join(context) if context else quotes)
    if others and not (
        _same(others) & _same({w.split("'")[0] for words_, _ in around for w in words_})
        or any(c.who == "other" for said in said_of for c in parse.parser().parse(said))
        or {w.split("'")[0] for words_, _ in around for w in words_} & wordlists.load("people")
    ):
        return False
    wanted = found or {snowball(w) for w in content_words(text)}
    best: list[tuple[list[str], bool, list[int]]] = []
    for words_, asked in around:
        stems = [snowball(w) for w in words_]
        expanded = [({s} | next((g for g in SAME if s in g), set())) for s in stems]
        hits = [k for k, ss in enumerate(expanded) if ss & wanted or _prefix_of(stems[k], wanted)]
        if not hits:
            continue
        if not best or len(hits) > len(best[0][2]):
            best = [(words_, asked, hits)]
        elif len(hits) == len(best[0][2]):
            best.append((words_, asked, hits))
    if not best:  # said in other words ("I don't eat meat" for "Vegetarian"): every clause
        best = [(w, asked, [len(w) - 1]) for w, asked in around]
    return any(_clause_ok(w, asked, hits, text, kind) for w, asked, hits in best)


# What a proposal may hold before the harness reads it: an item is at most 500 characters
# when stored (a longer one is refused there anyway), and a quote is a few sentences.
MAX_ITEM_CHARS, MAX_QUOTE_CHARS, MAX_QUOTES = 500, 2000, 8


def _bounded(p: Proposal) -> bool:
    return (
        len(p.text) <= MAX_ITEM_CHARS
        and len(p.quotes) <= MAX_QUOTES
        and all(len(q) <= MAX_QUOTE_CHARS for q in p.quotes)
    )


def verify(
    items: Sequence[Proposal],
    events: Sequence[ProposedEvent],
    transcript: Sequence[Line],
    threshold: float = 90.0,
) -> Verified:
    """The proposals whose quotes are the customer's and ground them."""
    checker = QuoteChecker(transcript, threshold)
    out = Verified()
    for p in items:
        if not _bounded(p):  # a model's huge strings are discarded before any reading
            out.discarded += 1
            out.dropped.append((p.text[:MAX_ITEM_CHARS], "too_long"))
            continue
        ev = checker.evidence(p.quotes)
        if ev and grounded(p.text, ev, checker.around(ev), p.kind, checker.before(ev)):
            out.items.append((p, ev))
        else:
            out.discarded += 1
            out.dropped.append((p.text, "not_grounded" if ev else "not_the_customers_words"))
    for e in events:
        found = checker.find(e.quote) if len(e.quote) <= MAX_QUOTE_CHARS else None
        if found:
            out.events.append((e, found))
        else:
            out.discarded += 1
            out.dropped.append((e.type, "not_the_customers_words"))
    return out
