"""Notebook rules that need no storage: normalising, and building the prompt block."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memwise import errors
from memwise.policies.limits import NotebookLimits
from memwise.safety import secrets


@dataclass(frozen=True)
class Entry:
    id: str
    text: str
    created_at: datetime


@dataclass(frozen=True)
class Block:
    """The notebook as the model sees it."""

    text: str
    entries: list[Entry]  # oldest → newest
    left_out: int

    @property
    def chars(self) -> int:
        return sum(len(e.text) for e in self.entries)


def normalize(text: str) -> str:
    """Case, spacing and punctuation folded away: how duplicates are recognised."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    folded = re.sub(r"[^\w\s]", " ", folded)
    return " ".join(folded.split())


def check_entry(text: str, limits: NotebookLimits) -> str:
    """A rule fit to keep: non-empty, within the length limit, and free of secrets."""
    if not isinstance(text, str) or not text.strip():
        raise errors.Invalid("a rule needs some text", code="empty_rule")
    cleaned = " ".join(text.split())
    if len(cleaned) > limits.max_entry_chars:
        raise errors.Invalid(
            f"a rule is limited to {limits.max_entry_chars} characters "
            f"(this one has {len(cleaned)}); nothing was saved",
            code="too_long",
            limit=limits.max_entry_chars,
            length=len(cleaned),
        )
    if not normalize(cleaned):
        raise errors.Invalid("a rule needs some words", code="empty_rule")
    secrets.check(cleaned)
    return cleaned


def build_block(entries: Sequence[Entry], limits: NotebookLimits) -> Block:
    """Newest entries first until the character budget is reached, then shown oldest → newest.

    ``entries`` come oldest → newest. An entry is taken while the running total of entry
    characters stays within ``limits.block_chars``; the first that does not fit stops the walk.
    """
    kept: list[Entry] = []
    used = 0
    for entry in reversed(entries):
        if used + len(entry.text) > limits.block_chars:
            break
        kept.append(entry)
        used += len(entry.text)
    kept.reverse()
    left_out = len(entries) - len(kept)
    lines = [f"- {e.text}" for e in kept]
    if left_out:
        lines.append(
            f"({left_out} older rule{'s' if left_out != 1 else ''} not shown: over the "
            f"{limits.block_chars}-character limit)"
        )
    return Block("\n".join(lines), kept, left_out)
