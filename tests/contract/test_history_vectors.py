"""Record recall keeps what it computed: turn vectors made by the worker when a conversation
ends, read back by any process; and a turn found by what memory kept from it (both backends)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memwise import FixedClock, Memwise
from memwise.retrieval import embedders, lexical


class CountingEmbedder:
    """A word-hashing embedder that counts the texts it is asked to embed."""

    id = "test:words"

    def __init__(self) -> None:
        self.texts = 0
        self.batches: list[int] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts += len(texts)
        self.batches.append(len(texts))
        out = np.zeros((len(texts), 64), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in lexical.terms(t):
                out[i, hash(w) % 64] += 1.0
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
    from memwise.services.conversation.record import NewTurn

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
        first.worker().run_once()  # 64-dimension vectors kept
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
