"""Knowledge: the reference layer and taught lessons, searched as one.

Documents are versioned: a new version of the same document supersedes the old one, which
is kept and never served as current. Identifiers (SKU, part number, model) are looked up
exactly — no fuzzy match can claim a part exists. Long bodies are chunked with their
position kept, so an answer can quote the passage and link the source. ``search`` takes a
named recipe (lexical, hybrid) and decides when knowledge is silent.
"""

from __future__ import annotations

import hashlib
import re
import threading
from typing import Any

import numpy as np
from sqlalchemy.engine import Connection

from memwise import errors
from memwise._domain.access import Principal, require_staff
from memwise._domain.knowledge import (
    KINDS,
    Document,
    DocumentReceipt,
    DocumentStatus,
    ReviewAction,
    check_source_url,
)
from memwise._domain.knowledge import Hit as Hit
from memwise._domain.knowledge import HitPart as HitPart
from memwise._domain.knowledge import Recipe as Recipe
from memwise._domain.tenancy import Role
from memwise._ids import WorkspaceId, new_id
from memwise._policies.notebook import normalize
from memwise._retrieval import embedders, fusion
from memwise._retrieval.embedders import Embedder
from memwise._safety import pii
from memwise._services.platform import rows, sweeps
from memwise._services.platform.runtime import Runtime
from memwise._storage.stores import knowledge as store
from memwise._text import lexical

# The passages by words (coverage, then rank) and by meaning, fused by their ranks: meaning
# at three times the words' weight, k 30 — chosen by grid (k 10–60, meaning ×0.5–6) on
# knowledge_blind_1 and reported on knowledge_blind_2, written after (bench/README.md,
# "Knowledge search: the fusion fit"); equal weights at k 60 lost first place to plain cosine
# on paraphrased questions.
FUSION = fusion.Fusion(k=30, weights=(1.0, 3.0))
ANSWER_FROM = 5  # knowledge answers when one of its best five passages covers the question
POOL = 8  # lexical candidates scored per result wanted


def chunk(body: str, size: int) -> list[str]:
    """Paragraphs packed into chunks of at most ``size`` characters (long ones are split)."""
    parts: list[str] = []
    for para in (p.strip() for p in re.split(r"\n\s*\n", body)):
        while len(para) > size:
            cut = para.rfind(" ", 0, size)
            cut = cut if cut > size // 2 else size
            parts.append(para[:cut].strip())
            para = para[cut:].strip()
        if para:
            parts.append(para)
    chunks: list[str] = []
    for p in parts:
        if chunks and len(chunks[-1]) + 2 + len(p) <= size:
            chunks[-1] += "\n\n" + p
        else:
            chunks.append(p)
    return chunks


def identifier_key(identifier: str) -> str:
    return " ".join(str(identifier).split()).casefold()


class Knowledge:
    def __init__(self, rt: Runtime, embedder: Embedder | None = None) -> None:
        self.rt = rt
        self.embedder = embedder
        self._matrix: dict[tuple[str, str], tuple[Any, list[int], np.ndarray]] = {}
        self._lock = threading.Lock()

    @property
    def limits(self) -> Any:
        return self.rt.limits.knowledge

    # -- the reference layer ---------------------------------------------------------------
    def add_document(
        self,
        workspace_id: WorkspaceId,
        *,
        kind: str,
        title: str,
        body: str,
        version: str,
        source_url: str | None = None,
        identifiers: list[str] | None = None,
        key: str | None = None,
        actor: str = "operator",
        by: Principal | None = None,
        publish: bool | None = None,
    ) -> Document:
        """Add a document, or a new version of one, through the teaching step.

        An operator's document is a draft: nothing changes for customers until a person with
        the admin role approves it (``approve_document``); the current version stays served
        until then. An admin (or a library caller) publishes at once unless ``publish`` is
        False, with a receipt naming who published it.
        """
        if publish and by is not None and not by.at_least(Role.admin):
            raise errors.Forbidden(
                "publishing a document needs the admin role; it is kept as a draft instead",
                code="forbidden",
            )
        publish_now = publish if publish is not None else (by is None or by.at_least(Role.admin))
        if kind not in KINDS:
            raise errors.Invalid(f"kind must be one of: {', '.join(KINDS)}", code="invalid_kind")
        title = " ".join(str(title or "").split())
        if not title or len(title) > 300:
            raise errors.Invalid(
                "a document needs a title of at most 300 characters", code="invalid_title"
            )
        if not body or not body.strip() or len(body) > 500_000:
            raise errors.Invalid(
                "a document needs a body of at most 500,000 characters", code="invalid_body"
            )
        version = " ".join(str(version or "").split())
        if not version or len(version) > 60:
            raise errors.Invalid("a document needs a version", code="invalid_version")
        source_url = check_source_url(source_url)
        idents = [" ".join(str(i).split()) for i in identifiers or [] if str(i).strip()]
        if len(idents) > 100 or any(len(i) > 200 for i in idents):
            raise errors.Invalid(
                "at most 100 identifiers of 200 characters", code="invalid_identifiers"
            )
        doc_key = (key or normalize(title))[:300]
        now = self.rt.clock.now()
        doc_id = new_id("doc")
        with self.rt.db.write() as conn:
            pii.check(conn, workspace_id, f"{title}\n{body}")
            self._check_new_version(conn, workspace_id, doc_key, version)
            store.insert_document(
                conn,
                id=doc_id,
                workspace_id=workspace_id,
                doc_key=doc_key,
                kind=kind,
                title=title,
                body=body,
                source_url=source_url,
                version=version,
                identifiers=idents,
                status="draft",
                created_by=actor[:200],
                created_at=now,
            )
            if publish_now:
                self._publish(conn, workspace_id, doc_id, actor)
        return self.document(workspace_id, doc_id)

    def approve_document(
        self,
        workspace_id: WorkspaceId,
        document_id: str,
        *,
        approved_by: str,
        by: Principal | None = None,
    ) -> DocumentReceipt:
        """Publish a draft (admin+): the current version is superseded, the draft becomes
        current and searchable, and a receipt records who approved what, in one transaction."""
        require_staff(by, Role.admin)
        with self.rt.db.write() as conn:
            row = rows.require(conn, "document", workspace_id, document_id)
            if row.status != "draft":
                raise errors.Conflict(
                    f"this document is {row.status}, not a draft", code="not_a_draft"
                )
            return self._publish(conn, workspace_id, document_id, approved_by)

    def reject_document(
        self,
        workspace_id: WorkspaceId,
        document_id: str,
        *,
        by_name: str,
        by: Principal | None = None,
    ) -> DocumentReceipt:
        """Refuse a draft (admin+): it is kept, marked rejected, with a receipt."""
        require_staff(by, Role.admin)
        with self.rt.db.write() as conn:
            row = rows.require(conn, "document", workspace_id, document_id)
            if row.status != "draft":
                raise errors.Conflict(
                    f"this document is {row.status}, not a draft", code="not_a_draft"
                )
            store.set_status(conn, document_id, "rejected")
            return self._receipt(conn, row, by_name, "rejected")

    def _check_new_version(
        self, conn: Connection, ws: WorkspaceId, doc_key: str, version: str
    ) -> None:
        taken = store.version_taken(conn, ws, doc_key, version)
        if taken is not None:
            what = "published" if taken == "current" else "waiting for approval"
            raise errors.Conflict(
                f"version {version!r} of this document is already {what}", code="version_exists"
            )

    def _publish(
        self, conn: Connection, ws: WorkspaceId, doc_id: str, approved_by: str
    ) -> DocumentReceipt:
        row = rows.require(conn, "document", ws, doc_id)
        pieces = chunk(row.body, self.limits.chunk_chars)
        vectors = self.embed_texts([f"{row.title}\n{p}" for p in pieces])
        current = store.current_version(conn, ws, row.doc_key)
        if current is not None:
            store.set_status(conn, current.id, "superseded", superseded_by=doc_id)
            store.retire_chunks(conn, current.id)
        store.set_status(conn, doc_id, "current")
        store.add_identifiers(
            conn,
            [
                {
                    "workspace_id": ws,
                    "document_id": doc_id,
                    "identifier": i,
                    "normalized": identifier_key(i),
                }
                for i in row.identifiers or []
            ],
        )
        self.insert_chunks(
            conn, ws, "reference", doc_id, row.title, pieces, row.source_url, row.version, vectors
        )
        return self._receipt(conn, row, approved_by, "published")

    def _receipt(
        self, conn: Connection, row: Any, by_name: str, action: ReviewAction
    ) -> DocumentReceipt:
        receipt = DocumentReceipt(
            id=new_id("drc"),
            document_id=row.id,
            approved_by=by_name[:200],
            at=self.rt.clock.now(),
            action=action,
            title=row.title,
            version=row.version,
            content_hash=hashlib.sha256(f"{row.title}\n{row.body}".encode()).hexdigest(),
        )
        store.add_receipt(conn, row.workspace_id, receipt)
        return receipt

    def receipts(
        self, workspace_id: WorkspaceId, document_id: str | None = None
    ) -> list[DocumentReceipt]:
        with self.rt.db.read() as conn:
            return store.receipts(conn, workspace_id, document_id)

    def embed_texts(self, texts: list[str]) -> np.ndarray | None:
        if self.embedder is None or not texts:
            return None
        return self.embedder.embed(texts)

    def embed_missing(
        self, workspace_id: WorkspaceId | None = None, limit: int = sweeps.SWEEP
    ) -> int:
        """Embed up to ``limit`` current chunks that have no vector of the configured
        embedder — published before it was configured, or under another one — and keep the
        vectors; how many (the worker's sweep: a changed embedder catches up in steps)."""

        def keep(conn: Connection, eid: str, pairs: list[tuple[Any, np.ndarray]]) -> None:
            store.set_chunk_vectors(conn, eid, {r.id: embedders.to_bytes(v) for r, v in pairs})
            self.rt.db.backend.store_vectors(conn, [(r.id, v.tolist()) for r, v in pairs])

        return sweeps.embed_missing(
            self.rt.db,
            self.embedder,
            lambda conn, eid: store.unembedded_chunks(conn, eid, limit, workspace_id),
            lambda r: r.text if r.part == "lesson" else f"{r.title}\n{r.text}",
            keep,
        )

    def insert_chunks(
        self,
        conn: Connection,
        ws: WorkspaceId,
        part: str,
        owner: str,
        title: str,
        pieces: list[str],
        source_url: str | None,
        version: str | None,
        vectors: np.ndarray | None,
    ) -> None:
        ids = [new_id("chk") for _ in pieces]
        eid = self.embedder.id if vectors is not None and self.embedder else None
        title = shown_title(title)
        store.add_chunks(
            conn,
            [
                {
                    "id": ids[n],
                    "workspace_id": ws,
                    "part": part,
                    "owner_id": owner,
                    "position": n,
                    "title": title,
                    "text": text,
                    "source_url": source_url,
                    "version": version,
                    "current": True,
                    "embedder": eid,
                    "embedding": embedders.to_bytes(vectors[n]) if vectors is not None else None,
                }
                for n, text in enumerate(pieces)
            ],
        )
        if vectors is not None:  # and in pgvector, where the server has it
            self.rt.db.backend.store_vectors(
                conn, [(ids[n], vectors[n].tolist()) for n in range(len(ids))]
            )

    def document(self, workspace_id: WorkspaceId, document_id: str) -> Document:
        with self.rt.db.read() as conn:
            return store.document_from_row(
                rows.require(conn, "document", workspace_id, document_id)
            )

    def documents(
        self,
        workspace_id: WorkspaceId,
        *,
        include_superseded: bool = False,
        status: DocumentStatus | None = None,
    ) -> list[Document]:
        """Current documents (with ``include_superseded``, every version); ``status`` picks
        one state: current, draft, superseded or rejected."""
        with self.rt.db.read() as conn:
            return store.documents(
                conn, workspace_id, status=status, include_superseded=include_superseded
            )

    def lookup(self, workspace_id: WorkspaceId, identifier: str) -> list[Document]:
        """Current documents carrying exactly this identifier (case and spacing aside)."""
        key = identifier_key(identifier)
        if not key:
            raise errors.Invalid("give an identifier", code="empty_identifier")
        with self.rt.db.read() as conn:
            return store.by_identifier(conn, workspace_id, key)

    # -- search ----------------------------------------------------------------------------
    def search(
        self, workspace_id: WorkspaceId, query: str, *, recipe: Recipe = "hybrid", limit: int = 5
    ) -> list[Hit]:
        """Best passages first; hybrid fuses words and meaning when an embedder is configured."""
        if not isinstance(query, str) or not query.strip():
            raise errors.Invalid("a search needs some words", code="empty_query")
        if recipe not in ("lexical", "hybrid"):
            raise errors.Invalid("recipe must be lexical or hybrid", code="invalid_recipe")
        query = query[:2000]
        with self.rt.db.read() as conn:
            hybrid = recipe == "hybrid" and self.embedder is not None
            # Words alone: the chunks holding every word outrank all others, so when there
            # are enough of them the rest need not be found, and otherwise a pool of a few
            # per result is scored (scoring each costs more than finding it). With meaning
            # fused in, any candidate may rise: all are found.
            pool = self.limits.candidates if hybrid else min(self.limits.candidates, POOL * limit)
            lexical_seqs = [
                s
                for s, _ in self.rt.db.backend.knowledge_candidates(
                    conn, workspace_id, query, pool, enough=None if hybrid else limit
                )
            ]
            sims: dict[int, float] = {}
            if hybrid:
                sims = self._similar(conn, workspace_id, query, self.limits.candidates)
            seqs = list(dict.fromkeys(lexical_seqs + list(sims)))
            if not seqs:
                return []
            q_terms = frozenset(lexical.terms(query))
            if not sims:  # words alone: the first ``limit`` holding every word are the answer
                found, coverage = self._covered(conn, seqs, q_terms, limit)
            else:
                found = store.chunks(conn, seqs)
                coverage = {s: _coverage(q_terms, r) for s, r in found.items()}
        by_coverage = sorted(
            found,
            key=lambda s: (-coverage[s], lexical_seqs.index(s) if s in lexical_seqs else 10**6),
        )
        rankings: list[list[Any]] = [by_coverage]
        if sims:
            rankings.append(sorted(sims, key=lambda s: -sims[s]))
        fused = FUSION(rankings)
        order = sorted(found, key=lambda s: -fused.get(s, 0.0))
        return [self._hit(found[s], coverage[s], sims.get(s), query) for s in order[:limit]]

    @staticmethod
    def _covered(
        conn: Connection, seqs: list[int], q_terms: frozenset[str], limit: int
    ) -> tuple[dict[int, Any], dict[int, float]]:
        """The candidates read and scored in their ranked order, stopping once ``limit`` of
        them hold every word of the question: no later one can outrank those (the order is
        full coverage first, then rank), so the rest need not be read or scored."""
        found = store.chunks(conn, seqs[:limit])
        coverage = {s: _coverage(q_terms, r) for s, r in found.items()}
        if sum(1 for c in coverage.values() if c >= 1.0) < limit:
            rest = store.chunks(conn, seqs[limit:])
            found |= rest
            coverage |= {s: _coverage(q_terms, r) for s, r in rest.items()}
        return found, coverage

    def answers(self, workspace_id: WorkspaceId, query: str) -> Hit | None:
        """The best passage if knowledge answers; None when knowledge is silent."""
        return self._answer(self.search(workspace_id, query, limit=ANSWER_FROM))

    def search_answered(
        self, workspace_id: WorkspaceId, query: str, *, recipe: Recipe = "hybrid", limit: int = 5
    ) -> tuple[list[Hit], Hit | None]:
        """The hits, and the one that answers (as ``answers`` would), from one search."""
        if recipe != "hybrid":
            return self.search(workspace_id, query, recipe=recipe, limit=limit), self.answers(
                workspace_id, query
            )
        hits = self.search(workspace_id, query, limit=max(limit, ANSWER_FROM))
        return hits[:limit], self._answer(hits[:ANSWER_FROM])

    def _answer(self, hits: list[Hit]) -> Hit | None:
        for hit in hits:
            if hit.coverage >= self.limits.min_coverage or (
                hit.similarity is not None and hit.similarity >= self.limits.min_similarity
            ):
                return hit
        return None

    def _hit(self, r: Any, coverage: float, similarity: float | None, query: str) -> Hit:
        score = max(coverage, similarity or 0.0)
        return Hit(
            r.owner_id,
            r.id,
            r.part,
            r.title,
            _excerpt(r.text, query),
            r.source_url,
            r.version,
            round(score, 4),
            round(coverage, 4),
            None if similarity is None else round(similarity, 4),
            r.position,
        )

    def _similar(self, conn: Connection, ws: WorkspaceId, query: str, k: int) -> dict[int, float]:
        """Cosine similarity by chunk: in the database (pgvector) or exactly in numpy."""
        assert self.embedder is not None
        q = self.embedder.embed([query])[0]
        in_db = self.rt.db.backend.similar(conn, ws, self.embedder.id, q.tolist(), k)
        if in_db is not None:
            return in_db
        seqs, matrix = self._vectors(conn, ws)
        if not seqs:
            return {}
        scores = matrix @ q
        top = np.argsort(-scores)[:k]
        return {seqs[i]: float(scores[i]) for i in top}

    def _vectors(self, conn: Connection, ws: WorkspaceId) -> tuple[list[int], np.ndarray]:
        """Every current vector of the embedder in use for a workspace (exact search, cached)."""
        assert self.embedder is not None
        eid = self.embedder.id
        mark = store.vectors_mark(conn, ws, eid)
        with self._lock:
            cached = self._matrix.get((ws, eid))
            if cached and cached[0] == mark:
                return cached[1], cached[2]
        found = store.vectors(conn, ws, eid)
        seqs = [r.seq for r in found]
        matrix = (
            np.vstack([embedders.from_bytes(r.embedding) for r in found])
            if found
            else np.zeros((0, 1), dtype=np.float32)
        )
        with self._lock:
            self._matrix[(ws, eid)] = (mark, seqs, matrix)
        return seqs, matrix


def _excerpt(text: str, query: str, width: int = 320) -> str:
    """The window of ``text`` holding most query terms (one pass over the text's terms)."""
    if len(text) <= width:
        return text
    q = set(lexical.terms(query))
    marks = [(pos, term in q) for pos, term in lexical.positions(text)]
    best, best_hits, hits, j = 0, -1, 0, 0
    for i, (start, _) in enumerate(marks):  # sliding window over term positions
        while j < len(marks) and marks[j][0] < start + width:
            hits += marks[j][1]
            j += 1
        if hits > best_hits:
            best, best_hits = start, hits
        hits -= marks[i][1]
    best = max(0, min(best, len(text) - width))
    snippet = text[best : best + width].strip()
    return ("…" if best > 0 else "") + snippet + ("…" if best + width < len(text) else "")


def _coverage(q_terms: frozenset[str], r: Any) -> float:
    """The share of the question's terms a chunk holds (title or text)."""
    return len(lexical.present(q_terms, f"{r.title}\n{r.text}")) / max(1, len(q_terms))


TITLE_CHARS = 300  # a passage's title, as stored (a lesson's question may hold 2,000)


def shown_title(title: str) -> str:
    """A passage's title within ``TITLE_CHARS``: a lesson's long question is cut at a word
    and marked with an ellipsis (its whole text is the passage itself)."""
    title = " ".join(title.split())
    if len(title) <= TITLE_CHARS:
        return title
    head = title[: TITLE_CHARS - 1]
    cut = head.rfind(" ")
    return (head[:cut] if cut > TITLE_CHARS // 2 else head).rstrip() + "…"
