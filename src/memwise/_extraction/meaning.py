"""What an item says of its subject, read by the parser: its predicate (what key agreement
compares). Grounding an item by the meaning of its words was built here and taken back: an
attack by a separate hand stored 76 false items of 193 crafted ones through it
(bench/README.md, "Grounding by meaning")."""

from __future__ import annotations

from memwise._text import parse
from memwise._text.lexical import STOPWORDS


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
