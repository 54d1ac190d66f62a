"""Record recall keeps what it computed: turn vectors made by the worker when a conversation
ends, read back by any process; and a turn found by what memory kept from it (both backends)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
import pytest

from memwise import FixedClock, Memwise
from memwise._retrieval import embedders
from memwise._retrieval.late import TokenVectors
from memwise._text import lexical

DIM = 1024  # more than this file's words: no two share a dimension
_SLOTS: dict[str, int] = {}


def _slot(word: str) -> int:
    """A word's own dimension (and piece id), the same in every run: Python's ``hash`` of a
    string changes with each process, and two words sharing a dimension would read as one
    meaning to the rankings these tests assert."""
    return _SLOTS.setdefault(word, len(_SLOTS) % DIM)


class CountingEmbedder:
    """A word-counting embedder (a dimension per word) that counts the texts it embeds."""

    id = "test:words"

    def __init__(self) -> None:
        self.texts = 0
        self.batches: list[int] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts += len(texts)
        self.batches.append(len(texts))
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in lexical.terms(t):
                out[i, _slot(w)] += 1.0
        return embedders.normalise(out)


def _customer_with_history(mw: Memwise) -> tuple[str, str, str]:
    ws, _ = mw.tenancy.create_workspace("Shop", "UTC", "business")
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    ann = mw.tenancy.create_contact(ws.id, "Ann Lee")
    conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=ann.id)
    mw.record.append(ws.id, conv.id, "customer", "The frame of my Trek bike cracked.")
    mw.record.append(ws.id, conv.id, "assistant", "Sorry, we will check the warranty.")
    return ws.id, ann.id, conv.id


def test_the_worker_embeds_a_conversations_turns_once_it_ends(
    database_url: str, clock: FixedClock
) -> None:
    counting = CountingEmbedder()
    mw = Memwise.open(database_url, clock=clock, migrate=False, embedder=counting)
    try:
        ws, ann, conv = _customer_with_history(mw)
        mw.record.end(ws, conv)
        mw.worker().run_once()
        assert counting.texts == 2  # both turns, by the worker
        job = mw.jobs.by_key(ws, f"embed_turns:{conv}")
        assert job is not None and job.status.value == "done"
        # a fresh process (a new History, nothing cached) embeds only the question
        other = Memwise.open(database_url, clock=clock, migrate=False, embedder=counting)
        try:
            hits = other.history.recall(ws, ann, "which bike cracked?")
            assert hits and "Trek" in hits[0].text
            assert counting.texts == 3
        finally:
            other.close()
    finally:
        mw.close()


def test_turns_from_before_the_embedder_are_embedded_once_and_kept(
    database_url: str, clock: FixedClock
) -> None:
    plain = Memwise.open(database_url, clock=clock, migrate=False)
    try:
        ws, ann, conv = _customer_with_history(plain)
        plain.record.end(ws, conv)
        plain.worker().run_once()
        assert plain.jobs.by_key(ws, f"embed_turns:{conv}") is None  # no embedder: no job
    finally:
        plain.close()
    counting = CountingEmbedder()
    for n in range(2):  # two processes in turn: only the first embeds the turns
        mw = Memwise.open(database_url, clock=clock, migrate=False, embedder=counting)
        try:
            assert mw.history.recall(ws, ann, "warranty check")
        finally:
            mw.close()
        assert counting.texts == (3 if n == 0 else 4)


def test_a_turn_is_found_by_what_memory_kept_from_it(mw: Memwise) -> None:
    ws, _ = mw.tenancy.create_workspace("Shop", "UTC", "business")
    agent = mw.tenancy.create_agent(ws.id, "Eve", memory_enabled=True, domain="retail")
    ann = mw.tenancy.create_contact(ws.id, "Ann Lee")
    conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=ann.id)
    mw.record.append(ws.id, conv.id, "customer", "Please don't ring me, I'd rather get an email.")
    mw.record.append(ws.id, conv.id, "assistant", "Noted.")
    question = "may we make phone calls to her?"
    assert not any("ring" in h.text for h in mw.history.recall(ws.id, ann.id, question))
    mw.record.end(ws.id, conv.id)
    mw.worker().run_once()
    items = mw.memory.items(ws.id, ann.id)
    assert items, "the offline extractor keeps the channel preference"
    hits = mw.history.recall(ws.id, ann.id, question)  # the index follows the new items
    assert hits and "ring me" in hits[0].text


def test_a_long_conversation_is_embedded_in_batches(database_url: str, clock: FixedClock) -> None:
    from memwise._services.conversation.record import NewTurn

    counting = CountingEmbedder()
    mw = Memwise.open(database_url, clock=clock, migrate=False, embedder=counting)
    try:
        ws, _, conv = _customer_with_history(mw)
        mw.record.append_many(
            ws, conv, [NewTurn("customer", f"note number {n}") for n in range(300)]
        )
        mw.record.end(ws, conv)
        mw.worker().run_once()
        assert sum(counting.batches) == 302 and max(counting.batches) <= 256
    finally:
        mw.close()


class NarrowEmbedder(CountingEmbedder):
    """The same name as CountingEmbedder, another model behind it (32 dimensions)."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return super().embed(texts)[:, :32]


class BrokenEmbedder(CountingEmbedder):
    def embed(self, texts: Sequence[str]) -> np.ndarray:
        raise ConnectionError("the embeddings service is down")


def test_a_changed_or_broken_embedder_never_breaks_recall(
    database_url: str, clock: FixedClock
) -> None:
    first = Memwise.open(database_url, clock=clock, migrate=False, embedder=CountingEmbedder())
    try:
        ws, ann, conv = _customer_with_history(first)
        first.record.end(ws, conv)
        first.worker().run_once()  # DIM-dimension vectors kept
    finally:
        first.close()
    for embedder in (NarrowEmbedder(), BrokenEmbedder(), NarrowEmbedder()):
        mw = Memwise.open(database_url, clock=clock, migrate=False, embedder=embedder)
        try:
            hits = mw.history.recall(ws, ann, "which bike cracked?")
            assert hits and "Trek" in hits[0].text
        finally:
            mw.close()
    narrow = NarrowEmbedder()
    mw = Memwise.open(database_url, clock=clock, migrate=False, embedder=narrow)
    try:
        assert mw.history.recall(ws, ann, "which bike cracked?")
        assert narrow.texts == 1  # the 32-dimension vectors were kept the first time
    finally:
        mw.close()


def test_staff_conversations_are_not_embedded(database_url: str, clock: FixedClock) -> None:
    mw = Memwise.open(database_url, clock=clock, migrate=False, embedder=CountingEmbedder())
    try:
        ws, _ = mw.tenancy.create_workspace("Shop", "UTC", "business")
        agent = mw.tenancy.create_agent(ws.id, "Eve")
        mira = mw.tenancy.create_user(ws.id, "Mira", "operator")
        conv, _ = mw.record.start(ws.id, agent.id, "web", user_id=mira.id)
        mw.record.append(ws.id, conv.id, "user", "How do refunds work?")
        mw.record.end(ws.id, conv.id)
        assert mw.jobs.by_key(ws.id, f"embed_turns:{conv.id}") is None
    finally:
        mw.close()


class PieceEmbedder(CountingEmbedder):
    """CountingEmbedder that also gives a vector per word (late interaction), counting the
    texts it is asked for word pieces of."""

    gives_tokens = True

    def __init__(self) -> None:
        super().__init__()
        self.piece_texts = 0

    def embed_tokens(self, texts: Sequence[str]) -> tuple[np.ndarray, list[TokenVectors]]:
        self.piece_texts += len(texts)
        out = []
        for t in texts:
            words = [w.lower() for w in lexical._WORD.findall(t)]
            vectors = np.zeros((len(words), DIM), dtype=np.float32)
            for i, w in enumerate(words):
                vectors[i, _slot(w)] = 1.0
            ids = [_slot(w) for w in words]
            out.append(TokenVectors.quantise(ids, vectors, words if len(texts) == 1 else ()))
        self.texts -= len(texts)  # the sentence vectors below are this call's, not embed's
        return self.embed(texts), out


def _ended(
    database_url: str, clock: FixedClock, embedder: embedders.Embedder
) -> tuple[str, str, str]:
    """A contact's conversation, ended and worked by the worker of a process that then closes."""
    mw = Memwise.open(database_url, clock=clock, migrate=False, embedder=embedder)
    try:
        ws, ann, conv = _customer_with_history(mw)
        mw.record.end(ws, conv)
        mw.worker().run_once()
        return ws, ann, conv
    finally:
        mw.close()


class SamePlainEmbedder(CountingEmbedder):
    """PieceEmbedder's name without word pieces: vectors kept before late interaction."""

    id = PieceEmbedder.id


def test_word_piece_vectors_are_made_by_the_worker_and_kept(
    database_url: str, clock: FixedClock
) -> None:
    pieces = PieceEmbedder()
    ws, ann, _ = _ended(database_url, clock, pieces)
    assert (pieces.piece_texts, pieces.texts) == (2, 0)  # both turns, in one pass each
    for _ in range(2):  # fresh processes: only the question is embedded, its pieces too
        other = Memwise.open(database_url, clock=clock, migrate=False, embedder=pieces)
        try:
            before = (pieces.piece_texts, pieces.texts)
            hits = other.history.recall(ws, ann, "which bike cracked?")
            assert hits and "Trek" in hits[0].text
            # the question's sentence vector comes from the same pass as its pieces
            assert (pieces.piece_texts, pieces.texts) == (before[0] + 1, before[1])
        finally:
            other.close()


def test_vectors_kept_without_word_pieces_gain_them_once(
    database_url: str, clock: FixedClock
) -> None:
    ws, ann, _ = _ended(database_url, clock, SamePlainEmbedder())  # vectors, no word pieces
    pieces = PieceEmbedder()
    for n in range(2):  # the first recall makes the turns' pieces and keeps them
        mw = Memwise.open(database_url, clock=clock, migrate=False, embedder=pieces)
        try:
            assert mw.history.recall(ws, ann, "warranty check")
        finally:
            mw.close()
        assert pieces.piece_texts == (3 if n == 0 else 4)


def test_an_index_holds_the_word_pieces_of_the_newest_turns_only(
    database_url: str, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memwise._services.memory import history

    monkeypatch.setattr(history, "PIECE_BYTES", 4_000)  # one short turn's pieces
    ws, ann, _ = _ended(database_url, clock, SamePlainEmbedder())
    pieces = PieceEmbedder()
    mw = Memwise.open(database_url, clock=clock, migrate=False, embedder=pieces)
    try:
        assert mw.history.recall(ws, ann, "which bike cracked?")
        assert pieces.piece_texts == 2  # the newest turn's pieces, then the question's
        index = mw.history.prepare(ws, ann).index
        assert index.pieces is not None  # the older turn: none; "Eve: Sorry, we will …": 7
        assert index.pieces.count.tolist() == [0, 7]
    finally:
        mw.close()


def test_unreadable_word_pieces_are_made_again(database_url: str, clock: FixedClock) -> None:
    import sqlalchemy as sa

    from memwise._storage.schema import kept_turns, turns

    pieces = PieceEmbedder()
    ws, ann, conv = _ended(database_url, clock, pieces)
    mw = Memwise.open(database_url, clock=clock, migrate=False, embedder=pieces)
    try:
        with mw.rt.db.write() as conn:  # one turn's blob damaged, as a bad copy would
            # and how the worker kept the conversation: the turns are read again
            conn.execute(kept_turns.update().values(data=b"MWKT\x01junk"))
            first = (
                conn.execute(
                    sa.select(turns.c.id)
                    .where(turns.c.conversation_id == conv)
                    .order_by(turns.c.seq)
                )
                .scalars()
                .first()
            )
            conn.execute(
                turns.update().where(turns.c.id == first).values(token_vectors=b"\x01junk")
            )
        before = pieces.piece_texts
        hits = mw.history.recall(ws, ann, "which bike cracked?")
        assert hits and "Trek" in hits[0].text
        assert pieces.piece_texts == before + 2  # the damaged turn, then the question
    finally:
        mw.close()


class SameMeaningEmbedder(CountingEmbedder):
    """One sentence vector for every text (meaning ranks nothing), and word vectors in
    which a word and its synonym point the same way: only late interaction tells them."""

    id = "test:synonyms"
    gives_tokens = True
    SAME: ClassVar[dict[str, str]] = {"kids": "children", "took": "take"}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts += len(texts)
        return np.ones((len(texts), DIM), dtype=np.float32) / 32.0

    def embed_tokens(self, texts: Sequence[str]) -> tuple[np.ndarray, list[TokenVectors]]:
        out = []
        for t in texts:
            words = [w.lower() for w in lexical._WORD.findall(t)]
            meant = [self.SAME.get(w, w) for w in words]
            vectors = np.zeros((len(words), DIM), dtype=np.float32)
            for i, w in enumerate(meant):
                vectors[i, _slot(w)] = 1.0
            ids = [_slot(w) for w in words]
            out.append(TokenVectors.quantise(ids, vectors, words if len(texts) == 1 else ()))
        return self.embed(texts), out


class SameMeaningNoPieces(SameMeaningEmbedder):
    gives_tokens = False


def _kids_and_books(mw: Memwise) -> tuple[str, str]:
    """A contact whose trip with "the kids" only late interaction tells from "children's
    books" (the longer turn loses by words alone), their conversation ended and worked."""
    ws, _ = mw.tenancy.create_workspace("Shop", "UTC", "business")
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    ann = mw.tenancy.create_contact(ws.id, "Ann Lee")
    conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=ann.id)
    trip = "I took the kids to Lisbon last spring, a lovely old city by the sea."
    mw.record.append(ws.id, conv.id, "customer", trip)
    mw.record.append(ws.id, conv.id, "customer", "The children's books arrived.")
    mw.record.end(ws.id, conv.id)
    mw.worker().run_once()
    return ws.id, ann.id


def test_the_questions_word_pieces_reorder_a_recall(database_url: str, clock: FixedClock) -> None:
    question = "Which city did I take the children to?"
    firsts = []
    for embedder in (SameMeaningNoPieces(), SameMeaningEmbedder(), BrokenPieces()):
        mw = Memwise.open(database_url, clock=clock, migrate=False, embedder=embedder)
        try:
            ws, ann = _kids_and_books(mw)
            firsts.append(mw.history.recall(ws, ann, question)[0].text)
        finally:
            mw.close()
    without, late, broken = firsts
    assert without.startswith("The children")  # the words alone: the shorter turn
    assert late.startswith("I took the kids")  # "took the kids" means "take the children"
    assert broken.startswith("The children")  # no pieces to be had: the words still rank


class BrokenPieces(SameMeaningEmbedder):
    """Sentence vectors, but word pieces always fail (a model without its token output)."""

    id = "test:broken-pieces"

    attempts = 0

    def embed_tokens(self, texts: Sequence[str]) -> tuple[np.ndarray, list[TokenVectors]]:
        self.attempts += 1
        raise RuntimeError("no token output")


def test_turn_vectors_are_kept_when_word_pieces_cannot_be_made(
    database_url: str, clock: FixedClock
) -> None:
    broken = BrokenPieces()
    ws, ann, conv = _ended(database_url, clock, broken)
    mw = Memwise.open(database_url, clock=clock, migrate=False, embedder=broken)
    try:
        job = mw.jobs.by_key(ws, f"embed_turns:{conv}")
        assert job is not None and job.status.value == "done"
        assert broken.texts == 2  # both turns' sentence vectors, made without pieces
        hits = mw.history.recall(ws, ann, "which bike cracked?")
        assert hits and "Trek" in hits[0].text
        assert broken.texts == 3  # the question; the kept vectors are not made again
        agent = mw.tenancy.agents(ws)[0].id
        later, _ = mw.record.start(ws, agent, "web", contact_id=ann)
        mw.record.append(ws, later.id, "customer", "The new frame fits well.")
        assert mw.history.recall(ws, ann, "which frame fits?")
        assert broken.texts == 5  # the question and the new turn, nothing older
        assert broken.attempts == 2  # the worker's, the first question's; then not for a while
        clock.advance(minutes=11)
        assert mw.history.recall(ws, ann, "which frame fits?")
        assert broken.attempts == 3  # tried again, for the question
    finally:
        mw.close()


class FlakyPieces(SameMeaningEmbedder):
    """Word pieces that fail the first ``fails`` times they are asked for, then work."""

    id = "test:flaky-pieces"

    def __init__(self, fails: int) -> None:
        super().__init__()
        self.fails = fails

    def embed_tokens(self, texts: Sequence[str]) -> tuple[np.ndarray, list[TokenVectors]]:
        if self.fails:
            self.fails -= 1
            raise RuntimeError("the encoder's token output failed")
        return super().embed_tokens(texts)


def test_an_index_built_without_word_pieces_is_built_again_once_they_work(
    database_url: str, clock: FixedClock
) -> None:
    flaky = FlakyPieces(fails=1)  # the worker's pass; recalls soon after do not try again
    mw = Memwise.open(database_url, clock=clock, migrate=False, embedder=flaky)
    try:
        ws, ann = _kids_and_books(mw)
        question = "Which city did I take the children to?"
        first = mw.history.recall(ws, ann, question)[0].text
        assert first.startswith("The children")  # words alone, pieces failing
        index = mw.history.prepare(ws, ann).index
        assert index.pieces is not None and index.pieces.holding == 0
        clock.advance(minutes=11)  # the pieces work again; the record has not changed
        first = mw.history.recall(ws, ann, question)[0].text
        assert first.startswith("I took the kids")
        assert mw.history.prepare(ws, ann).index.pieces.holding == 2  # type: ignore[union-attr]
    finally:
        mw.close()
