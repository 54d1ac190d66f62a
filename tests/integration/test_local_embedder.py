"""The local MiniLM embedder (memwise[local]), offline: runs where the extra is installed."""

from __future__ import annotations

import pytest

pytest.importorskip("sentence_transformers", reason="memwise[local] is not installed here")


def test_minilm_embeds_offline_and_finds_meaning(
    mw_sqlite: object, monkeypatch: pytest.MonkeyPatch, sqlite_url: str
) -> None:
    from memwise import Memwise
    from memwise._retrieval.embedders import MiniLMEmbedder

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    embedder = MiniLMEmbedder()
    v = embedder.embed(
        ["Do you ship to Austria?", "We deliver to Austria in five days", "The tent is waterproof"]
    )
    assert v.shape == (3, 384) and v[0] @ v[1] > v[0] @ v[2] + 0.3
    mw = Memwise.open(sqlite_url, embedder=embedder, migrate=False)
    ws, _ = mw.tenancy.create_workspace("Shop")
    mw.knowledge.add_document(
        ws.id,
        kind="faq",
        title="Delivery",
        version="1",
        body="We deliver to Austria within five working days.",
    )
    hit = mw.knowledge.answers(ws.id, "Can you send parcels to Vienna, Austria?")
    assert hit is not None and hit.similarity is not None and hit.similarity > 0.4
    mw.close()
