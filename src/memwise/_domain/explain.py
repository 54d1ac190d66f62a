"""The explain trace: every candidate a turn considered, with the reason it was or was not
included. Immutable, so a decision made once (an item not relevant to any request until the
items change) is shared by every trace that repeats it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Considered:
    part: str  # rules, notebook, profile, notes, knowledge, window, …
    id: str
    included: bool
    reason: str
