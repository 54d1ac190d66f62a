"""Query text → the search syntax of each backend (plain words, never user-supplied operators)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memwise._text.scripts import spaced

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)


def words(query: str, limit: int = 16) -> list[str]:
    """The query's words, lower-cased; text in scripts written without spaces as its pairs
    of letters, as the index keeps them (``memwise._text.scripts``)."""
    return [w.lower() for w in _WORD.findall(spaced(query))][:limit]


def content_words(query: str) -> list[str]:
    """The words that carry meaning (stopwords dropped; all words if nothing else is left)."""
    from memwise._text.lexical import STOPWORDS

    found = words(query)
    kept = [w for w in found if w not in STOPWORDS]
    return kept or found


def fts5_query(query: str, *, any_word: bool = False) -> str:
    """Each word quoted (so no FTS5 operator can be injected); all words required by default.

    With ``any_word`` (recall-oriented search), stopwords are dropped first.
    """
    chosen = content_words(query) if any_word else words(query)
    quoted = [f'"{w.replace(chr(34), "")}"' for w in chosen]
    return (" OR " if any_word else " ").join(quoted)


def tsquery_words(query: str, *, content_only: bool = False) -> list[str]:
    chosen = content_words(query) if content_only else words(query)
    return [re.sub(r"['’]", "", w) for w in chosen]


def first_unique(found: Sequence[tuple[int, float]], limit: int) -> list[tuple[int, float]]:
    """Each (seq, score) once, in the order found, at most ``limit``: candidates gathered by
    several queries (the rarest word's, then more)."""
    seen: set[int] = set()
    out = []
    for seq, score in found:
        if seq not in seen:
            seen.add(seq)
            out.append((seq, score))
    return out[:limit]
