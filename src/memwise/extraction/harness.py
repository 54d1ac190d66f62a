"""The harness around any extractor: quotes are checked against the contact's own turns.

A quote counts only when it is found in a customer turn (never the assistant's, an
operator's or a tool's) word for word after normalising case, punctuation, quote marks and
contractions ("I'd" is "I would") — on word boundaries, with at least two content words (or
the whole turn); an ellipsis may leave words out between parts found in order. A near match
forgives a typo or two, never a different word, a negation or a number ("I am allergic to
walnuts" is not "I am allergic to peanuts"). What is kept is the turn's own words.

Then the item must be grounded in its quotes alone: every number and every name in the
item's text is in them, and at least half of its other content words; and the clause that
says it must state it — not ask it ("Munich in March? No, I'm staying in Hamburg."), not
negate it ("I'm not vegetarian"), not suppose it ("If I ever moved to Vienna"), not say it
of someone else ("My neighbour is allergic to peanuts, not me") — unless the item says so
too. An item with no verified, grounding quote is discarded and counted.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz
from rapidfuzz.distance import DamerauLevenshtein

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


# -- words with their places in the text ------------------------------------------------------
_TOKEN = re.compile(r"[\w'’‘`´]+")
_SUFFIXES = (("n't", "not"), ("'m", "am"), ("'re", "are"), ("'ve", "have"), ("'ll", "will"))
_IRREGULAR = {"can't": ("can", "not"), "won't": ("will", "not"), "cannot": ("can", "not")}
# An ellipsis in a quote leaves words out: each part must be found, in order, in one turn.
_ELLIPSIS = re.compile(r"\s*(?:\[\s*(?:\.\.\.|…)\s*\]|\.\.\.+|…)\s*")


def words_at(text: str) -> list[tuple[str, int, int]]:
    """The text's words, normalised (case, quote marks, contractions spelled out), each with
    the span of the original word it comes from."""
    out: list[tuple[str, int, int]] = []
    for m in _TOKEN.finditer(text):
        w = unicodedata.normalize("NFKC", m.group()).translate(_QUOTES).casefold().strip("'")
        if not w:
            continue
        parts: tuple[str, ...] = (w,)
        if w in _IRREGULAR:
            parts = _IRREGULAR[w]
        else:
            for suffix, full in _SUFFIXES:
                if w.endswith(suffix) and len(w) > len(suffix):
                    parts = (w[: -len(suffix)], full)
                    break
            else:
                if w.endswith("'d") and len(w) > 2:
                    parts = (w[:-2], "would")
        out += [(part, m.start(), m.end()) for part in parts]
    return out


# Words whose change turns a statement around: a near-match never differs in them.
NEGATIONS = frozenset(
    [
        "not",
        "no",
        "never",
        "nor",
        "neither",
        "none",
        "nothing",
        "nobody",
        "without",
        "dont",
        "doesnt",
        "didnt",
        "isnt",
        "wasnt",
        "arent",
        "werent",
        "wont",
        "cant",
        "havent",
        "hasnt",
    ]
)


class QuoteChecker:
    """Finds a quote in the customer's own turns: word for word after normalising, or with
    a few typos (each differing word close in spelling, never a negation or a number)."""

    def __init__(self, transcript: Sequence[Line], threshold: float = 90.0) -> None:
        self.customer = [
            (line, words_at(line.text)) for line in transcript if line.role == "customer"
        ]
        self.threshold = threshold

    def find(self, quote: str, min_words: int = MIN_CONTENT_WORDS) -> Evidence | None:
        parts = [[w for w, _, _ in words_at(p)] for p in _ELLIPSIS.split(quote) if p.strip()]
        parts = [p for p in parts if p]
        if not parts:
            return None
        said = [w for p in parts for w in p]
        content = [w for w in said if w not in STOPWORDS and len(w) > 1]
        if not content:
            return None
        content += [w for w in said if w in NEGATIONS]  # "I'm not vegetarian" says two things
        for fuzzy in (False, True):
            if fuzzy and (len(content) < MIN_CONTENT_WORDS or len(" ".join(said)) < 8):
                return None
            for line, words in self.customer:
                spans = self._locate(parts, words, fuzzy)
                if spans is None:
                    continue
                whole = len(said) == len(words)
                if len(content) < min_words and not whole:
                    continue
                text = " … ".join(line.text[a:b] for a, b in spans)
                return Evidence(line.turn_id, " ".join(text.split()), line.at)
        return None

    def _locate(
        self, parts: list[list[str]], words: list[tuple[str, int, int]], fuzzy: bool
    ) -> list[tuple[int, int]] | None:
        spans, at = [], 0
        for part in parts:
            found = self._window(part, words, at, fuzzy)
            if found is None:
                return None
            i, j = found
            spans.append((words[i][1], words[j - 1][2]))
            at = j
        return spans

    def _window(
        self, part: list[str], words: list[tuple[str, int, int]], start: int, fuzzy: bool
    ) -> tuple[int, int] | None:
        n = len(part)
        for i in range(start, len(words) - n + 1):
            window = [w for w, _, _ in words[i : i + n]]
            if window == part or (fuzzy and self._close(part, window)):
                return i, i + n
        return None

    def _close(self, quote: list[str], window: list[str]) -> bool:
        differ = [(a, b) for a, b in zip(quote, window, strict=True) if a != b]
        if len(differ) > max(1, len(quote) // 5):
            return False
        for a, b in differ:
            if not (a.isalpha() and b.isalpha()) or min(len(a), len(b)) < 4:
                return False
            if a in NEGATIONS or b in NEGATIONS:
                return False
            if DamerauLevenshtein.distance(a, b) > (1 if max(len(a), len(b)) < 8 else 2):
                return False  # a typo, not another word ("pecans" is not "peanuts")
        return fuzz.ratio(" ".join(quote), " ".join(window)) >= self.threshold

    def evidence(self, quotes: Sequence[str]) -> list[Evidence]:
        found = [e for e in (self.find(q) for q in quotes) if e is not None]
        unique = {(e.turn_id, e.quote): e for e in found}
        return list(unique.values())


# -- grounding -------------------------------------------------------------------------------
# An item that says the opposite of a negated clause needs a negation of its own; a few
# words carry one in their meaning ("Vegetarian" from "I don't eat meat") — unless the
# clause negates that very word ("I'm not vegetarian").
_ITEM_NEGATION = re.compile(
    r"n't\b|\b(?:not|no|never|nor|without|cannot|dont|doesnt|didnt|wont|cant|avoid\w*|dislik\w*|hate\w*|refus\w*|stop\w*|"
    r"quit\w*|\w+-free|free of|instead|rather than|against|skip\w*|no longer)\b",
    re.I,
)
_INHERENTLY_NEGATIVE = frozenset(
    [
        "vegetarian",
        "vegan",
        "allergic",
        "allergy",
        "intolerant",
        "intolerance",
        "teetotal",
        "teetotaller",
        "sober",
    ]
)
_HYPOTHETICAL = frozenset(
    [
        "if",
        "whether",
        "unless",
        "suppose",
        "supposing",
        "imagine",
        "hypothetically",
        "wish",
        "maybe",
        "perhaps",
        "might",
        "someday",
        "ever",
    ]
)
_ITEM_TENTATIVE = re.compile(
    r"\b(?:if|whether|might|maybe|perhaps|may|consider\w*|think\w*|plan\w*|hop\w*|wish\w*|"
    r"possibl\w*|could|would|someday|dream\w*|want\w*|unsure|undecided)\b",
    re.I,
)
RELATIONS = frozenset(
    [
        "husband",
        "wife",
        "partner",
        "spouse",
        "son",
        "daughter",
        "kid",
        "kids",
        "child",
        "children",
        "baby",
        "mother",
        "mom",
        "mum",
        "father",
        "dad",
        "parents",
        "brother",
        "sister",
        "sibling",
        "siblings",
        "friend",
        "friends",
        "neighbour",
        "neighbor",
        "colleague",
        "colleagues",
        "boss",
        "aunt",
        "uncle",
        "niece",
        "nephew",
        "grandmother",
        "grandfather",
        "grandma",
        "grandpa",
        "cousin",
        "boyfriend",
        "girlfriend",
        "fiance",
        "fiancee",
        "flatmate",
        "roommate",
        "housemate",
        "family",
    ]
)
_CLAUSE_END = re.compile(r"([.;!?…]+|,|\s-\s|\s–\s|\s—\s|\bbut\b|\bthough\b|\bwhereas\b)", re.I)


def _clauses(text: str) -> list[tuple[list[str], bool]]:
    """The quote's clauses as normalised words, each with whether it is asked, not said."""
    out: list[tuple[list[str], bool]] = []
    pieces = _CLAUSE_END.split(text)
    for i in range(0, len(pieces), 2):
        end = pieces[i + 1] if i + 1 < len(pieces) else ""
        words = [w for w, _, _ in words_at(pieces[i])]
        if words:
            out.append((words, "?" in end))
    return out


def _stem_of(word: str) -> str:
    return snowball(word)


def _negation_ok(words: list[str], item: str, item_words: set[str]) -> bool:
    if _ITEM_NEGATION.search(item):
        return True
    return bool(item_words & _INHERENTLY_NEGATIVE - set(words))


def _third_party(words: list[str]) -> bool:
    """Whether the clause is said of someone else: "My neighbour is…", "She's…"."""
    lead = [w for w in words[:4] if w not in ("and", "also", "so", "well", "oh", "yes", "yeah")]
    if not lead:
        return False
    relative = len(lead) >= 2 and lead[0] in ("my", "our") and lead[1] in RELATIONS
    pronoun = lead[0].split("'")[0] in ("he", "she", "they", "his", "her", "their")
    with_me = bool({"i", "me"} & set(lead[2:5]))  # "My sister and I live in Vienna"
    return (relative or pronoun) and not with_me


def _clause_ok(words: list[str], asked: bool, hits: list[int], item: str) -> bool:
    """Whether a clause holding the item's words states it: said, not asked; not negated,
    wished or supposed before them unless the item says so too; about the customer, not a
    relative or a friend, unless the item names them."""
    if asked:
        return False
    item_words = {w.split("'")[0] for w in norm(item).split()} | set(norm(item).split())
    before = words[: max(hits) + 1]
    if any(w in NEGATIONS for w in before) and not _negation_ok(words, item, item_words):
        return False
    if any(w in _HYPOTHETICAL for w in before) and not _ITEM_TENTATIVE.search(item):
        return False
    if _third_party(words):
        return bool(item_words & (RELATIONS | {"he", "she", "they"}))
    return True


_BEING = frozenset(["is", "was", "are", "were", "has", "had", "remains", "stays"])


def grounded(text: str, evidence: Sequence[Evidence]) -> bool:
    """Whether the item's text is supported by what its quotes say: its numbers and names
    appear in them, and at least half of its other content words (a few channel words count
    as the same); and the clause that says it states it — not as a question, not negated,
    not as a wish or a supposition, not about someone else — unless the item says so too."""
    quotes = " . ".join(e.quote for e in evidence)
    said = quotes + " " + quotes.replace("-", "")  # "e-mail" says email
    said_norm, said_stems = f" {norm(said)} ", _stems(said)
    for group in SAME:
        if group & said_stems:
            said_stems |= group
    for number in re.findall(r"\d+", text):
        if not re.search(rf"(?<!\d){number}(?!\d)", said_norm):
            return False
    words = re.findall(r"[^\W\d_][\w'-]*", text)
    for i, word in enumerate(words):
        low = word.lower()
        capital = word[:1].isupper() and low not in TEMPLATE_WORDS | STOPWORDS
        # A capitalised first word is a name when the item goes on "is …" ("Munich is home").
        lead = i == 0 and len(words) > 1 and words[1].lower() in _BEING
        name = capital and (i > 0 or lead) and low.split("'")[0] not in TEMPLATE_WORDS | STOPWORDS
        if name and snowball(norm(word)) not in said_stems and f" {norm(word)} " not in said_norm:
            return False
    meaning = {snowball(w) for w in content_words(text) if w not in TEMPLATE_WORDS}
    found = {m for m in meaning if m in said_stems}
    if meaning and len(found) * 2 < len(meaning):
        return False
    wanted = found or {snowball(w) for w in content_words(text)}
    best: list[tuple[list[str], bool, list[int]]] = []
    for words_, asked in _clauses(quotes):
        stems = [_stem_of(w) for w in words_]
        expanded = [({s} | next((g for g in SAME if s in g), set())) for s in stems]
        hits = [k for k, ss in enumerate(expanded) if ss & wanted]
        if not hits:
            continue
        if not best or len(hits) > len(best[0][2]):
            best = [(words_, asked, hits)]
        elif len(hits) == len(best[0][2]):
            best.append((words_, asked, hits))
    if not best:
        return True
    return any(_clause_ok(w, asked, hits, text) for w, asked, hits in best)


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
        if ev and grounded(p.text, ev):
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
        if ev and grounded(continuity.text, ev):
            out.continuity = (continuity, ev)
    return out
