"""Where a run of normalised words is said in a text: word for word, or near (a few words
differing). Both are bounded whatever the text: a word-for-word search is a substring search
over the text's words written one character each; a near search counts the differing words
at every place at once (numpy) and hands the caller only the few places within its limit to
read closely, and all the near searches sharing one ``Budget`` compare a bounded number of
words in all. The quote check of every extractor's proposals searches customer turns so."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from memwise._text.normal import words_at

_FIRST = 0x10000  # a text's words as characters from here on (room for a million distinct)


@dataclass
class Budget:
    """The words near searches may compare in all (``limit``), and how many they have."""

    limit: int
    spent: int = 0

    def take(self, cost: int) -> bool:
        if self.spent + cost > self.limit:
            return False
        self.spent += cost
        return True


class Searchable:
    """A text's normalised words (``words_at``), searchable for runs of words."""

    def __init__(self, text: str) -> None:
        self.words = words_at(text)
        self._ids: dict[str, int] = {}
        seq = [self._ids.setdefault(w, len(self._ids)) for w, _, _ in self.words]
        self._chars = _chars(seq)
        self._array = np.array(seq, dtype=np.int64)

    def _encode(self, part: Sequence[str]) -> list[int]:
        return [self._ids.get(w, -1) for w in part]

    def exact(self, part: Sequence[str], start: int = 0) -> int | None:
        """The first word index from ``start`` on where ``part`` is said word for word."""
        code = self._encode(part)
        if not code or -1 in code:  # a word the text never says
            return None
        i = self._chars.find(_chars(code), start)
        return i if i >= 0 else None

    def near(self, part: Sequence[str], start: int, limit: int, budget: Budget) -> Iterator[int]:
        """The word indexes from ``start`` on, in order, where at most ``limit`` words of
        ``part`` differ — up to ``places`` of them; none when the search would take the
        budget past its limit."""
        code, n = self._encode(part), len(part)
        places = len(self.words) - n + 1 - start
        if n == 0 or places <= 0 or code.count(-1) > limit:
            return iter(())
        if not budget.take(n * max(places, 256)):  # each comparison has a fixed cost too
            return iter(())
        differ = np.zeros(places, dtype=np.int32)
        for j, c in enumerate(code):
            differ += self._array[start + j : start + j + places] != c
        return iter((np.flatnonzero(differ <= limit)[:NEAR_PLACES] + start).tolist())


NEAR_PLACES = 16  # read closely per near search: within the count, a crafted text has many


def masked(text: str, a: int, b: int, hidden: Sequence[tuple[tuple[int, int], str]]) -> str:
    """``text[a:b]`` with every part of each hidden span of the whole text replaced by its
    label ("[card]"), so a span that cuts a hidden one in two keeps neither half; an empty
    span (0, 0) hides nothing."""
    out, at = [], a
    for (s, e), label in sorted(hidden):
        if e <= at or s >= b or (s, e) == (0, 0):
            continue
        out += [text[at : max(s, at)], label]
        at = min(e, b)
    return "".join(out) + text[at:b]


def _chars(ids: Sequence[int]) -> str:
    return "".join(chr(_FIRST + i) for i in ids)
