"""Where a run of normalised words is said in a text: word for word, or near (a few words
differing). Both are bounded whatever the text: a word-for-word search is a substring search
over the text's words written one character each; a near search counts the differing words
at every place at once (numpy) and hands the caller the places within its limit to read
closely, and all the near searches sharing one ``Budget`` (their counting and the caller's
close reads) compare a bounded number of words in all. Texts searched together (``Joined``)
share one ``Vocabulary`` — a quote is put in numbers once — and which of them may hold a run
of words is one search over all of them, not one a text. The quote check of every
extractor's proposals searches a conversation's customer turns so."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from memwise._text.normal import words_at

_FIRST = 0x10000  # words as characters from here on: room for a million distinct words
_FULL = 0x10FFFF - _FIRST  # a word past that room is this one, which no quote word is
_SEPARATOR = -2  # between joined texts (U+FFFE): no word, and no quote's word (-1 if unsaid)
OVERHEAD = 1_500  # what one numpy comparison costs beyond its elements, in compared words
NEAR_PLACES = 64  # read closely per near search, before the first exact place
CLOSE_READ = (300, 5_000)  # what reading a place closely costs the caller: a word, and each


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


@dataclass
class Vocabulary:
    """The distinct words of the texts searched together, each a number."""

    ids: dict[str, int] = field(default_factory=dict)

    def add(self, word: str) -> int:
        found = self.ids.get(word)
        if found is None:
            found = self.ids[word] = min(len(self.ids), _FULL)
        return found

    def code(self, part: Sequence[str]) -> list[int]:
        """``part``'s words as numbers; -1 for a word no text says (a quote's own)."""
        return [i if (i := self.ids.get(w, -1)) != _FULL else -1 for w in part]


class Searchable:
    """Words (``words_at``'s, with their spans) as numbers, searchable for runs of words."""

    def __init__(self, words: list[tuple[str, int, int]], seq: Sequence[int]) -> None:
        self.words = words
        self._chars = _chars(seq)
        self._array = np.array(seq, dtype=np.int64)

    def exact(self, code: Sequence[int], start: int = 0) -> int | None:
        """The first word index from ``start`` on where the words ``code`` (``Vocabulary.
        code``) are said in order."""
        if not code or -1 in code or len(code) > len(self._array) - start:
            return None
        i = self._chars.find(_chars(code), start)
        return i if i >= 0 else None

    def near(self, code: Sequence[int], start: int, limit: int, budget: Budget) -> list[int]:
        """The word indexes from ``start`` on, in order, where at most ``limit`` words of
        ``code`` differ — up to ``NEAR_PLACES`` of them before the first place where none
        does, and that one — each charged to the budget as read closely; none when the
        counting would take the budget past its limit."""
        n = len(code)
        places = len(self._array) - n + 1 - start
        if n == 0 or places <= 0 or code.count(-1) > limit:
            return []
        if not budget.take(n * (places + OVERHEAD)):
            return []
        differ = np.zeros(places, dtype=np.int32)
        for j, c in enumerate(code):
            differ += self._array[start + j : start + j + places] != c
        within = np.flatnonzero(differ <= limit)
        same = np.flatnonzero(differ == 0)
        if len(same):  # every place after the first where nothing differs is no better
            within = within[within < same[0]]
        found = within[:NEAR_PLACES].tolist() + same[:1].tolist()
        read = CLOSE_READ[0] * n + CLOSE_READ[1]
        found = found[: max(0, (budget.limit - budget.spent) // read)]
        budget.take(read * len(found))
        return [i + start for i in found]


def searchable(text: str, vocabulary: Vocabulary) -> Searchable:
    words = words_at(text)
    return Searchable(words, [vocabulary.add(w) for w, _, _ in words])


class Joined:
    """Texts searched together (a conversation's customer turns): each one ``Searchable``,
    and all of them as one, each text's words after a separator."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.words = Vocabulary()
        self.texts = [searchable(t, self.words) for t in texts]
        sizes = (len(t.words) + 1 for t in self.texts)
        self.starts = list(itertools.accumulate(sizes, initial=0))  # each text's separator
        seq = [i for t in self.texts for i in [_SEPARATOR, *t._array.tolist()]]
        self._all = Searchable([], seq)  # its words' spans are each text's

    def holding(self, code: Sequence[int], near: int | None, budget: Budget) -> list[int]:
        """The indexes of the texts, in order, that say the words ``code`` word for word
        (``near`` None), or may say them with at most ``near`` differing: every text that
        says them word for word, and those of the first near places (a text is read
        closely after)."""
        if near is not None:
            found = self._all.near(code, 0, near, budget)
            near_texts = {bisect.bisect_right(self.starts, i) - 1 for i in found}
            return sorted(near_texts | set(self.holding(code, None, budget)))
        out, k = [], 0
        while k < len(self.texts) and (i := self._all.exact(code, self.starts[k])) is not None:
            out.append(k := bisect.bisect_right(self.starts, i) - 1)
            k += 1
        return out


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
    return "".join(chr(_FIRST + i) for i in ids)  # the separator: U+FFFE, no word's
