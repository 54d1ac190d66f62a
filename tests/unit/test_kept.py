"""Kept turns (memwise._retrieval.kept), term rows (postings) and word pieces loaded when
first needed (late.Pieces.lazy)."""

from __future__ import annotations

import numpy as np
import pytest

from memwise import errors
from memwise._retrieval import late, postings
from memwise._retrieval.kept import KeptTurns
from memwise._retrieval.late import Pieces, TokenVectors
from memwise._text import lexical

TEXTS = ("The frame of my Trek bike cracked.", "Booked: Saturday 10am with Sam. 北京", "")


def _pieces(n: int, dim: int = 8) -> TokenVectors:
    rng = np.random.default_rng(n)
    return TokenVectors.quantise(list(range(n, n + 3)), rng.normal(size=(3, dim)))


def _kept(pieced: bool = True) -> KeptTurns:
    vectors = np.arange(24, dtype=np.float32).reshape(3, 8)
    counted = late.counted([_pieces(1), None, _pieces(2)], 8) if pieced else (None,) * 3
    return KeptTurns(
        ("t1", "t2", "t3"),
        (1, 2, 5),
        ("customer", "assistant", "customer"),
        (1.5, 2.25, 3.0),
        TEXTS,
        postings.Rows.of(TEXTS, lexical.full_terms),
        "local:test",
        vectors,
        *counted,
    )


def test_kept_turns_read_back_as_written_without_the_pieces_vectors() -> None:
    kept = _kept()
    back = KeptTurns.from_bytes(kept.to_bytes())
    assert (back.ids, back.seqs, back.roles, back.at, back.texts) == (
        kept.ids,
        kept.seqs,
        kept.roles,
        kept.at,
        kept.texts,
    )
    assert back.terms.vocab == kept.terms.vocab
    assert np.array_equal(back.terms.ptr, kept.terms.ptr)
    assert np.array_equal(back.terms.cols, kept.terms.cols)
    assert np.array_equal(back.terms.vals, kept.terms.vals)
    assert back.vectors is not None and np.array_equal(back.vectors, kept.vectors)
    assert back.piece_count is not None and back.piece_count.tolist() == [3, 0, 3]
    assert back.piece_ids is not None and back.piece_ids.tolist() == [1, 2, 3, 2, 3, 4]
    assert back.loaded is None and kept.loaded is not None  # vectors stay with the turns
    words = KeptTurns.from_bytes(_kept(pieced=False).to_bytes())
    assert words.piece_count is None


@pytest.mark.parametrize(
    "data",
    [b"", b"MWKT", b"MWKT\x02\x00\x00\x00\x00", b"XXXX\x01\x02\x00\x00\x00{}", b"\x00" * 64],
)
def test_anything_else_is_refused(data: bytes) -> None:
    with pytest.raises(errors.Invalid):
        KeptTurns.from_bytes(data)


def test_a_value_cut_short_or_padded_is_refused() -> None:
    good = _kept().to_bytes()
    for bad in (good[:-1], good + b"\x00", good[:40]):
        with pytest.raises(errors.Invalid):
            KeptTurns.from_bytes(bad)


def test_joined_and_cut_turns_keep_their_pieces_in_step() -> None:
    kept = _kept()
    both = KeptTurns.join([kept, kept])
    assert len(both) == 6 and both.piece_count is not None
    assert both.piece_count.tolist() == [3, 0, 3, 3, 0, 3]
    tail = both.tail(4)
    assert tail.ids == ("t2", "t3") and tail.piece_count is not None
    assert tail.piece_ids is not None and tail.piece_ids.tolist() == [2, 3, 4]
    newest = both.pieces_from(5)
    assert newest.piece_count is not None and newest.piece_count.tolist() == [0] * 5 + [3]
    assert newest.loaded is not None and newest.loaded[:5] == (None,) * 5


def test_joined_rows_count_as_the_texts_read_together() -> None:
    texts = ["red bike red", "blue bike", "", "北京 bike"]
    whole = postings.Rows.of(texts, lexical.full_terms)
    joined = postings.Rows.join(
        [
            postings.Rows.of(texts[:2], lexical.full_terms),
            postings.Rows.of(texts[2:], lexical.full_terms),
        ]
    )
    for rows in (whole, joined):
        assert rows.n == 4

    def counts(rows: postings.Rows, i: int) -> dict[str, float]:
        at = slice(rows.ptr[i], rows.ptr[i + 1])
        return {rows.vocab[c]: v for c, v in zip(rows.cols[at], rows.vals[at], strict=True)}

    for i in range(4):
        assert counts(whole, i) == counts(joined, i)
    assert whole.lengths().tolist() == [3.0, 2.0, 0.0, joined.lengths()[3]]


def test_lazy_pieces_load_each_candidate_once_and_score_as_if_at_hand() -> None:
    docs = [_pieces(n) for n in range(5)]
    query = TokenVectors.quantise([9, 10], np.ones((2, 8)), ("red", "bike"))
    asked: list[list[int]] = []

    def load(turns):  # type: ignore[no-untyped-def]
        asked.append(list(turns))
        return [docs[t] for t in turns]

    count = np.array([len(d) for d in docs])
    ids = np.concatenate([d.ids for d in docs])
    lazy = Pieces.lazy(count, ids, 8, {0: docs[0]}, load)
    eager = Pieces(docs)
    assert np.array_equal(lazy.df, eager.df)
    got = lazy.scores(query, np.array([0, 3, 1]))
    assert np.allclose(got, eager.scores(query, np.array([0, 3, 1])))
    assert asked == [[3, 1]]  # not the one at hand
    lazy.scores(query, np.array([1, 3, 4]))
    assert asked == [[3, 1], [4]]  # each loaded once
    failing = Pieces.lazy(count, ids, 8, {}, lambda turns: [None] * len(turns))
    assert failing.scores(query, np.array([0, 1])).tolist() == [0.0, 0.0]
