"""Recall over what a contact said before: the earlier turns that answer a question.

Memory items hold what was worth keeping; the record holds everything. When a question is
about something said in passing ("what was the name of the place we talked about?"), the
answer is in the record. This ranks a contact's past turns for a question with
:class:`memwise._retrieval.turns.TurnIndex` — no model at query time, an embedder if one is
configured. Each contact's index is built once and kept until their record grows.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any, Literal
from zoneinfo import ZoneInfo

import numpy as np
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from memwise import errors
from memwise._domain.record import HistoryHit as HistoryHit
from memwise._domain.tenancy import ConversationStatus
from memwise._ids import ContactId, ConversationId, WorkspaceId
from memwise._retrieval import kept, late, postings
from memwise._retrieval.embedders import Embedder, from_bytes, to_bytes, token_embedder
from memwise._retrieval.late import Loader, TokenVectors
from memwise._retrieval.turns import TurnDoc, TurnIndex, TurnRecallConfig
from memwise._services.platform.bus import ConversationClosed
from memwise._services.platform.cache import SizedLRU
from memwise._services.platform.runtime import Runtime
from memwise._storage.stores import memory_items as items_store
from memwise._storage.stores import record as record_store
from memwise._storage.stores import tenancy as tenancy_store
from memwise._storage.stores.jobs import insert_once
from memwise._text import lexical

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
    conn: Connection, workspace_id: WorkspaceId, conversation_id: ConversationId, now: datetime
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


def on_conversation_closed(conn: Connection, event: ConversationClosed) -> None:
    """A closed conversation of a contact has its turns embedded: a contact's record is what
    recall reads (subscribed only when an embedder is configured)."""
    if event.contact_id:
        queue_embedding_in(conn, event.workspace_id, event.conversation_id, event.at)


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
        workspace_id: WorkspaceId,
        contact_id: ContactId,
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
                conversation_id=ConversationId(built.index.docs[i].conversation_id),
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

    def forget(self, workspace_id: WorkspaceId, contact_id: ContactId) -> None:
        """Drop the contact's index (after a data request deleted them)."""
        self._cache.pop((workspace_id, contact_id))

    def prepare(
        self, workspace_id: WorkspaceId, contact_id: ContactId, dim: int | None = None
    ) -> _Built:
        """Build (or reuse) the contact's index — the one-off cost of the first recall. Each
        ended conversation comes as the worker kept it (terms counted, vectors and word
        pieces side by side: joined, not read again); turns no kept conversation holds (an
        open conversation's, or all of them before the worker kept any) are read from the
        record, their vectors the record's own, any missing, or of another size than
        ``dim`` (the embedder's, when known), embedded here once and kept — and an ended
        conversation read so is kept for the next build. When the embedder fails, the index
        ranks by words alone and is not kept, so the next recall tries again."""
        eid = self.embedder.id if self.embedder is not None else None
        with self.rt.db.read() as conn:
            # two round trips when the kept index still holds (the contact's row, for its
            # name, only when the index is built)
            zone = items_store.zone_and_version(conn, workspace_id, contact_id)
            if zone is None:  # deleted, perhaps by another process
                self.forget(workspace_id, contact_id)
                raise errors.NotFound("no such contact", code="contact_not_found")
            version = (record_store.history_version(conn, workspace_id, contact_id), zone)
            cached = self._cache.get((workspace_id, contact_id))
            if (
                cached is not None
                and cached.version == version
                and _fits(cached, dim)
                and not (cached.pieceless and not self._pieces_failing())
            ):
                return cached
            contact = tenancy_store.contact_row(conn, workspace_id, contact_id)
            names = tenancy_store.speaker_names(conn, workspace_id)
            convs = record_store.contact_conversations(conn, workspace_id, contact_id)
            values = (
                record_store.kept_values(
                    conn, self.rt.db.backend, [str(c.id) for c in convs], eid, kept.FORMAT
                )
                if self._keeps()
                else {}
            )
            stored = self._usable(convs, values, dim)
            held = {str(r.id) for r, _ in stored}
            found = record_store.turns_of(
                conn, workspace_id, [str(c.id) for c in convs if str(c.id) not in held], MAX_TURNS
            )
            keys = items_store.texts_by_turn(conn, workspace_id, contact_id)
        who = contact.name
        fresh, whole = self._read(workspace_id, found, who, names, dim)
        # (order, conversation, its agent and staff user, its turns): kept, then read
        heads = [(c, k) for c, k in stored] + [
            (SimpleNamespace(**_head(r[0])), k) for r, k in fresh
        ]
        parts = sorted(
            (((c.started_at, str(c.id)), str(c.id), c.agent_id, c.user_id, k) for c, k in heads),
            key=lambda x: x[0],
        )
        turns = kept.KeptTurns.join([p[-1] for p in parts])
        ids: list[str] = []
        speakers: list[str] = []
        for _, cid, agent_id, user_id, k in parts:  # each role's speaker, once a conversation
            said = {
                role: self._speaker(
                    SimpleNamespace(role=role, agent_id=agent_id, user_id=user_id), who, names
                )
                for role in set(k.roles)
            }
            speakers += [said[role] for role in k.roles]
            ids += [cid] * len(k)
        start = max(0, len(turns) - MAX_TURNS)
        turns, ids, speakers = turns.tail(start), ids[start:], speakers[start:]
        turns = turns.pieces_from(
            0 if turns.piece_count is None else _first_within(turns.piece_count * _PIECE_ROW)
        )
        at = [datetime.fromtimestamp(a, UTC) for a in turns.at]
        docs = [
            TurnDoc(
                tid,
                ids[i],
                speakers[i],
                turns.texts[i],
                turns.roles[i] == "customer",
                at=at[i],
                keys=" ".join(keys.get(tid, ())),
            )
            for i, tid in enumerate(turns.ids)
        ]
        vectors = turns.vectors if self.embedder is not None and whole else None
        built = _Built(
            version,
            TurnIndex(
                docs,
                vectors,
                self.config,
                tokens=turns.pieces(self._loader(workspace_id, turns.ids))
                if vectors is not None and self.pieces is not None
                else None,
                terms=turns.terms,
            ),
            at,
            list(turns.roles),
            ZoneInfo(zone[0]) if zone else None,
            pieceless=self.pieces is not None and self._pieces_failing(),
        )
        if whole:
            self._cache.put((workspace_id, contact_id), built, _weight(docs, built.index))
            cut = {str(fresh[0][0][0].conversation_id)} if len(found) >= MAX_TURNS else set()
            # (the oldest conversation read may be cut short: not kept)
            self._keep(
                workspace_id, [(r, k) for r, k in fresh if str(r[0].conversation_id) not in cut]
            )
        return built

    def _usable(
        self, convs: list[Any], values: dict[str, tuple[int, int, bytes]], dim: int | None
    ) -> list[tuple[Any, kept.KeptTurns]]:
        """The conversations kept whole that this index can join (the rest are read from
        the record): kept up to their newest turn with text, readable, with vectors of the
        embedder's size and word pieces where they count."""
        out = []
        for conv in convs:
            upto, count, data = values.get(str(conv.id), (None, None, b""))
            if upto != conv.said_seq or count != conv.said:
                continue
            try:
                value = kept.KeptTurns.from_bytes(data)
            except errors.Invalid:
                continue
            if len(value) != count:
                continue
            if self.embedder is not None:
                size = value.vectors.shape[1] if value.vectors is not None else None
                if size is None or (dim is not None and size != dim):
                    continue
                if self.pieces is not None and not value.has_pieces:
                    continue
            out.append((conv, value))
        return out

    def _read(
        self,
        workspace_id: WorkspaceId,
        rows: list[Any],
        who: str,
        names: dict[str, str],
        dim: int | None,
    ) -> tuple[list[tuple[list[Any], kept.KeptTurns]], bool]:
        """Turns read from the record, conversation by conversation (their rows and how
        recall reads them), and whether their vectors could all be had."""
        docs = [
            TurnDoc(r.id, r.conversation_id, self._speaker(r, who, names), r.text) for r in rows
        ]
        vectors, pieces, whole = None, None, True
        if self.embedder is not None and docs:
            try:
                vectors, pieces = self._vectors(workspace_id, docs, rows, dim)
            except Exception as exc:  # the embedder is down: rank by words, build again later
                log.warning("record index without vectors: %s", type(exc).__name__)
                whole = False
        out: list[tuple[list[Any], kept.KeptTurns]] = []
        start = 0
        for i in range(1, len(rows) + 1):
            if i < len(rows) and rows[i].conversation_id == rows[start].conversation_id:
                continue
            out.append(
                (
                    rows[start:i],
                    self._part(
                        rows[start:i],
                        vectors[start:i] if vectors is not None else None,
                        pieces[start:i] if pieces is not None else None,
                    ),
                )
            )
            start = i
        return out, whole

    def _part(
        self,
        rows: list[Any],
        vectors: np.ndarray | None,
        pieces: list[TokenVectors | None] | None,
    ) -> kept.KeptTurns:
        """How recall reads these turns (one conversation's, in order)."""
        texts = tuple(str(r.text) for r in rows)
        counted = None
        if pieces is not None and vectors is not None:
            counted = late.counted(pieces, vectors.shape[1])
        return kept.KeptTurns(
            tuple(str(r.id) for r in rows),
            tuple(int(r.seq) for r in rows),
            tuple(str(r.role) for r in rows),
            tuple(r.at.timestamp() for r in rows),
            texts,
            postings.Rows.of(texts, lexical.full_terms),
            self.embedder.id if vectors is not None and self.embedder is not None else None,
            vectors,
            *(counted or (None, None, None)),
        )

    def _loader(self, workspace_id: WorkspaceId, ids: tuple[str, ...]) -> Loader:
        """Word pieces of the index's turns by position, read from the record (a kept
        conversation's turns, when late interaction first reorders them)."""
        assert self.embedder is not None
        eid = self.embedder.id

        def load(positions: Sequence[int]) -> list[TokenVectors | None]:
            wanted = [ids[i] for i in positions]
            try:
                with self.rt.db.read() as conn:
                    found = record_store.turn_pieces(
                        conn, self.rt.db.backend, workspace_id, wanted, eid
                    )
            except SQLAlchemyError as exc:  # the words and sentence vectors still rank
                log.warning("late interaction without stored pieces: %s", type(exc).__name__)
                return [None] * len(wanted)
            return [_decoded(found.get(t)) for t in wanted]

        return load

    def _keep(
        self, workspace_id: WorkspaceId, read: list[tuple[list[Any], kept.KeptTurns]]
    ) -> None:
        """Keep how ended conversations read whole were read, for the next build — not
        while word pieces cannot be made (they would be kept without them)."""
        if not self._keeps() or (self.pieces is not None and self._pieces_failing()):
            return
        ended = [
            (str(rows[0].conversation_id), int(rows[-1].seq), len(k), k.to_bytes())
            for rows, k in read
            if rows[0].status != ConversationStatus.open.value
            and (self.embedder is None or k.vectors is not None)
        ]
        if not ended:
            return
        try:
            with self.rt.db.write() as conn:
                record_store.keep_turns(
                    conn,
                    workspace_id,
                    ended,
                    self.embedder.id if self.embedder is not None else None,
                    kept.FORMAT,
                    self.rt.clock.now(),
                )
        except SQLAlchemyError as exc:  # another process kept it first, or the database is
            # busy: what was read still serves this recall, and the next one keeps it
            log.warning("conversation not kept for recall: %s", type(exc).__name__)

    def _keeps(self) -> bool:
        """Whether kept conversations serve this index: they hold terms by the full
        stemmer, recall's default."""
        return self.config.stemmer == "snowball"

    def embed_conversation(self, workspace_id: WorkspaceId, conversation_id: ConversationId) -> int:
        """Embed and keep the vectors of a conversation's turns that have none of the
        configured embedder (or no word pieces, when they count), then keep how recall reads
        the conversation (the worker's step when a conversation ends): one read of the
        conversation; how many turns were embedded."""
        if self.embedder is None:
            return 0
        eid = self.embedder.id
        with self.rt.db.read() as conn:
            state = record_store.conversation_state(conn, workspace_id, conversation_id)
            rows = record_store.conversation_turns(conn, workspace_id, conversation_id)
            names = tenancy_store.speaker_names(conn, workspace_id)
            contact = (
                tenancy_store.contact_row(conn, workspace_id, state.contact_id)
                if state is not None and state.contact_id
                else None
            )
        keeps = bool(state is not None and state.contact_id and rows and self._keeps())
        vectors = [
            from_bytes(r.embedding) if keeps and r.embedder == eid and r.embedding else None
            for r in rows
        ]  # decoded only when the conversation is kept for recall
        pieces = [_unpacked(r) for r in rows] if keeps and self.pieces is not None else None
        missing = [
            i
            for i, r in enumerate(rows)
            if r.embedder != eid
            or not r.embedding
            or (self.pieces is not None and r.token_vectors is None)
        ]
        if missing:
            who = contact.name if contact else "customer"
            texts = [_said(self._speaker(rows[i], who, names), rows[i].text) for i in missing]
            made, new = self._embed(texts)
            ids = [str(rows[i].id) for i in missing]
            with self.rt.db.write() as conn:
                record_store.set_turn_vectors(
                    conn,
                    workspace_id,
                    eid,
                    {t: to_bytes(v) for t, v in zip(ids, made, strict=True)},
                    _packed(ids, new),
                )
            for n, i in enumerate(missing):
                vectors[i] = np.asarray(made[n], dtype=np.float32)
                if pieces is not None:
                    pieces[i] = new[n] if new is not None else None
        if keeps:
            self._keep_read(workspace_id, rows, vectors, pieces)
        return len(missing)

    def _keep_read(
        self,
        workspace_id: WorkspaceId,
        rows: list[Any],
        vectors: list[Any],
        pieces: list[TokenVectors | None] | None,
    ) -> None:
        """Keep how recall reads an ended conversation whose turns all have the embedder's
        vectors (and word pieces, when they count), from what was just read and made."""
        if any(v is None for v in vectors) or len({len(v) for v in vectors}) != 1:
            return
        if pieces is not None and any(p is None for p in pieces):
            return
        stacked = np.vstack([np.asarray(v, dtype=np.float32) for v in vectors])
        self._keep(workspace_id, [(rows, self._part(rows, stacked, pieces))])

    def _vectors(
        self, workspace_id: WorkspaceId, docs: list[TurnDoc], rows: list[Any], dim: int | None
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


def _head(turn: Any) -> dict[str, Any]:
    """A turn's conversation as :func:`record_store.contact_conversations` gives it."""
    return {
        "id": turn.conversation_id,
        "started_at": turn.started_at,
        "agent_id": turn.agent_id,
        "user_id": turn.user_id,
    }


def _said(speaker: str, text: str) -> str:
    """What a turn's vector is made from (the worker's and a recall's alike)."""
    return f"{speaker}: {text}"


def _first_with_pieces(rows: list[Any]) -> int:
    """``_first_within`` for turns read from the record: kept blobs counted as they are and
    the rest estimated from their length (about four characters a piece)."""
    return _first_within(
        np.array(
            [
                len(r.token_vectors)
                if r.token_vectors
                else _PIECE_ROW * min(256, 1 + len(r.text) // 4)
                for r in rows
            ],
            dtype=np.int64,
        )
    )


def _first_within(sizes: np.ndarray) -> int:
    """The position of the oldest turn whose word pieces an index holds: the newest turns'
    (``sizes`` in bytes, oldest to newest) up to PIECE_BYTES."""
    total = np.cumsum(sizes[::-1])
    over = np.flatnonzero(total > PIECE_BYTES)
    return len(sizes) - int(over[0]) if over.size else 0


def _packed(ids: list[str], pieces: list[TokenVectors | None] | None) -> dict[str, bytes] | None:
    if pieces is None:
        return None
    return {t: p.to_bytes() for t, p in zip(ids, pieces, strict=True) if p is not None}


def _unpacked(row: Any) -> TokenVectors | None:
    """A kept turn's word-piece vectors, or None (none kept, or unreadable: made again)."""
    return _decoded(row.token_vectors)


def _decoded(data: bytes | None) -> TokenVectors | None:
    if not data:
        return None
    try:
        return TokenVectors.from_bytes(bytes(data))
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
