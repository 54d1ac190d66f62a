"""Texts as sparse rows of term counts, and Okapi BM25 over such rows, built in array passes.

A contact's record is read as one row of term counts per turn (:class:`Rows`). Rows read
once (one conversation's, kept when it ends) join other rows without their texts being read
again, and the documents a ranking scores (a turn with its neighbours' words, a whole
conversation) are weighted sums of rows: a few array operations over every entry at once,
not a dictionary per document.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np


@dataclass(frozen=True, eq=False)
class Rows:
    """Term counts, one row per text: row ``i``'s entries are ``ptr[i]:ptr[i + 1]``, each a
    term (its position in ``vocab``) and its count."""

    vocab: tuple[str, ...]
    ptr: np.ndarray  # int64, one more than there are rows
    cols: np.ndarray  # int64, an entry's term
    vals: np.ndarray  # float64, its count

    @property
    def n(self) -> int:
        return int(self.ptr.shape[0]) - 1

    @classmethod
    def of(cls, texts: Iterable[str], terms: Callable[[str], list[str]]) -> Rows:
        """Each text's terms (``terms`` reads a text) counted."""
        vocab: dict[str, int] = {}
        cols: list[int] = []
        vals: list[int] = []
        ptr = [0]
        for text in texts:
            for term, count in Counter(terms(text)).items():
                cols.append(vocab.setdefault(term, len(vocab)))
                vals.append(count)
            ptr.append(len(cols))
        return cls(
            tuple(vocab),
            np.array(ptr, dtype=np.int64),
            np.array(cols, dtype=np.int64),
            np.array(vals, dtype=np.float64),
        )

    @classmethod
    def join(cls, parts: Sequence[Rows]) -> Rows:
        """The rows of every part, in order, over one vocabulary (the first part's terms
        first, in their order: its rows keep their term numbers)."""
        vocab = tuple(dict.fromkeys(chain.from_iterable(p.vocab for p in parts)))
        index = {t: j for j, t in enumerate(vocab)}
        cols, vals, ptrs = [], [], [np.zeros(1, dtype=np.int64)]
        at = 0
        for n, part in enumerate(parts):
            if n == 0 or not part.cols.size:
                cols.append(part.cols)
            else:
                mapping = np.fromiter(map(index.__getitem__, part.vocab), np.int64, len(part.vocab))
                cols.append(mapping[part.cols])
            vals.append(part.vals)
            ptrs.append(part.ptr[1:] + at)
            at += int(part.ptr[-1])
        return cls(
            vocab,
            np.concatenate(ptrs),
            np.concatenate(cols) if cols else np.zeros(0, dtype=np.int64),
            np.concatenate(vals) if vals else np.zeros(0, dtype=np.float64),
        )

    def tail(self, start: int) -> Rows:
        """The rows from ``start`` on (the vocabulary kept whole)."""
        lo = int(self.ptr[start])
        return Rows(self.vocab, self.ptr[start:] - lo, self.cols[lo:], self.vals[lo:])

    def row_of_entries(self) -> np.ndarray:
        return np.repeat(np.arange(self.n, dtype=np.int64), np.diff(self.ptr))

    def lengths(self) -> np.ndarray:
        """Each row's total count."""
        return np.bincount(self.row_of_entries(), weights=self.vals, minlength=self.n)

    def gather(
        self, sources: np.ndarray, into: np.ndarray, weights: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(row, term, value) entries: every entry of row ``sources[i]``, times
        ``weights[i]``, given to row ``into[i]``."""
        sizes = self.ptr[sources + 1] - self.ptr[sources]
        offsets = np.concatenate(([0], np.cumsum(sizes)[:-1])) if sizes.size else sizes
        picked = np.repeat(self.ptr[sources] - offsets, sizes) + np.arange(int(sizes.sum()))
        return (
            np.repeat(into, sizes),
            self.cols[picked],
            self.vals[picked] * np.repeat(weights, sizes),
        )


def summed(
    rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, width: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The entries with each (row, term) once, their values summed."""
    key = rows * max(width, 1) + cols
    unique, inverse = np.unique(key, return_inverse=True)
    return unique // max(width, 1), unique % max(width, 1), np.bincount(inverse, weights=vals)


class BM25:
    """Okapi BM25 over ``n`` documents given as (document, term, frequency) entries, each
    (document, term) once; postings in flat arrays (per term a slice of documents and
    frequencies)."""

    def __init__(
        self,
        docs: np.ndarray,
        cols: np.ndarray,
        tf: np.ndarray,
        n: int,
        vocab: Mapping[str, int],
        k1: float,
        b: float,
    ) -> None:
        self.n, self.k1, self.vocab = n, k1, vocab
        width = len(vocab)
        self.lengths = np.bincount(docs, weights=tf, minlength=n).astype(float)
        average = float(self.lengths.mean()) if n else 1.0
        self.norm = k1 * (1 - b + b * self.lengths / (average or 1.0))
        df = np.bincount(cols, minlength=width).astype(float)
        self.idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
        order = np.argsort(cols, kind="stable")
        self.doc_of, self.tf = docs[order], tf[order]
        self.starts = np.searchsorted(cols[order], np.arange(width + 1))

    def scores(self, query: Mapping[str, float]) -> np.ndarray:
        out = np.zeros(self.n)
        for term, weight in query.items():
            j = self.vocab.get(term)
            if j is None:
                continue
            at = slice(self.starts[j], self.starts[j + 1])
            idx, tf = self.doc_of[at], self.tf[at]
            out[idx] += weight * self.idf[j] * tf * (self.k1 + 1) / (tf + self.norm[idx])
        return out
