"""Late interaction: a question's words matched to a turn's words by meaning, one by one.

A sentence vector says what a turn is about as a whole; it loses the single word that
answers ("Tampa" for a question about Florida, "the kids" for one about children). An
encoder's last layer holds a vector per word piece, each read in its sentence's context.
Each content piece of the question takes its best cosine over the pieces of a turn, and the
turn's score is their mean, weighted by how rare each question piece is among the
contact's turns (ColBERT's MaxSim, with the sentence encoder's own pieces).

It reorders the best turns of the ranking (``TurnRecallConfig.late_depth``), never the
whole record: a turn it lifts must already share words or meaning with the question.

A turn's piece vectors are kept as int8 rows with one scale each (a fourth of float32;
recall@10 on LoCoMo conversations 0–4 did not change at four decimals), with the piece ids
beside them for the rarity counts.
"""

from __future__ import annotations

import re
import struct
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from memwise import errors
from memwise._text import lexical

_HEADER = struct.Struct("<BHH")  # format version, pieces, dimensions
_VERSION = 1
_WORD = re.compile(r"[a-z0-9]*[a-z][a-z0-9]*")  # a word with a letter


@dataclass(frozen=True, eq=False)
class TokenVectors:
    """One text's word-piece vectors: ``codes[i] · scales[i]`` is piece ``ids[i]``'s unit
    vector. ``pieces`` (the pieces' text) is filled for questions, which need it to tell
    content words from the rest; a stored turn keeps only ids."""

    ids: np.ndarray  # uint16, one per piece ([CLS] and [SEP] left out)
    codes: np.ndarray  # int8, pieces × dimensions
    scales: np.ndarray  # float32, one per piece
    pieces: tuple[str, ...] = field(default=())

    @classmethod
    def quantise(
        cls, ids: Sequence[int], vectors: np.ndarray, pieces: Sequence[str] = ()
    ) -> TokenVectors:
        v = np.asarray(vectors, dtype=np.float32)
        if v.ndim != 2 or len(ids) != v.shape[0]:
            raise errors.Invalid("one vector per word piece is needed", code="bad_token_vectors")
        norms = np.linalg.norm(v, axis=1, keepdims=True)
        unit = v / np.where(norms == 0, 1, norms)
        top = np.abs(unit).max(axis=1, keepdims=True)
        scales = np.where(top == 0, 1.0, top / 127.0).astype(np.float32)
        codes = np.round(unit / scales).astype(np.int8)
        return cls(np.asarray(ids, dtype=np.uint16), codes, scales[:, 0], tuple(pieces))

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    @property
    def nbytes(self) -> int:
        return int(self.ids.nbytes + self.codes.nbytes + self.scales.nbytes)

    def unit(self) -> np.ndarray:
        """The pieces' vectors as float32 rows of length 1."""
        v = self.codes.astype(np.float32) * self.scales[:, None]
        norms = np.linalg.norm(v, axis=1, keepdims=True)
        out: np.ndarray = v / np.where(norms == 0, 1, norms)
        return out

    def to_bytes(self) -> bytes:
        n, dim = self.codes.shape if self.codes.ndim == 2 else (0, 0)
        return b"".join(
            (
                _HEADER.pack(_VERSION, n, dim),
                self.ids.astype("<u2").tobytes(),
                self.scales.astype("<f4").tobytes(),
                self.codes.astype(np.int8).tobytes(),
            )
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> TokenVectors:
        if len(data) < _HEADER.size:
            raise errors.Invalid("token vectors are cut short", code="bad_token_vectors")
        version, n, dim = _HEADER.unpack_from(data)
        if version != _VERSION or len(data) != _HEADER.size + n * (2 + 4 + dim):
            raise errors.Invalid("token vectors of an unknown layout", code="bad_token_vectors")
        at = _HEADER.size
        ids = np.frombuffer(data, dtype="<u2", count=n, offset=at).astype(np.uint16)
        at += 2 * n
        scales = np.frombuffer(data, dtype="<f4", count=n, offset=at).astype(np.float32)
        at += 4 * n
        codes = np.frombuffer(data, dtype=np.int8, count=n * dim, offset=at).reshape(n, dim)
        return cls(ids, codes.copy(), scales)


def content_rows(query: TokenVectors, skip: Collection[str]) -> list[int]:
    """The question's pieces that carry its content: letters only, not a stop word, not a
    word of ``skip`` (the participants' names, which the speaker boost handles). A word's
    continuation pieces ("##field" of "whit ##field") are kept or left with it."""
    words: list[list[int]] = []  # each word's pieces, in order
    for i, piece in enumerate(query.pieces):
        if piece.startswith("##") and words:
            words[-1].append(i)
        else:
            words.append([i])
    rows = []
    for group in words:
        word = "".join(query.pieces[i].removeprefix("##") for i in group)
        if _WORD.fullmatch(word) and word not in lexical.STOPWORDS and word not in skip:
            rows += group
    return rows


Loader = Callable[[Sequence[int]], Sequence[TokenVectors | None]]


def counted(
    pieces: Sequence[TokenVectors | None], dim: int
) -> tuple[np.ndarray, np.ndarray, tuple[TokenVectors | None, ...]]:
    """(count, ids, pieces) of each turn's pieces, the ids side by side; a turn without
    pieces, or with pieces of another size than ``dim``, has none."""
    kept = tuple(
        p if p is not None and len(p) and p.codes.shape[1] == dim else None for p in pieces
    )
    present = [p.ids for p in kept if p is not None]
    return (
        np.array([len(p) if p is not None else 0 for p in kept], dtype=np.int64),
        np.concatenate(present) if present else np.zeros(0, np.uint16),
        kept,
    )


class Pieces:
    """Every turn's word-piece vectors (int8 rows, a scale each), with how many turns each
    piece occurs in: a question is matched against the rows of its candidate turns only.
    The rows of a turn may be loaded when it first is a candidate (:meth:`lazy`): the
    counts need only the piece ids, and late interaction reads a few candidates' rows."""

    def __init__(self, docs: Sequence[TokenVectors | None]) -> None:
        sizes = Counter(d.codes.shape[1] for d in docs if d is not None and len(d))
        dim = sizes.most_common(1)[0][0] if sizes else 0  # another model's pieces: absent
        count, ids, kept = counted(docs, dim)
        self._set(count, ids, dim, dict(enumerate(kept)), None)

    @classmethod
    def lazy(
        cls,
        count: np.ndarray,
        ids: np.ndarray,
        dim: int,
        loaded: Mapping[int, TokenVectors | None],
        load: Loader | None,
    ) -> Pieces:
        """``count[i]`` pieces for turn ``i`` (0: none), their ids side by side; the rows of
        the turns ``loaded`` holds are at hand, the others' come from ``load`` (turn
        positions in, their pieces out: None where there are none) when first needed."""
        out = cls.__new__(cls)
        out._set(np.asarray(count, dtype=np.int64), ids, dim, loaded, load)
        return out

    def _set(
        self,
        count: np.ndarray,
        ids: np.ndarray,
        dim: int,
        loaded: Mapping[int, TokenVectors | None],
        load: Loader | None,
    ) -> None:
        if int(count.sum()) != len(ids):
            raise errors.Invalid("piece ids and their counts disagree", code="bad_token_vectors")
        self.n, self.dim, self.count = len(count), dim, count
        self._rows: dict[int, TokenVectors | None] = dict(loaded)
        self._load = load
        self.holding = int((count > 0).sum())  # the turns with pieces, whose counts df holds
        # in how many turns each piece id occurs
        turn = np.repeat(np.arange(self.n, dtype=np.int64), count)
        once = np.unique(turn << 16 | ids.astype(np.int64))
        self.df = np.bincount(once & 0xFFFF, minlength=1 << 16)

    @property
    def nbytes(self) -> int:
        """The bytes held with every turn's rows loaded."""
        return int(self.count.sum()) * (self.dim + 6) + 16 * self.n + int(self.df.nbytes)

    def _rows_of(self, turns: np.ndarray) -> list[TokenVectors | None]:
        """The turns' pieces, those not at hand loaded first (at most once each)."""
        missing = [int(t) for t in turns if int(t) not in self._rows]
        if missing:
            found = self._load(missing) if self._load is not None else [None] * len(missing)
            for t, got in zip(missing, found, strict=True):
                fits = got is not None and len(got) and got.codes.shape[1] == self.dim
                self._rows[t] = got if fits else None
        return [self._rows.get(int(t)) for t in turns]

    def scores(
        self, query: TokenVectors, candidates: np.ndarray, skip: Collection[str] = ()
    ) -> np.ndarray:
        """Each candidate turn's late-interaction score (0 to 1, higher is closer): the mean
        over the question's content pieces of their best cosine among the turn's pieces,
        weighted by each piece's rarity among the turns."""
        out = np.zeros(len(candidates), dtype=np.float32)
        rows = content_rows(query, skip)
        if not rows or not len(candidates) or query.codes.shape[1] != self.dim:
            return out
        q = query.unit()[rows]  # Q × dim
        seen = self.df[query.ids[rows].astype(np.int64)].astype(np.float32)
        weights = np.log1p((self.holding - seen + 0.5) / (seen + 0.5)).astype(np.float32)
        candidates = np.asarray(candidates, dtype=np.int64)
        at = np.flatnonzero(self.count[candidates] > 0)
        found = self._rows_of(candidates[at])
        has = np.array([f is not None and len(f) > 0 for f in found], dtype=bool)
        present = [f for f in found if f is not None and len(f)]
        if not present:
            return out
        # the rows of every candidate with pieces, candidate after candidate
        lengths = np.array([len(f) for f in present])
        offsets = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        codes = np.concatenate([f.codes for f in present]).astype(np.float32)
        scales = np.concatenate([f.scales for f in present])
        sims = (codes @ q.T) * scales[:, None]
        best = np.maximum.reduceat(sims, offsets, axis=0)  # candidates with pieces × Q
        out[at[has]] = np.maximum(best, 0.0) @ weights / (float(weights.sum()) or 1.0)
        return out
