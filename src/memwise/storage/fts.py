"""Query text → the search syntax of each backend (plain words, never user-supplied operators)."""

from __future__ import annotations

import re

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)


def words(query: str, limit: int = 16) -> list[str]:
    return [w.lower() for w in _WORD.findall(query)][:limit]


def fts5_query(query: str, *, any_word: bool = False) -> str:
    """Each word quoted (so no FTS5 operator can be injected); all words required by default."""
    quoted = [f'"{w.replace(chr(34), "")}"' for w in words(query)]
    return (" OR " if any_word else " ").join(quoted)


def tsquery_words(query: str) -> list[str]:
    return [re.sub(r"['’]", "", w) for w in words(query)]
