"""Late interaction: word-piece vectors kept compactly, matched piece by piece (no I/O)."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pytest

from memwise import errors
from memwise._retrieval import late
from memwise._retrieval.late import TokenVectors
from memwise._retrieval.turns import TurnDoc, TurnIndex, TurnRecallConfig

DIM = 16
# a toy vocabulary: each word one piece id and a direction; "kids" and "children" share
# most of theirs, as a contextual encoder puts them close
_WORDS = ["ann", ":", "the", "kids", "children", "love", "tampa", "florida", "bike", "red"]
_BASE = np.random.default_rng(7).normal(size=(len(_WORDS), DIM)).astype(np.float32)
_BASE[_WORDS.index("children")] = _BASE[_WORDS.index("kids")] + 0.1
_BASE[_WORDS.index("florida")] = _BASE[_WORDS.index("tampa")] + 0.2


def pieces(text: str, keep_text: bool = False) -> TokenVectors:
    words = [w for w in re.findall(r"[a-z]+|:", text.lower()) if w in _WORDS]
    ids = [_WORDS.index(w) for w in words]
    return TokenVectors.quantise(ids, _BASE[ids], words if keep_text else ())


def test_piece_vectors_survive_int8_and_bytes() -> None:
    rng = np.random.default_rng(1)
    vectors = rng.normal(size=(12, 384)).astype(np.float32)
    packed = TokenVectors.quantise(list(range(100, 112)), vectors)
    back = TokenVectors.from_bytes(packed.to_bytes())
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    assert (back.unit() * unit).sum(axis=1).min() > 0.999
    assert back.ids.tolist() == list(range(100, 112)) and len(back) == 12
    assert len(packed.to_bytes()) < vectors.nbytes / 3  # a fourth of float32, and the ids
    empty = TokenVectors.quantise([], np.zeros((0, 384), dtype=np.float32))
    assert len(TokenVectors.from_bytes(empty.to_bytes())) == 0


@pytest.mark.parametrize("data", [b"", b"\x01\x02", b"\x09" + bytes(20)])
def test_unreadable_piece_vectors_are_a_clear_error(data: bytes) -> None:
    with pytest.raises(errors.Invalid):
        TokenVectors.from_bytes(data)
    with pytest.raises(errors.Invalid):  # one vector per id, or nothing is made
        TokenVectors.quantise([1, 2], np.ones((3, 4), dtype=np.float32))


def test_content_pieces_leave_out_stop_words_names_and_marks() -> None:
    q = TokenVectors.quantise(
        [1, 2, 3, 4, 5, 6],
        np.ones((6, 4), dtype=np.float32),
        ("where", "does", "ann", "kay", "##ak", "?"),
    )
    assert late.content_rows(q, {"ann"}) == [3, 4]  # "kay" "##ak"; a stop word, a name, "?"
    whit = TokenVectors.quantise(
        [1, 2, 3, 4, 5, 6, 7],
        np.ones((7, 4), dtype=np.float32),
        ("did", "whit", "##field", "buy", "covid", "##19", "2024"),
    )
    # a name in several pieces leaves whole; a word with a figure stays, a bare number goes
    assert late.content_rows(whit, {"whitfield"}) == [3, 4, 5]


def test_a_piece_meets_its_near_meaning_and_rare_pieces_count_more() -> None:
    docs = [pieces("the kids love the red bike"), pieces("the children"), pieces("red bike")]
    query = pieces("the children love Tampa", keep_text=True)
    got = late.Pieces(docs).scores(query, np.arange(3))
    assert got[0] > got[2] and got[1] > got[2]  # "kids" answers "children"
    assert got.min() >= 0.0 and got.max() <= 1.0
    assert late.Pieces(docs).df[_WORDS.index("red")] == 2  # in how many turns
    shuffled = late.Pieces(docs).scores(query, np.array([2, 0, 1]))
    assert np.allclose(shuffled, got[[2, 0, 1]])  # candidates in any order, each its own
    missing = late.Pieces([None, *docs[1:]]).scores(query, np.array([2, 0, 1]))
    assert missing[1] == 0.0 and missing[0] > 0  # a turn without vectors scores nothing
    # the same scores as matching each candidate's pieces one by one, rarer pieces heavier
    rows = late.content_rows(query, ())
    q = query.unit()[rows]
    df = late.Pieces(docs).df
    seen = np.array([df[int(query.ids[r])] for r in rows], dtype=float)
    weights = np.log1p((3 - seen + 0.5) / (seen + 0.5))
    for n, d in enumerate(docs):
        best = np.maximum((d.unit() @ q.T).max(axis=0), 0)
        assert abs(float(best @ weights / weights.sum()) - got[n]) < 1e-3


def test_turns_without_pieces_or_of_another_size_leave_the_rarity_counts_alone() -> None:
    docs = [pieces("the kids love the red bike"), pieces("the children"), pieces("red bike")]
    query = pieces("the children love Tampa", keep_text=True)
    got = late.Pieces(docs).scores(query, np.arange(3))
    other = TokenVectors.quantise([3], np.ones((1, DIM // 2), dtype=np.float32))
    for extra in (None, other):  # a turn older than the piece budget, a turn of another model
        mixed = late.Pieces([extra, *docs])
        assert mixed.count[0] == 0 and mixed.holding == 3
        assert np.allclose(mixed.scores(query, np.arange(4)), [0.0, *got])


def test_late_interaction_reorders_the_best_turns_only() -> None:
    docs = [
        TurnDoc("t1", "c1", "Ann", "We flew to Tampa with the kids."),
        TurnDoc("t2", "c2", "Ann", "Florida weather report, Florida rain."),
        TurnDoc("t3", "c3", "Ann", "The red bike is mine."),
    ]
    tokens = [pieces(f"{d.speaker}: {d.text}") for d in docs]
    base = TurnRecallConfig(neighbour_weight=0, late_weight=0.0)
    vectors = np.eye(3, dtype=np.float32)
    question = "Did Ann take the children to Florida?"
    qv = np.array([0.5, 0.5, 0.0], dtype=np.float32)
    qt = pieces(question, keep_text=True)

    plain = TurnIndex(docs, vectors, base, tokens=tokens)
    ranked = [docs[i].id for i, _ in plain.search(question, query_vector=qv, query_tokens=qt)]
    assert ranked[0] == "t2"  # the words say Florida; the first turn only means it

    lifted = TurnIndex(docs, vectors, replace(base, late_weight=1.0), tokens=tokens)
    ranked = [docs[i].id for i, _ in lifted.search(question, query_vector=qv, query_tokens=qt)]
    assert ranked[0] == "t1"
    no_pieces = [docs[i].id for i, _ in lifted.search(question, query_vector=qv)]
    assert no_pieces[0] == "t2"  # without the question's pieces, nothing changes

    shallow = TurnIndex(docs, vectors, replace(base, late_weight=1.0, late_depth=1), tokens=tokens)
    ranked = [docs[i].id for i, _ in shallow.search(question, query_vector=qv, query_tokens=qt)]
    assert ranked[0] == "t2"  # t1 is outside the turns it reorders

    with pytest.raises(ValueError):
        TurnIndex(docs, vectors, base, tokens=tokens[:2])


def _bike_turns() -> tuple[list[TurnDoc], list[TokenVectors | None]]:
    docs = [
        TurnDoc("t1", "c1", "Ann", "The bike, the bike, my bike broke."),
        TurnDoc("t2", "c2", "Ann", "A red bike."),
        TurnDoc("t3", "c3", "Ann", "The kids took the bike."),
    ]
    tokens: list[TokenVectors | None] = [pieces(f"{d.speaker}: {d.text}") for d in docs]
    tokens[0] = None  # older than the index's piece budget
    return docs, tokens


def test_a_turn_without_pieces_is_neither_lifted_nor_sunk() -> None:
    docs, tokens = _bike_turns()
    base = TurnRecallConfig(neighbour_weight=0, late_weight=0.0)
    question = "Did the children ride the bike?"
    qt = pieces(question, keep_text=True)
    plain = dict(TurnIndex(docs, None, base, tokens=tokens).search(question, query_tokens=qt))
    top = max(plain.values())
    lifted = dict(
        TurnIndex(docs, None, replace(base, late_weight=1.0), tokens=tokens).search(
            question, query_tokens=qt
        )
    )
    # the pieces spread t2 (no kids) and t3 (kids) over 0 to 1; t1 gains their mean
    assert lifted[2] == pytest.approx(plain[2] / top + 1.0)
    assert lifted[1] == pytest.approx(plain[1] / top)
    assert lifted[0] == pytest.approx(plain[0] / top + 0.5)


def test_late_interaction_finds_nothing_where_nothing_scores() -> None:
    docs, tokens = _bike_turns()
    index = TurnIndex(docs, None, TurnRecallConfig(late_weight=1.0), tokens=tokens)
    question = "Tampa Florida?"
    assert index.search(question, query_tokens=pieces(question, keep_text=True)) == []
