"""Recall over what a contact said before: the earlier turns that answer a question.

Memory items hold what was worth keeping; the record holds everything. When a question is
about something said in passing ("what was the name of the place we talked about?"), the
answer is in the record. This ranks a contact's past turns for a question with
:class:`memwise.retrieval.turns.TurnIndex` — no model at query time, an embedder if one is
configured. Each contact's index is built once and kept until their record grows.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

import numpy as np
from sqlalchemy.engine import Connection

from memwise import errors
from memwise.retrieval.embedders import Embedder, from_bytes, to_bytes, token_embedder
from memwise.retrieval.late import TokenVectors
from memwise.retrieval.turns import TurnDoc, TurnIndex, TurnRecallConfig
from memwise.services.platform.cache import SizedLRU
from memwise.services.platform.runtime import Runtime
from memwise.storage.stores import memory_items as items_store
from memwise.storage.stores import record as record_store
from memwise.storage.stores import tenancy as tenancy_store
from memwise.storage.stores.jobs import insert_once

log = logging.getLogger("memwise.history")
MAX_TURNS = 20_000  # the newest turns of one contact that recall reads
PIECE_BYTES = 32 << 20  # the word-piece vectors one index holds at most: the newest turns'
# (~2,300 LoCoMo turns at 14 kB; a 256-piece turn is 100 kB); older turns still rank by words
# and sentence vectors
_PIECE_ROW = 390  # bytes a kept piece takes (384 int8, a scale, an id): for estimates
EMBED_TURNS = "embed_turns"  # the job that embeds an ended conversation's turns
EMBED_BATCH = 256  # texts per embeddings request
PIECES_RETRY = timedelta(minutes=10)  # after word pieces could not be made, try again then


def queue_embedding_in(
    conn: Connection, workspace_id: str, conversation_id: str, now: datetime
) -> None:
    """Queue embedding this conversation's turns (once per conversation)."""
    insert_once(
        conn,
        workspace_id,
        EMBED_TURNS,
        f"{EMBED_TURNS}:{conversation_id}",
        {"conversation_id": conversation_id},
        now,
    )


@dataclass(frozen=True)
class HistoryHit:
    turn_id: str
    conversation_id: str
    role: str
    speaker: str
    text: str
    at: datetime
    score: float


@dataclass(frozen=True)
class _Built:
    version: tuple[Any, ...]
    index: TurnIndex
    at: list[datetime]
    roles: list[str]
    zone: ZoneInfo | None = None  # the workspace's: "yesterday", "in March" are its days
    pieceless: bool = False  # built while word pieces could not be made: built again after


class History:
    def __init__(
        self,
        rt: Runtime,
        embedder: Embedder | None = None,
        config: TurnRecallConfig | None = None,
    ) -> None:
        self.rt = rt
        self.embedder = embedder
        self.config = config or TurnRecallConfig()
        # word-piece vectors (late interaction), when the embedder gives them and they count
        self.pieces = token_embedder(embedder) if self.config.late_weight else None
        self._pieces_failed: datetime | None = None  # when word pieces last could not be made
        # indexes kept in memory, least recently used first out, bounded by their size
        self._cache: SizedLRU[_Built] = SizedLRU(rt.limits.memory.cache_mb << 20)

    def recall(
        self,
        workspace_id: str,
        contact_id: str,
        question: str,
        *,
        k: int = 10,
        asked_by: Literal["customer", "staff"] = "customer",
    ) -> list[HistoryHit]:
        """The ``k`` earlier turns of this contact that best answer ``question``, asked by
        the customer (their "I" is the customer: "what did I order?") or by staff (their "I"
        is the business: "what did I promise her?")."""
        vector, pieces = self._question(question)
        now = self.rt.clock.now()
        built = self.prepare(
            workspace_id, contact_id, dim=len(vector) if vector is not None else None
        )
        if built.index.vectors is None or (
            vector is not None and built.index.vectors.shape[1] != len(vector)
        ):
            vector = None
        found = built.index.search(
            question,
            k=max(1, min(k, 200)),
            query_vector=vector,
            now=now.astimezone(built.zone) if built.zone else now,
            by_customer=asked_by == "customer",
            query_tokens=pieces,
        )
        return [
            HistoryHit(
                turn_id=built.index.docs[i].id,
                conversation_id=built.index.docs[i].conversation_id,
                role=built.roles[i],
                speaker=built.index.docs[i].speaker,
                text=built.index.docs[i].text,
                at=built.at[i],
                score=round(score, 6),
            )
            for i, score in found
        ]

    def _question(self, question: str) -> tuple[np.ndarray | None, TokenVectors | None]:
        """The question's vector and, when the embedder gives them, its word pieces' vectors
        (one pass for both); None for what the embedder could not give."""
        if self.embedder is None:
            return None, None
        try:
            vectors, (pieces,) = self._embed_batch([question])
        except Exception as exc:  # the embedder is down: the words still rank
            log.warning("record recall without meaning: %s", type(exc).__name__)
            return None, None
        return vectors[0], pieces

    def forget(self, workspace_id: str, contact_id: str) -> None:
        """Drop the contact's index (after a data request deleted them)."""
        self._cache.pop((workspace_id, contact_id))

    def prepare(self, workspace_id: str, contact_id: str, dim: int | None = None) -> _Built:
        """Build (or reuse) the contact's index — the one-off cost of the first recall. Turn
        vectors come from the record (the worker embeds a conversation's turns when it ends);
        any still missing, or of another size than ``dim`` (the embedder's, when known), are
        embedded here once and kept. When the embedder fails, the index ranks by words
        alone and is not kept, so the next recall tries again."""
        with self.rt.db.read() as conn:
            try:
                contact = tenancy_store.contact_row(conn, workspace_id, contact_id)
            except errors.NotFound:
                self.forget(workspace_id, contact_id)  # deleted, perhaps by another process
                raise
            zone = items_store.zone_and_version(conn, workspace_id, contact_id)
            version = (record_store.history_version(conn, workspace_id, contact_id), zone)
            cached = self._cache.get((workspace_id, contact_id))
            if (
                cached is not None
                and cached.version == version
                and _fits(cached, dim)
                and not (cached.pieceless and not self._pieces_failing())
            ):
                return cached
            names = tenancy_store.speaker_names(conn, workspace_id)
            found = record_store.history_turns(conn, workspace_id, contact_id, MAX_TURNS)
            keys = items_store.texts_by_turn(conn, workspace_id, contact_id)
        docs = [
            TurnDoc(
                r.id,
                r.conversation_id,
                self._speaker(r, contact.name, names),
                r.text,
                r.role == "customer",
                at=r.at,
                keys=" ".join(keys.get(r.id, ())),
            )
            for r in found
        ]
        vectors, pieces, whole = None, None, True
        if self.embedder is not None and docs:
            try:
                vectors, pieces = self._vectors(workspace_id, docs, found, dim)
            except Exception as exc:  # the embedder is down: rank by words, build again later
                log.warning("record index without vectors: %s", type(exc).__name__)
                whole = False
        built = _Built(
            version,
            TurnIndex(docs, vectors, self.config, tokens=pieces),
            [r.at for r in found],
            [r.role for r in found],
            ZoneInfo(zone[0]) if zone else None,
            pieceless=self.pieces is not None and self._pieces_failing(),
        )
        if whole:
            self._cache.put((workspace_id, contact_id), built, _weight(docs, built.index))
        return built

    def embed_conversation(self, workspace_id: str, conversation_id: str) -> int:
        """Embed and keep the vectors of a conversation's turns that have none of the
        configured embedder (the worker's step when a conversation ends); how many."""
        if self.embedder is None:
            return 0
        with self.rt.db.read() as conn:
            missing = record_store.unembedded_turns(
                conn, workspace_id, conversation_id, self.embedder.id, self.pieces is not None
            )
            if not missing:
                return 0
            names = tenancy_store.speaker_names(conn, workspace_id)
            contact = missing[0].contact_id and tenancy_store.contact_row(
                conn, workspace_id, missing[0].contact_id
            )
        who = contact.name if contact else "customer"
        made, pieces = self._embed([_said(self._speaker(r, who, names), r.text) for r in missing])
        with self.rt.db.write() as conn:
            record_store.set_turn_vectors(
                conn,
                workspace_id,
                self.embedder.id,
                {str(r.id): to_bytes(v) for r, v in zip(missing, made, strict=True)},
                _packed([str(r.id) for r in missing], pieces),
            )
        return len(missing)

    def _vectors(
        self, workspace_id: str, docs: list[TurnDoc], rows: list[Any], dim: int | None
    ) -> tuple[np.ndarray, list[TokenVectors | None] | None]:
        """One vector per turn — and its word pieces' vectors, when the embedder gives them —
        the record's own, and the missing ones embedded now and kept. A kept vector of
        another size than the embedder's (the same name, another model) counts as missing;
        without ``dim``, the size most kept vectors have is taken."""
        assert self.embedder is not None
        eid = self.embedder.id
        kept: list[np.ndarray | None] = [
            from_bytes(r.embedding) if r.embedder == eid and r.embedding else None for r in rows
        ]
        sizes = Counter(len(v) for v in kept if v is not None)
        size = dim or (sizes.most_common(1)[0][0] if sizes else None)
        kept = [v if v is not None and len(v) == size else None for v in kept]
        pieces: list[TokenVectors | None] | None = None
        first = _first_with_pieces(rows)
        if self.pieces is not None:
            pieces = [
                _unpacked(r) if i >= first and kept[i] is not None else None
                for i, r in enumerate(rows)
            ]
        remake = not self._pieces_failing()  # else kept vectors serve without their pieces
        missing = [
            i
            for i, v in enumerate(kept)
            if v is None or (remake and pieces is not None and i >= first and pieces[i] is None)
        ]
        if missing:
            made, new = self._embed([_said(docs[i].speaker, docs[i].text) for i in missing])
            for n, i in enumerate(missing):
                kept[i] = made[n]
                if pieces is not None and new is not None and i >= first:
                    pieces[i] = new[n]
            ids = [docs[i].id for i in missing]
            with self.rt.db.write() as conn:  # kept: the next build (any process) reads them
                record_store.set_turn_vectors(
                    conn,
                    workspace_id,
                    eid,
                    {tid: to_bytes(v) for tid, v in zip(ids, made, strict=True)},
                    _packed(ids, new),
                )
        return np.vstack([np.asarray(v, dtype=np.float32) for v in kept]), pieces

    def _pieces_failing(self) -> bool:
        """Whether word pieces could not be made lately: until PIECES_RETRY has passed, a
        turn's vector kept without them is used as it is, not embedded again each build."""
        failed = self._pieces_failed
        return failed is not None and self.rt.clock.now() - failed < PIECES_RETRY

    def _embed(self, texts: list[str]) -> tuple[np.ndarray, list[TokenVectors | None] | None]:
        """Vectors of many texts (and their word pieces' vectors, when the embedder gives
        them), asked for in batches an embeddings API accepts."""
        assert self.embedder is not None
        batches = [texts[i : i + EMBED_BATCH] for i in range(0, len(texts), EMBED_BATCH)]
        if self.pieces is None:
            return np.vstack([self.embedder.embed(b) for b in batches]), None
        vectors: list[np.ndarray] = []
        pieces: list[TokenVectors | None] = []
        for batch in batches:
            v, p = self._embed_batch(batch)
            vectors.append(v)
            pieces += p
        return np.vstack(vectors), pieces

    def _embed_batch(self, texts: list[str]) -> tuple[np.ndarray, list[TokenVectors | None]]:
        """One batch's vectors and, when the embedder gives them and they have not failed
        lately, its word pieces' vectors (one pass for both); pieces that cannot be made
        are None, and the failure is noted when the vectors alone still can be (else the
        embedder's error is raised: it is down, not its pieces)."""
        assert self.embedder is not None
        if self.pieces is None or self._pieces_failing():
            return self.embedder.embed(texts), [None] * len(texts)
        try:
            vectors, pieces = self.pieces.embed_tokens(texts)
            return vectors, list(pieces)
        except Exception as exc:
            log.warning("vectors without word pieces: %s", type(exc).__name__)
        vectors = self.embedder.embed(texts)
        self._pieces_failed = self.rt.clock.now()
        return vectors, [None] * len(texts)

    @staticmethod
    def _speaker(row: Any, contact: str, names: dict[str, str]) -> str:
        if row.role == "customer":
            return contact
        if row.role == "assistant":
            return names.get(str(row.agent_id), "assistant")
        if row.role == "user":
            return names.get(str(row.user_id), "user")
        return str(row.role)


def _said(speaker: str, text: str) -> str:
    """What a turn's vector is made from (the worker's and a recall's alike)."""
    return f"{speaker}: {text}"


def _first_with_pieces(rows: list[Any]) -> int:
    """The position of the oldest turn whose word pieces an index holds: the newest turns'
    (rows run oldest to newest) up to PIECE_BYTES, kept blobs counted as they are and the
    rest estimated from their length (about four characters a piece)."""
    total = 0
    for i in range(len(rows) - 1, -1, -1):
        kept = rows[i].token_vectors
        total += len(kept) if kept else _PIECE_ROW * min(256, 1 + len(rows[i].text) // 4)
        if total > PIECE_BYTES:
            return i + 1
    return 0


def _packed(ids: list[str], pieces: list[TokenVectors | None] | None) -> dict[str, bytes] | None:
    if pieces is None:
        return None
    return {t: p.to_bytes() for t, p in zip(ids, pieces, strict=True) if p is not None}


def _unpacked(row: Any) -> TokenVectors | None:
    """A kept turn's word-piece vectors, or None (none kept, or unreadable: made again)."""
    if not row.token_vectors:
        return None
    try:
        return TokenVectors.from_bytes(bytes(row.token_vectors))
    except errors.Invalid:
        return None


def _fits(built: _Built, dim: int | None) -> bool:
    """Whether a built index serves a question vector of ``dim`` (any, without one)."""
    vectors = built.index.vectors
    return dim is None or vectors is None or vectors.shape[1] == dim


def _weight(docs: list[TurnDoc], index: TurnIndex) -> int:
    """About how many bytes a built index holds: a fixed part (its arrays and tables), then
    each turn's text, terms and postings, and its vector. Measured with tracemalloc (36 to
    3,600 synthetic turns, and three LoCoMo conversations): ~100 kB per index plus 2.5–4 kB
    per turn; this estimate errs high (1.0–1.5 times what was measured)."""
    size = 100_000 + sum(3100 + 9 * (len(d.text) + len(d.keys)) for d in docs)
    size += index.pieces.nbytes if index.pieces is not None else 0
    return size + (int(index.vectors.nbytes) if index.vectors is not None else 0)
