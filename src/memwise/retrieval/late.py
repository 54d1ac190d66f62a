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
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

import numpy as np

from memwise import errors
from memwise.retrieval import lexical

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


class Pieces:
    """Every turn's word-piece vectors in one int8 matrix (a turn's rows side by side), with
    how many turns each piece occurs in: a question is matched against the rows of its
    candidate turns only."""

    def __init__(self, docs: Sequence[TokenVectors | None]) -> None:
        self.n = len(docs)
        sizes = Counter(d.codes.shape[1] for d in docs if d is not None and len(d))
        dim = sizes.most_common(1)[0][0] if sizes else 0
        # a turn's pieces of another size than most (another model's) count as absent
        kept = [d if d is not None and len(d) and d.codes.shape[1] == dim else None for d in docs]
        counts = np.array([len(d) if d is not None else 0 for d in kept], dtype=np.int64)
        self.count = counts
        self.start = np.concatenate(([0], np.cumsum(counts)[:-1])) if self.n else counts
        present = [d for d in kept if d is not None]
        self.codes = (
            np.concatenate([d.codes for d in present])
            if present
            else np.zeros((0, dim), dtype=np.int8)
        )
        self.scales = (
            np.concatenate([d.scales for d in present]) if present else np.zeros(0, np.float32)
        )
        self.holding = len(present)  # the turns with pieces, whose counts ``df`` holds
        self.df: Counter[int] = Counter()
        for d in present:
            self.df.update(set(d.ids.tolist()))

    @property
    def nbytes(self) -> int:
        return int(self.codes.nbytes + self.scales.nbytes + 16 * self.n + 40 * len(self.df))

    def scores(
        self, query: TokenVectors, candidates: np.ndarray, skip: Collection[str] = ()
    ) -> np.ndarray:
        """Each candidate turn's late-interaction score (0 to 1, higher is closer): the mean
        over the question's content pieces of their best cosine among the turn's pieces,
        weighted by each piece's rarity among the turns."""
        out = np.zeros(len(candidates), dtype=np.float32)
        rows = content_rows(query, skip)
        if not rows or not len(candidates) or query.codes.shape[1] != self.codes.shape[1]:
            return out
        q = query.unit()[rows]  # Q × dim
        seen = np.array([self.df.get(int(query.ids[r]), 0) for r in rows], dtype=np.float32)
        weights = np.log1p((self.holding - seen + 0.5) / (seen + 0.5)).astype(np.float32)
        candidates = np.asarray(candidates, dtype=np.int64)
        lengths = self.count[candidates]
        has = lengths > 0
        if not has.any():
            return out
        starts, lengths = self.start[candidates[has]], lengths[has]
        # the rows of every candidate with pieces, candidate after candidate
        offsets = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        picked = np.repeat(starts - offsets, lengths) + np.arange(int(lengths.sum()))
        sims = (self.codes[picked].astype(np.float32) @ q.T) * self.scales[picked, None]
        best = np.maximum.reduceat(sims, offsets, axis=0)  # candidates with pieces × Q
        out[has] = np.maximum(best, 0.0) @ weights / (float(weights.sum()) or 1.0)
        return out
