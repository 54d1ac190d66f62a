"""A conversation's turns as record recall reads them, kept as one value.

Building a contact's index reads every turn: its words stemmed and counted, its vector and
word pieces unpacked — most of a first recall's time. The worker does that once per
conversation when it ends and keeps the result (:class:`KeptTurns`, one row per
conversation); a contact's first recall then joins the kept conversations (arrays put side
by side) and reads only the turns none of them holds (an open conversation's). The word
pieces' vectors are not kept here (most of a turn's bytes: ~15 kB against 2): the ids
count how rare each piece is, and late interaction loads a candidate turn's vectors from
the record when it first reorders it.

The layout is memwise's own and holds no code: a JSON header (the turns' ids, sequence
numbers, roles, times and texts, the vocabulary, the sizes) and little-endian arrays after
it, each of the length the header gives; anything else is refused.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from memwise import errors
from memwise._retrieval import postings
from memwise._retrieval.late import Loader, Pieces, TokenVectors

FORMAT = 1  # the layout's version: a kept value of another is read again from the turns
_MAGIC = b"MWKT"
_HEAD = struct.Struct("<4sBI")  # magic, format, header length


@dataclass(frozen=True, eq=False)
class KeptTurns:
    """Turns in order, with their term counts and, when an embedder made them, their
    vectors and their word pieces' ids (``piece_count[i]`` for turn ``i``, 0: none). The
    pieces' vectors stay with the turns (late interaction loads a candidate's when first
    needed); ``loaded`` holds those at hand (turns just read), never kept."""

    ids: tuple[str, ...]
    seqs: tuple[int, ...]
    roles: tuple[str, ...]
    at: tuple[float, ...]  # POSIX seconds
    texts: tuple[str, ...]
    terms: postings.Rows
    embedder: str | None = None
    vectors: np.ndarray | None = None  # float32, turns × dimensions
    piece_count: np.ndarray | None = None  # int64, one per turn
    piece_ids: np.ndarray | None = None  # uint16, side by side
    loaded: tuple[TokenVectors | None, ...] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def has_pieces(self) -> bool:
        return self.piece_count is not None

    def pieces(self, load: Loader | None) -> Pieces | None:
        """The turns' word pieces for an index: those at hand, the others by ``load``."""
        if self.piece_count is None or self.piece_ids is None or self.vectors is None:
            return None
        loaded = {i: p for i, p in enumerate(self.loaded or ()) if p is not None}
        return Pieces.lazy(self.piece_count, self.piece_ids, self.vectors.shape[1], loaded, load)

    @classmethod
    def join(cls, parts: Sequence[KeptTurns]) -> KeptTurns:
        """The turns of every part, in order: vectors when every part has them (of one
        size), word pieces where a part has them."""
        dims = {p.vectors.shape[1] for p in parts if p.vectors is not None}
        vectored = bool(parts) and all(p.vectors is not None for p in parts) and len(dims) == 1
        out = cls(
            tuple(i for p in parts for i in p.ids),
            tuple(s for p in parts for s in p.seqs),
            tuple(r for p in parts for r in p.roles),
            tuple(a for p in parts for a in p.at),
            tuple(t for p in parts for t in p.texts),
            postings.Rows.join([p.terms for p in parts]),
            next((p.embedder for p in parts if p.embedder), None),
            np.concatenate([p.vectors for p in parts if p.vectors is not None])
            if vectored
            else None,
        )
        if not vectored or not any(p.has_pieces for p in parts):
            return out
        return replace(
            out,
            piece_count=np.concatenate(
                [
                    p.piece_count if p.piece_count is not None else np.zeros(len(p), int)
                    for p in parts
                ]
            ),
            piece_ids=np.concatenate([p.piece_ids for p in parts if p.piece_ids is not None]),
            loaded=tuple(x for p in parts for x in (p.loaded or (None,) * len(p))),
        )

    def tail(self, start: int) -> KeptTurns:
        """The turns from ``start`` on."""
        if start <= 0:
            return self
        cut = replace(
            self,
            ids=self.ids[start:],
            seqs=self.seqs[start:],
            roles=self.roles[start:],
            at=self.at[start:],
            texts=self.texts[start:],
            terms=self.terms.tail(start),
            vectors=self.vectors[start:] if self.vectors is not None else None,
        )
        if self.piece_count is None or self.piece_ids is None:
            return cut
        return replace(
            cut,
            piece_count=self.piece_count[start:],
            piece_ids=self.piece_ids[int(self.piece_count[:start].sum()) :],
            loaded=self.loaded[start:] if self.loaded is not None else None,
        )

    def pieces_from(self, start: int) -> KeptTurns:
        """Without the word pieces of the turns before ``start`` (an index holds only the
        newest turns' pieces)."""
        if self.piece_count is None or self.piece_ids is None or start <= 0:
            return self
        count = self.piece_count.copy()
        count[:start] = 0
        return replace(
            self,
            piece_count=count,
            piece_ids=self.piece_ids[int(self.piece_count[:start].sum()) :],
            loaded=(None,) * start + self.loaded[start:] if self.loaded is not None else None,
        )

    def to_bytes(self) -> bytes:
        n = len(self.ids)
        dim = int(self.vectors.shape[1]) if self.vectors is not None else 0
        pieces = int(self.piece_count.sum()) if self.piece_count is not None else -1
        header = json.dumps(
            {
                "ids": self.ids,
                "seqs": self.seqs,
                "roles": self.roles,
                "at": self.at,
                "texts": self.texts,
                "vocab": self.terms.vocab,
                "entries": int(self.terms.cols.size),
                "embedder": self.embedder,
                "dim": dim,
                "pieces": pieces,
            },
            separators=(",", ":"),
        ).encode()
        parts = [
            _HEAD.pack(_MAGIC, FORMAT, len(header)),
            header,
            self.terms.ptr.astype("<i8").tobytes(),
            self.terms.cols.astype("<i4").tobytes(),
            self.terms.vals.astype("<f4").tobytes(),
        ]
        if self.vectors is not None:
            parts.append(np.asarray(self.vectors, dtype="<f4").tobytes())
        if self.piece_count is not None and self.piece_ids is not None and n:
            parts += [
                self.piece_count.astype("<i4").tobytes(),
                self.piece_ids.astype("<u2").tobytes(),
            ]
        return b"".join(parts)

    @classmethod
    def from_bytes(cls, data: bytes) -> KeptTurns:
        """The value ``to_bytes`` wrote; :class:`memwise.errors.Invalid` for anything else."""
        try:
            return cls._read(memoryview(data))
        except (ValueError, TypeError, KeyError, struct.error) as exc:
            raise errors.Invalid("kept turns unreadable", code="bad_kept_turns") from exc

    @classmethod
    def _read(cls, data: memoryview) -> KeptTurns:
        magic, version, size = _HEAD.unpack_from(data)
        if magic != _MAGIC or version != FORMAT:
            raise ValueError("another layout")
        h = json.loads(bytes(data[_HEAD.size : _HEAD.size + size]))
        at = _HEAD.size + size
        n, entries, dim, pieces = len(h["ids"]), int(h["entries"]), int(h["dim"]), int(h["pieces"])

        def take(dtype: str, count: int) -> np.ndarray:
            nonlocal at
            out = np.frombuffer(data, dtype=dtype, count=count, offset=at)
            at += out.nbytes
            return out

        ptr = take("<i8", n + 1).astype(np.int64)
        cols = take("<i4", entries).astype(np.int64)
        vals = take("<f4", entries).astype(np.float64)
        if ptr[0] != 0 or ptr[-1] != entries or (cols.size and cols.max() >= len(h["vocab"])):
            raise ValueError("term rows out of range")
        vectors = take("<f4", n * dim).reshape(n, dim) if dim else None
        count = ids = None
        if pieces >= 0 and n:
            count = take("<i4", n).astype(np.int64)
            ids = take("<u2", pieces)
            if int(count.sum()) != pieces:
                raise ValueError("piece counts disagree")
        if at != len(data) or not len(h["seqs"]) == len(h["roles"]) == len(h["at"]) == n:
            raise ValueError("sizes disagree")
        return cls(
            tuple(h["ids"]),
            tuple(int(s) for s in h["seqs"]),
            tuple(h["roles"]),
            tuple(float(a) for a in h["at"]),
            tuple(h["texts"]),
            postings.Rows(tuple(h["vocab"]), ptr, cols, vals),
            h["embedder"],
            vectors,
            count,
            ids,
        )
