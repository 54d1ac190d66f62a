"""What a speaker states of themselves, read off the parse and retold in the third person.

Each clause of a sentence (spaCy's dependency parse, ``memwise._text.parse``) whose subject is
the speaker ("I", "we", "my flight") is retold from its own parsed words: the subject goes,
the verb agrees with a third person (lemminflect: "live" → "lives", "'m" → "is"), the
speaker's other pronouns are retold ("my" → "their"), and what is not part of the clause
stays out — the clauses joined to it, fillers ("so", "btw", "tbh": ``data/fillers.txt``),
the greeting before it. Predicates joined by "and" give one statement each ("I'm vegetarian
and allergic to nuts" → "Is vegetarian", "Is allergic to nuts").

The reading also says what the clause is: negated, modal (a supposition or an ability),
conditional ("if I move …"), asked, whether it names a date, and the thing it is about (the
noun with its compounds: "spa appointment"). Deciding which statements are worth keeping is
the caller's (the offline extractor reads their kind by meaning).

Bounded: a sentence is parsed once (``parse.MAX_CHARS``, cached); the retelling is linear in
its tokens.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from lemminflect import getInflection

from memwise._text import parse, words

_HEADS = frozenset(["ROOT", "conj", "ccomp", "parataxis", "advcl"])
_SPLIT_OFF = frozenset(["conj", "advcl", "ccomp", "parataxis", "acl", "relcl"])  # own clauses
_CONDITIONS = frozenset(["if", "unless", "whether", "when", "once", "until", "whenever"])
_FUTURE = frozenset(["will", "shall", "'ll", "wo"])  # "wo" of "won't"
_BE = {"am": "is", "'m": "is", "are": "is", "'re": "is", "were": "was", "m": "is"}
_HAVE = {"have": "has", "'ve": "has", "ve": "has"}
_DO = {"do": "does"}
_RETELL = {
    "my": "their",
    "our": "their",
    "me": "them",
    "us": "them",
    "mine": "theirs",
    "ours": "theirs",
    "myself": "themselves",
    "ourselves": "themselves",
    "i": "they",
    "we": "they",
}
_PREDICATES = frozenset(["acomp", "attr", "dobj", "oprd"])


@dataclass(frozen=True)
class Statement:
    """One thing a speaker says of themselves (or their household), retold."""

    sentence: str  # the sentence it is said in, as written (a span of the text read)
    text: str  # "Is allergic to nuts": a third-person sentence of the clause's own words
    cut_short: bool  # ends on an auxiliary or a negation ("Their eyesight isn't")
    masked: str  # the same with its names stood in for ("Lives in the city"): for meaning
    said: str  # the clause's words as written (a span of the sentence)
    who: parse.Who  # speaker or household
    head: str  # the head's lemma ("live", "be", "move")
    thing: str  # what the clause is about: "spa appointment", "" when nothing is named
    negated: bool
    modal: bool  # can, could, would, might, should (not will/shall)
    conditional: bool  # under "if", "unless", "when" …
    asked: bool
    dated: bool  # names a date or a time (the parser's DATE/TIME entities)
    past: bool


def read(sentence: str) -> list[Statement]:
    """The statements of ``sentence`` about its speaker, in the order said (empty without
    the spaCy pipeline)."""
    found = parse.parser()
    if not isinstance(found, parse.SpacyParser) or not sentence.strip():
        return []
    return list(_read(found, sentence[: parse.MAX_CHARS]))


def pieces(text: str, limit: int) -> list[str]:
    """The first ``limit`` characters of ``text`` in pieces the parser reads whole (at most
    ``parse.MAX_CHARS`` each, cut after a sentence's end or a space)."""
    out, rest = [], text[:limit]
    while rest.strip():
        piece = rest[: parse.MAX_CHARS]
        if len(rest) > parse.MAX_CHARS:
            cut = max(piece.rfind(m) for m in (". ", "! ", "? ", "\n", " "))
            piece = piece[: cut + 1] if cut > 0 else piece
        out.append(piece)
        rest = rest[len(piece) :]
    return out


def sentences(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The sentences of a piece of text as the parser splits it, each with the things it
    names (``things``), from the same parse as ``read``."""
    found = parse.parser()
    if not isinstance(found, parse.SpacyParser) or not text.strip():
        return []
    doc = found._doc(text[: parse.MAX_CHARS])
    return [(s.text.strip(), _named(s)) for s in doc.sents if s.text.strip()]


@functools.cache
def _inflections() -> None:
    """lemminflect loads its tables on first use (about 0.3 s, once a process): with the
    parser, not inside the first reading that needs a verb agreed."""
    getInflection("live", tag="VBZ")


@functools.lru_cache(maxsize=2048)
def _read(parser: parse.SpacyParser, text: str) -> tuple[Statement, ...]:
    _inflections()
    doc = parser._doc(text)
    fillers = words.load("fillers")
    out: list[Statement] = []
    for h in doc:
        if h.dep_ not in _HEADS or (h.pos_ not in ("VERB", "AUX") and h.dep_ != "ROOT"):
            continue
        if h.dep_ == "conj" and h.head.pos_ not in ("VERB", "AUX") and h.head.dep_ != "ROOT":
            continue  # a joined noun or adjective, not a clause
        subject = _subject(h)
        who = _whose(subject) if subject is not None else "speaker" if _elided(h) else None
        if who is None:
            continue
        tokens = _own(h, fillers)
        if not tokens:
            continue
        for variant in _variants(h, tokens):
            text, masked = _retold(variant, subject), _retold(variant, subject, masked=True)
            if len(text.split()) < 2:
                continue
            out.append(_statement(h, subject, who, variant, (text, masked)))
    return tuple(out)


def _subject(h: Any) -> Any | None:
    """The clause's subject; a verb joined by "and" takes its partner's ("I live in Leeds
    and work in Bradford")."""
    t = h
    for _ in range(4):
        found = [c for c in t.children if c.dep_ in ("nsubj", "nsubjpass")]
        if found:
            return found[0]
        if t.dep_ != "conj" or t.head.i == t.i:
            return None
        t = t.head
    return None


def _elided(h: Any) -> bool:
    """A clause said of oneself without its "I": a past verb first ("just moved to Brighton
    from Leeds", "got married in October")."""
    before = [t for t in h.sent if t.i < h.i and t.head.i == h.i]
    return h.tag_ == "VBD" and all(t.dep_ in ("advmod", "intj", "punct", "cc") for t in before)


def _whose(subject: Any) -> parse.Who | None:
    """The speaker ("I", "my flight"), the household ("we", "our dog"), or None."""
    low = subject.lower_
    if low in ("i", "me"):
        return "speaker"
    if low in ("we", "us"):
        return "household"
    owners = {c.lower_ for c in subject.children if c.dep_ == "poss"}
    if subject.pos_ in ("NOUN", "PROPN") and owners & {"my", "our"}:
        people = words.load("people") | words.load("animals")
        if subject.lemma_.lower() in people or subject.lower_ in people:
            return None  # "my sister …": someone else's
        return "speaker" if "my" in owners else "household"
    return None


def _own(h: Any, fillers: frozenset[str]) -> list[Any]:
    """The clause's own tokens: its subtree without the clauses joined to it, their
    conjunctions, the greeting before it and fillers."""
    drop: set[int] = set()
    for c in h.subtree:
        verbal = c.pos_ in ("VERB", "AUX")
        direct = c.head.i == h.i and c.dep_ != "conj"
        if c.i == h.i or c.dep_ not in _SPLIT_OFF or not (verbal or direct):
            continue
        if c.dep_ == "acl" and c.tag_ == "VBN":  # "had a boiler fitted": part of the clause
            continue
        drop.update(t.i for t in c.subtree)
        drop.update(x.i for x in c.head.children if x.dep_ == "cc" and x.i < c.i)
    for c in h.children:
        if c.dep_ in ("intj", "discourse", "dep", "mark", "preconj"):
            drop.update(t.i for t in c.subtree)
        if c.dep_ == "npadvmod" and c.pos_ == "PROPN":  # "Hi Dana, …"
            drop.update(t.i for t in c.subtree)
    kept = [t for t in h.subtree if t.i not in drop]
    kept = [t for t in kept if t.lower_ not in fillers or t.i == h.i]
    while kept and (kept[0].is_punct or kept[0].dep_ in ("cc", "punct")):
        kept = kept[1:]
    while kept and (kept[-1].is_punct or kept[-1].dep_ in ("cc", "punct", "prep")):
        kept = kept[:-1]
    return _tidy(kept)


def _tidy(tokens: list[Any]) -> list[Any]:
    """The tokens without the punctuation a left-out clause leaves behind: a comma before
    another or before a closing bracket, brackets left empty or left open ("(graphic
    design, working from home)" without its clause is "(graphic design)"). Read off the
    tokens the parse kept, so no pattern reads the text again."""
    out: list[Any] = []
    for t in tokens:
        if t.text in (",", ";", ")"):
            while out and out[-1].text in (",", ";"):
                out.pop()
            if t.text == ")" and out and out[-1].text == "(":
                out.pop()
                continue
            if t.text != ")" and (not out or out[-1].text == "("):
                continue
        out.append(t)
    opened = [n for n, t in enumerate(out) if t.text == "("]
    closed = sum(t.text == ")" for t in out)
    return [t for n, t in enumerate(out) if n not in opened[closed:]]  # unclosed brackets


def _variants(h: Any, tokens: list[Any]) -> list[list[Any]]:
    """One token list per predicate joined by "and"/"or" ("vegetarian and allergic to
    nuts"); the clause as it is when nothing is joined."""
    for c in h.children:
        if c.dep_ not in _PREDICATES:
            continue
        chain = [c]
        while True:
            nxt = [x for x in chain[-1].children if x.dep_ == "conj"]
            if not nxt:
                break
            chain.append(nxt[0])
        if len(chain) < 2:
            continue
        spans = []
        for member in chain:
            own = {member.i}
            for x in member.children:
                if x.dep_ not in ("conj", "cc", "punct"):
                    own.update(t.i for t in x.subtree)
            spans.append(own)
        joints = {t.i for m in chain for t in m.children if t.dep_ in ("cc", "punct")}
        out = []
        for n in range(len(spans)):
            others = set().union(*(s for k, s in enumerate(spans) if k != n)) | joints
            out.append([t for t in tokens if t.i not in others])
        return out
    return [tokens]


# what a name stands for when a statement's kind is read by meaning: the embedder knows
# "Lives in the city" better than "Lives in Drumcondra"
_STAND_INS = {
    "GPE": "the city",
    "LOC": "the area",
    "FAC": "the building",
    "ORG": "the company",
    "PERSON": "someone",
    "NORP": "local",
    "PRODUCT": "the product",
}


def _retold(tokens: list[Any], subject: Any | None, masked: bool = False) -> str:
    """The tokens as a third person would say them, the subject left out when it is "I" or
    "we", the first verb agreeing; ``masked``: names stand in for by what they are."""
    speaking = subject is not None and subject.lower_ in ("i", "we")
    subject_ids = {t.i for t in subject.subtree} if subject is not None and speaking else set()
    parts: list[tuple[str, str]] = []
    agree = bool(subject_ids)
    for t in tokens:
        if t.i in subject_ids or (masked and t.ent_type_ in _STAND_INS and t.ent_iob_ == "I"):
            continue
        if masked and t.ent_type_ in _STAND_INS:
            parts.append((_STAND_INS[t.ent_type_], t.whitespace_))
            continue
        low = t.lower_.replace("’", "'")
        word = t.text
        if agree and t.pos_ in ("AUX", "VERB"):
            word = _agreeing(t, low)
            agree = False
        elif t.pos_ == "PRON" or t.tag_ == "PRP$":
            word = _RETELL.get(low, word)
        if word.startswith("'") is False and parts and parts[-1][1] == "" and t.text[:1] == "'":
            parts[-1] = (parts[-1][0], " ")
        parts.append((word, t.whitespace_))
    text = "".join(w + s for w, s in parts).strip().rstrip(".,;:!-–— ")
    return text[:1].upper() + text[1:]


def _agreeing(t: Any, low: str) -> str:
    """A first verb agreeing with a third person singular."""
    if low in _BE:
        return _BE[low]
    if low in _HAVE:
        return _HAVE[low]
    if low in _DO:
        return _DO[low]
    if low in ("'ll", "ll"):
        return "will"
    if low in ("'d", "d"):
        return "would"
    if t.tag_ == "VBP":
        found = getInflection(t.lemma_.lower(), tag="VBZ")
        return str(found[0]) if found else t.text
    return str(t.text)


def _statement(
    h: Any, subject: Any | None, who: parse.Who, tokens: list[Any], texts: tuple[str, str]
) -> Statement:
    doc = h.doc
    aux = [c for c in h.children if c.dep_ in ("aux", "auxpass")]
    negated = any(c.dep_ == "neg" for c in h.children) or any(
        c.dep_ in ("dobj", "attr") and any(d.lower_ == "no" for d in c.children) for c in h.children
    )
    modal = any(c.tag_ == "MD" and c.lower_.replace("’", "'") not in _FUTURE for c in aux)
    conditional = False
    t = h
    for _ in range(4):  # a clause joined to a conditional one is conditional too
        if any(c.dep_ == "mark" and c.lower_ in _CONDITIONS for c in t.children):
            conditional = True
        if t.dep_ != "conj" or t.head.i == t.i:
            break
        t = t.head
    sentence = h.sent
    asked = sentence.text.rstrip().endswith("?") and (
        tokens[-1].i >= sentence.end - 2 or any(t.tag_ in ("WDT", "WP", "WRB") for t in tokens)
    )
    span = {t.i for t in tokens}
    dated = any(e.label_ in ("DATE", "TIME") and e.start in span for e in doc.ents)
    past = h.tag_ in ("VBD", "VBN") and not any(c.lower_ in ("have", "'ve", "has") for c in aux)
    said = doc.text[tokens[0].idx : tokens[-1].idx + len(tokens[-1].text)]
    return Statement(
        sentence=sentence.text.strip(),
        cut_short=tokens[-1].pos_ in ("AUX", "PART") or tokens[-1].dep_ == "neg",
        text=texts[0],
        masked=texts[1],
        said=said,
        who=who,
        head=h.lemma_.lower(),
        thing=_thing(h, subject),
        negated=negated,
        modal=modal,
        conditional=conditional,
        asked=asked,
        dated=dated,
        past=past,
    )


def _thing(h: Any, subject: Any | None) -> str:
    """The noun the clause is about, with its compounds: the subject when it is a thing
    ("my spa appointment"), else the first object ("a dentist appointment")."""
    candidates = [subject] if subject is not None and subject.pos_ == "NOUN" else []
    for c in h.subtree:
        if c.dep_ in ("dobj", "pobj", "attr") and c.pos_ == "NOUN":
            candidates.append(c)
            break
    if not candidates:
        return ""
    noun = candidates[0]
    compounds = [c.lemma_.lower() for c in noun.children if c.dep_ == "compound"]
    return " ".join([*compounds, noun.lemma_.lower()])


def things(sentence: str) -> list[str]:
    """The things a sentence names, as written: its common noun phrases that are not a
    date, a time, a quantity or a person ("an eye test", "the service", "a table"),
    without their determiners, in the order said."""
    found = parse.parser()
    if not isinstance(found, parse.SpacyParser) or not sentence.strip():
        return []
    return list(_things(found, sentence[: parse.MAX_CHARS]))


_NOT_THINGS = frozenset(["DATE", "TIME", "CARDINAL", "ORDINAL", "PERSON", "QUANTITY", "MONEY"])


@functools.lru_cache(maxsize=2048)
def _things(parser: parse.SpacyParser, text: str) -> tuple[str, ...]:
    return _named(parser._doc(text))


def _named(doc: Any) -> tuple[str, ...]:
    """The things named in a parsed text or sentence (a spaCy ``Doc`` or ``Span``)."""
    out = []
    people = words.load("people") | words.load("animals")
    for chunk in doc.noun_chunks:
        root = chunk.root
        if (
            root.pos_ not in ("NOUN", "PROPN")
            or root.ent_type_ in _NOT_THINGS
            or root.lower_ in people
        ):
            continue
        kept = [
            t for t in chunk if t.dep_ not in ("det", "poss") and t.ent_type_ not in _NOT_THINGS
        ]
        kept = [t for t in kept if not t.is_punct and t.lower_ not in words.load("fillers")]
        if kept and kept[-1].i == root.i:
            out.append(doc.doc.text[kept[0].idx : root.idx + len(root.text)])
    return tuple(out)


_NOT_NAMES = frozenset(["DATE", "TIME", "CARDINAL", "ORDINAL", "MONEY", "QUANTITY", "PERCENT"])


@dataclass(frozen=True)
class Relation:
    """Someone the speaker names as theirs: "my daughter Maisie", "my gf Tahlia"."""

    relation: str  # as said, lower-cased ("daughter", "gf")
    name: str  # as said ("Maisie")
    sentence: str  # the sentence it is said in


def relations(text: str) -> list[Relation]:
    """The people a text names as the speaker's, with their names: a relation word
    (``data/people.txt``) owned by "my"/"our" beside a proper name, either way round ("my
    son Aarav": the name apposed; "my gf Tahlia": the relation a compound of the name)."""
    found = parse.parser()
    if not isinstance(found, parse.SpacyParser) or not text.strip():
        return []
    doc = found._doc(text[: parse.MAX_CHARS])
    people = words.load("people")
    out = []
    for t in doc:
        if t.pos_ != "PROPN" or t.ent_type_ in _NOT_NAMES:  # the small model calls
            continue  # some names places ("Tahlia": LOC); a number or a date is no name
        if t.dep_ == "appos" and t.head.lemma_.lower() in people:
            relation, owner = t.head, t.head
        else:
            related = [c for c in t.children if c.dep_ == "compound" and c.lower_ in people]
            if not related:
                continue
            relation, owner = related[0], t
        if any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in owner.children):
            out.append(Relation(relation.lower_, t.text, t.sent.text.strip()))
    return out
