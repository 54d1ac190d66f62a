"""What an item says, read by the parser and the packaged encoder rather than by words: its
predicate, and whether it says what its quotes say in words of its own.

Not a rule module (docs/rules.md): its one hand-set list is the three predicates any item's
wording carries (``_LIGHT``); its thresholds were chosen on honesty_blind_5 and harness sets
1 and 2 (tuning sets) and reported on honesty_blind_6 (bench/README.md)."""

from __future__ import annotations

from collections.abc import Callable

from memwise._text import parse
from memwise._text import words as wordlists
from memwise._text.lexical import STOPWORDS, snowball

# How near (cosine, the packaged MiniLM) an item must be to its quotes when it says them in
# other words: chosen on honesty_blind_5 (a tuning set since), reported on honesty_blind_6.
SUPPORT, WORD_SUPPORT = 0.6, 0.3
# the two texts' cosine, and each word of the first with its best cosine to one of the second
Similar = Callable[[str, str], tuple[float, dict[str, float]]]

# Words an item's wording adds around what the customer said (as the harness reads them).
_TEMPLATE = wordlists.load("item_template")


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


def _saying(text: str) -> set[str]:
    """The stems of what an item says its subject does or is: its verbs, and adjectives said
    of the subject ("safe" in "Safe with penicillin"; not "dental" in "dental anxiety")."""
    first = text.split()[0].lower() if text.split() else ""
    subject = first in parse.PRONOUNS | {"my", "our", "the", "a", "an"}
    said = text if subject else f"The customer {text[:1].lower()}{text[1:]}"
    return {
        snowball(word)
        for word, pos, dep in parse.roles(said)
        if pos in ("VERB", "AUX") or (pos == "ADJ" and dep in ("acomp", "attr", "ROOT"))
    }


def said_in_other_words(
    text: str,
    quotes: str,
    unsaid: set[str],
    in_quotes: Callable[[str], bool],
    similar: Similar,
) -> bool:
    """Whether an item says what its quotes say in words of its own: what it says of its
    subject (its predicate, ``predicate``) is in them, the whole is near them in meaning and
    each of its words they do not hold (``unsaid``, stems; ``in_quotes``: whether a
    stem is theirs) meets a word of theirs
    ("anxiety" meets "terrified"; "software engineer" meets nothing of "I work from home").
    A predicate of its own is never taken on meaning: an antonym reads as near as a synonym
    ("Safe with penicillin" for "I am allergic to penicillin")."""
    said = predicate(text)
    light = not said or said in _LIGHT or said in _TEMPLATE  # "Has …", "Prefers …"
    stem = snowball(said)
    if not (light or in_quotes(stem)):
        return False
    if unsaid & {snowball(w) for w in parse.proper_nouns(text)}:
        return False  # a name is said or not: "berlin" is near "hamburg", never the same
    if unsaid & _saying(text):
        return False  # "Dislikes coriander" for "i love coriander": a verb is said or not
    whole, words = similar(text, quotes)
    near = {snowball(w) for w, score in words.items() if score >= WORD_SUPPORT}
    return whole >= SUPPORT and unsaid <= near


# what an item's own wording says of any subject: "Has a son", "Is allergic" (its adjective
# is the predicate then), a note the parser reads with no verb ("Away 3-10 July")
_LIGHT = frozenset(["be", "have", "customer"])
