"""Knowledge and the teaching step on every backend."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import httpx
import numpy as np
import pytest

from memwise import Memwise, errors
from memwise._retrieval import embedders
from memwise._services.knowledge.teaching import Tickets, WebhookTickets
from memwise._services.memory.memory import NewItem
from memwise._text import lexical

MANUAL = """The Alpine 2 is a two-person trekking tent.

Pitching: peg the corners first, then insert the two colour-coded poles into the sleeves.

Waterproofing: the flysheet is rated 3000 mm hydrostatic head; the groundsheet 5000 mm.

Warranty: two years from the date on the invoice, covering seams and poles."""


def _ws(mw: Memwise) -> str:
    ws, _ = mw.tenancy.create_workspace("Shop")
    return ws.id


def _manual(mw: Memwise, ws: str, version: str = "1", body: str = MANUAL):  # type: ignore[no-untyped-def]
    return mw.knowledge.add_document(
        ws,
        kind="manual",
        title="Alpine 2 tent manual",
        body=body,
        version=version,
        source_url="https://example.com/alpine2.pdf",
        identifiers=["ALP-2", "FP-220"],
    )


def test_search_quotes_the_passage_and_links_the_source(mw: Memwise) -> None:
    ws = _ws(mw)
    mw.rt.limits.knowledge.chunk_chars = 120
    _manual(mw, ws)
    hit = mw.knowledge.answers(ws, "How waterproof is the flysheet of the Alpine 2?")
    assert hit is not None and hit.part == "reference"
    assert "3000 mm" in hit.excerpt and hit.source_url == "https://example.com/alpine2.pdf"
    assert hit.position == 2 and hit.version == "1"
    assert mw.knowledge.answers(ws, "Do you sell kayak paddles for children?") is None


def test_a_new_version_supersedes_and_is_the_only_one_served(mw: Memwise) -> None:
    ws = _ws(mw)
    first = _manual(mw, ws)
    with pytest.raises(errors.Conflict):
        _manual(mw, ws)
    second = _manual(mw, ws, "2", MANUAL.replace("two years", "three years"))
    assert mw.knowledge.document(ws, first.id).status == "superseded"
    assert mw.knowledge.document(ws, first.id).superseded_by == second.id
    hits = mw.knowledge.search(ws, "warranty years invoice", recipe="lexical")
    assert {h.id for h in hits} == {second.id} and "three years" in hits[0].excerpt
    assert [d.version for d in mw.knowledge.documents(ws, include_superseded=True)] == ["1", "2"]


def test_identifier_lookup_is_exact(mw: Memwise) -> None:
    ws = _ws(mw)
    doc = _manual(mw, ws)
    assert [d.id for d in mw.knowledge.lookup(ws, "fp-220")] == [doc.id]
    assert mw.knowledge.lookup(ws, "FP-22") == [] and mw.knowledge.lookup(ws, "FP-2200") == []
    other, _ = mw.tenancy.create_workspace("Other")
    assert mw.knowledge.lookup(other.id, "FP-220") == []


def test_contact_details_never_enter_knowledge(mw: Memwise) -> None:
    ws = _ws(mw)
    mw.tenancy.create_contact(ws, "Ann Lee", emails=["ann@example.com"], phones=["+49 30 555 0199"])
    for body in (
        "Ask Ann Lee about the tent.",
        "Write to ann@example.com for details.",
        "Call 030 555 0199 for support.",
    ):
        with pytest.raises(errors.Refused) as exc:
            mw.knowledge.add_document(ws, kind="policy", title="Support", body=body, version="1")
        assert exc.value.code == "contact_details_in_knowledge"
    with pytest.raises(errors.Refused):
        mw.teaching.draft(ws, "Who handles returns?", "Ann Lee does, ann@example.com")
    assert mw.knowledge.documents(ws) == [] and mw.teaching.lessons(ws) == []


def test_the_teaching_step(mw: Memwise) -> None:
    ws = _ws(mw)
    item, created = mw.teaching.record_unanswered(ws, "Do you ship to Austria?")
    again, created_again = mw.teaching.record_unanswered(ws, "do you ship to austria")
    assert created and not created_again and again.id == item.id and again.count == 2
    assert mw.knowledge.answers(ws, "Do you ship to Austria?") is None
    draft = mw.teaching.draft(
        ws,
        "Do you ship to Austria?",
        "Yes, we ship to Austria within 3 to 5 working days.",
        unanswered_id=item.id,
        actor="key:operator",
    )
    assert mw.knowledge.answers(ws, "Do you ship to Austria?") is None  # a draft answers nothing
    receipt = mw.teaching.approve(ws, draft.id, approved_by="key:admin")
    assert receipt.approved_by == "key:admin" and receipt.unanswered_id == item.id
    assert receipt.content_hash == mw.teaching.lesson(ws, draft.id).content_hash
    hit = mw.knowledge.answers(ws, "do you ship to austria?")
    assert hit is not None and hit.part == "lesson" and hit.id == draft.id
    assert mw.teaching.unanswered(ws) == []
    assert mw.teaching.unanswered(ws, status="closed")[0].lesson_id == draft.id
    with pytest.raises(errors.Conflict):
        mw.teaching.approve(ws, draft.id, approved_by="key:admin")
    revised = mw.teaching.revise(ws, draft.id, answer="Yes, to Austria in 2 working days.")
    assert revised.version == 2 and revised.status == "draft"
    mw.teaching.approve(ws, revised.id, approved_by="key:owner")
    assert mw.teaching.lesson(ws, draft.id).status == "superseded"
    hit = mw.knowledge.answers(ws, "Do you ship to Austria?")
    assert hit is not None and "2 working days" in hit.excerpt
    mw.teaching.withdraw(ws, revised.id, by_name="key:owner")
    assert mw.knowledge.answers(ws, "Do you ship to Austria?") is None
    assert [r.action for r in mw.teaching.receipts(ws)] == ["published", "published", "withdrawn"]


def test_repeated_claims_in_conversations_never_become_knowledge(mw: Memwise) -> None:
    ws = _ws(mw)
    agent = mw.tenancy.create_agent(ws, "Eve", memory_enabled=True, domain="retail")
    for _ in range(5):
        contact = mw.tenancy.create_contact(ws, "A Customer").id
        conv, _ = mw.record.start(ws, agent.id, "web", contact_id=contact)
        mw.record.append(ws, conv.id, "customer", "The Trail stove boils water in 2 minutes.")
        mw.record.end(ws, conv.id)
    mw.worker().run_once()
    assert mw.knowledge.answers(ws, "How fast does the Trail stove boil water?") is None


def test_tickets_are_accepted_only_when_the_system_confirms(mw: Memwise) -> None:
    ws = _ws(mw)
    local = mw.tickets.open(ws, subject="Austria shipping", body="Customer asks about Austria")
    assert local.status == "accepted" and local.adapter == "local"

    def answer(status: int):  # type: ignore[no-untyped-def]
        return httpx.MockTransport(lambda req: httpx.Response(status, json={"id": "EXT-1"}))

    ok = Tickets(mw.rt, WebhookTickets("https://tickets.invalid/hook", transport=answer(201)))
    assert (ok.open(ws, subject="s", body="b").status, ok.find(ws)[-1].external_ref) == (
        "accepted",
        "EXT-1",
    )
    bad = Tickets(mw.rt, WebhookTickets("https://tickets.invalid/hook", transport=answer(500)))
    failed = bad.open(ws, subject="s", body="b")
    assert failed.status == "failed" and "500" in (failed.error or "")

    def refuse(req: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused")

    down = Tickets(
        mw.rt, WebhookTickets("https://tickets.invalid/hook", transport=httpx.MockTransport(refuse))
    )
    assert down.open(ws, subject="s", body="b").status == "failed"
    statuses = [e.status for e in mw.audit.entries(ws, tool="create_ticket")]
    assert statuses == ["failed", "failed", "executed", "executed"]


class WordsEmbedder:
    """A deterministic test double: hashed bag of stemmed words (meaning by shared words)."""

    id = "test:words"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), 64), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in lexical.terms(t):
                out[i, int(hashlib.md5(w.encode()).hexdigest(), 16) % 64] += 1
        return embedders.normalise(out)


def test_hybrid_search_fuses_words_and_vectors(database_url: str) -> None:
    mw = Memwise.open(database_url, embedder=WordsEmbedder(), migrate=False)
    ws = _ws(mw)
    _manual(mw, ws)
    hits = mw.knowledge.search(ws, "groundsheet hydrostatic head", recipe="hybrid")
    assert hits and hits[0].similarity is not None and "5000 mm" in hits[0].excerpt
    lexical_only = mw.knowledge.search(ws, "groundsheet hydrostatic head", recipe="lexical")
    assert lexical_only[0].similarity is None
    with pytest.raises(errors.Invalid):
        mw.knowledge.search(ws, "x", recipe="magic")  # type: ignore[arg-type]
    mw.close()


def test_an_overlong_source_url_is_refused_before_anything_is_written(mw: Memwise) -> None:
    ws, _ = mw.tenancy.create_workspace("Shop", "UTC")
    with pytest.raises(errors.Invalid) as caught:
        mw.knowledge.add_document(
            ws.id,
            kind="faq",
            title="Returns",
            body="Within 30 days.",
            version="1",
            source_url="https://example.com/" + "x" * 1000,
        )
    assert caught.value.code == "invalid_url"
    assert mw.knowledge.documents(ws.id) == []


def test_a_rare_word_finds_its_chunk_among_many_holding_a_common_one(mw: Memwise) -> None:
    """With statistics (as autovacuum keeps them), PostgreSQL ranks the chunks of the
    question's rarest words first; the answer is the same on every backend."""
    ws, _ = mw.tenancy.create_workspace("Big shop")
    filler = [
        {"title": f"Delivery note {i}", "body": f"Delivery times for region {i} vary by season."}
        for i in range(150)
    ]
    for doc in filler:
        mw.knowledge.add_document(ws.id, kind="policy", version="1", **doc)
    mw.knowledge.add_document(
        ws.id,
        kind="policy",
        title="Islands",
        body="Delivery to Heligoland takes five working days by ferry.",
        version="1",
    )
    if mw.rt.db.name == "postgresql":
        with mw.rt.db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
            c.exec_driver_sql("ANALYZE knowledge_chunks")
    hits = mw.knowledge.search(ws.id, "delivery heligoland", recipe="lexical")
    assert hits and hits[0].title == "Islands"
    # a question of common words only still finds chunks holding them all
    hits = mw.knowledge.search(ws.id, "delivery season", recipe="lexical")
    assert hits and all("season" in h.excerpt.lower() for h in hits[:3])


class CountingEmbedder(WordsEmbedder):
    def __init__(self) -> None:
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts += list(texts)
        return super().embed(texts)


def test_a_turns_question_is_embedded_once_for_every_part(database_url: str) -> None:
    inner = CountingEmbedder()
    mw = Memwise.open(database_url, embedder=inner, migrate=False)
    ws = _ws(mw)
    _manual(mw, ws)
    agent = mw.tenancy.create_agent(ws, "Eve", memory_enabled=True, domain="retail")
    ann = mw.tenancy.create_contact(ws, "Ann").id
    for i in range(14):  # more than the profile holds: recall ranks the rest by meaning too
        mw.memory.write(ws, ann, NewItem("fact", f"Owns tent number {i}", source="operator"))
    conv, _ = mw.record.start(ws, agent.id, "web", contact_id=ann)
    question = "What is the hydrostatic head of the groundsheet?"
    before = len(inner.texts)
    mw.assistant.context(ws, conv.id, question)
    asked = [t for t in inner.texts[before:] if t == question]
    assert len(asked) == 1, inner.texts[before:]  # recall and knowledge shared one vector
    mw.close()


def test_another_workspaces_many_chunks_neither_leak_nor_crowd_out_ours(mw: Memwise) -> None:
    """Candidates are ranked in the full-text index first (every workspace's rows), then
    checked: another workspace holding the question's best chunks takes none of their
    places and shows none of them; replaced versions are never candidates either."""
    big, _ = mw.tenancy.create_workspace("Big shop")
    small, _ = mw.tenancy.create_workspace("Small shop")
    for i in range(130):  # more than the candidates a search ranks
        mw.knowledge.add_document(
            big.id, kind="policy", version="1", title=f"Ferry {i}", body=f"Ferry ferry {i}."
        )
    for i in range(4):
        mw.knowledge.add_document(
            small.id,
            kind="policy",
            version="1",
            title=f"Route {i}",
            body=f"The ferry to island {i} leaves in the morning; booking at the harbour.",
        )
    mw.knowledge.add_document(
        small.id, kind="policy", version="2", title="Route 0", body="Ferry times moved online."
    )
    for question in ("ferry", "ferry booking"):
        hits = mw.knowledge.search(small.id, question, recipe="lexical", limit=10)
        assert sorted(h.title for h in hits) == ["Route 0", "Route 1", "Route 2", "Route 3"]
        route0 = next(h for h in hits if h.title == "Route 0")
        assert "online" in route0.excerpt  # the current version, never the replaced one


def test_another_workspaces_newer_chunks_never_hide_ours(
    mw: Memwise, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Questions whose every word is in many chunks rank a sample of them (the newest on
    SQLite); a sample filled by another workspace's chunks still finds this one's."""
    from memwise._storage import postgres, sqlite

    monkeypatch.setattr(sqlite, "SAMPLE", 20)
    monkeypatch.setattr(postgres, "SAMPLE", 20)
    ours, _ = mw.tenancy.create_workspace("Harbour shop")
    theirs, _ = mw.tenancy.create_workspace("Ferry company")
    for i in range(3):
        mw.knowledge.add_document(
            ours.id,
            kind="policy",
            version="1",
            title=f"Our ferry note {i}",
            body=f"The island ferry for parcels leaves at {i + 8} o'clock.",
        )
    for i in range(40):  # newer, and more than the sample
        mw.knowledge.add_document(
            theirs.id,
            kind="policy",
            version="1",
            title=f"Timetable {i}",
            body=f"The island ferry sails from pier {i}.",
        )
    hits = mw.knowledge.search(ours.id, "island ferry", recipe="lexical")
    assert sorted(h.title for h in hits) == [f"Our ferry note {i}" for i in range(3)]
    with mw.rt.db.read() as conn:  # ranked, not only found by the later fill
        if mw.rt.db.name == "sqlite":
            ranked = sqlite._ranked(conn, ours.id, '"island" AND "ferry"', 3, sqlite.SAMPLE)
        else:
            ranked = postgres._ranked(conn, ours.id, "island & ferry", 3, postgres.SAMPLE)
    assert len(ranked) == 3 and all(score > 0 for _, score in ranked)
    hits = mw.knowledge.search(theirs.id, "island ferry", recipe="lexical", limit=5)
    assert len(hits) == 5 and all(h.title.startswith("Timetable") for h in hits)


def test_reading_candidates_until_enough_hold_every_word_changes_no_answer(mw: Memwise) -> None:
    """Words alone: candidates are read and scored in their ranked order until the results
    wanted hold every word; the answer is the one scoring all of them gives."""
    ws, _ = mw.tenancy.create_workspace("Shop")
    bodies = [
        "Ferry tickets are sold at the harbour.",
        "The ferry leaves at noon.",
        "Harbour parking is free on Sundays.",
        "Ferry and harbour fees are listed on the board.",
        "Tickets for the island ferry from the harbour office.",
        "The harbour office opens at eight.",
        "Ferry times change in winter; tickets stay valid.",
    ]
    for i, body in enumerate(bodies):
        mw.knowledge.add_document(ws.id, kind="policy", title=f"Note {i}", body=body, version="1")
    for question in ("ferry harbour tickets", "ferry harbour", "harbour office", "winter"):
        every = mw.knowledge.search(ws.id, question, recipe="lexical", limit=len(bodies))
        for limit in (1, 2, 3):
            few = mw.knowledge.search(ws.id, question, recipe="lexical", limit=limit)
            assert [h.title for h in few] == [h.title for h in every[:limit]], (question, limit)
            assert [h.coverage for h in few] == [h.coverage for h in every[:limit]]


class OtherWordsEmbedder(WordsEmbedder):
    id = "test:other-words"


def test_chunks_published_before_an_embedder_are_embedded_by_the_worker(
    database_url: str,
) -> None:
    """Knowledge published without an embedder (or under another one) gains the configured
    embedder's vectors in the worker's sweep, a bounded batch at a time; search then finds
    those chunks by meaning."""
    before = Memwise.open(database_url, migrate=False)  # MEMWISE_EMBEDDER=none
    ws = _ws(before)
    before.rt.limits.knowledge.chunk_chars = 120
    _manual(before, ws)
    before.close()
    other = Memwise.open(database_url, embedder=OtherWordsEmbedder(), migrate=False)
    other.knowledge.add_document(
        ws, kind="faq", title="Returns", body="Returns within 30 days.", version="1"
    )
    other.close()
    mw = Memwise.open(database_url, embedder=WordsEmbedder(), migrate=False)
    mw.rt.limits.knowledge.chunk_chars = 120
    hits = mw.knowledge.search(ws, "flysheet waterproof hydrostatic", recipe="hybrid")
    assert hits and all(h.similarity is None for h in hits)  # no vector of ours yet
    assert mw.knowledge.embed_missing(ws, limit=2) == 2  # bounded
    assert mw.knowledge.embed_missing(ws) == 3  # the manual's 4 chunks and the FAQ's, 2 done
    assert mw.knowledge.embed_missing(ws) == 0
    hits = mw.knowledge.search(ws, "flysheet waterproof hydrostatic", recipe="hybrid")
    assert hits[0].similarity is not None and "3000 mm" in hits[0].excerpt
    assert mw.knowledge.search(ws, "returns days", recipe="hybrid")[0].similarity is not None
    mw.worker().run_once(force=True)  # the sweep runs it; nothing is left to do
    assert mw.knowledge.embed_missing() == 0
    mw.close()
