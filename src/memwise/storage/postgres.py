"""PostgreSQL specifics: tsvector search over the record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise.storage import fts
from memwise.storage.highlight import START, STOP
from memwise.storage.schema import turns
from memwise.storage.types import UTCDateTime

_NEWEST = sa.text("SELECT max(seq) FROM turns")
_CANDIDATES = sa.text(
    "SELECT t.seq, ts_rank_cd(t.text_tsv, q.query) AS score "
    "FROM turns t, (SELECT plainto_tsquery('english', :q) AS query) q "
    "WHERE t.text_tsv @@ q.query AND t.seq > :above AND t.workspace_id = :ws "
    "AND (CAST(:conv AS varchar) IS NULL OR t.conversation_id = :conv) "
    "ORDER BY t.seq DESC LIMIT :cap"
)
_SHOW = sa.text(
    "SELECT t.seq, t.id, t.conversation_id, t.role, t.at, "
    "ts_headline('english', t.text, plainto_tsquery('english', :q), "
    f"'StartSel={START}, StopSel={STOP}, MaxWords=24, MinWords=8') AS hl "
    "FROM turns t WHERE t.seq = ANY(:seqs)"
).columns(at=UTCDateTime)


class PostgresBackend:
    name = "postgresql"

    def __init__(self) -> None:
        self._vectors: bool | None = None

    first_window: int | None = None  # with statistics, the planner picks GIN or a backward scan

    def serialize(self, conn: Connection, key: str) -> None:
        conn.execute(
            sa.text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))"), {"key": key}
        )

    def newest_seq(self, conn: Connection) -> int | None:
        return conn.execute(_NEWEST).scalar()

    def candidates(
        self, conn: Connection, q: str, ws: str, conv: str | None, above: int, cap: int
    ) -> Sequence[tuple[int, float]]:
        params = {"q": q, "ws": ws, "conv": conv, "above": above, "cap": cap}
        return [(r.seq, r.score) for r in conn.execute(_CANDIDATES, params)]

    def show(self, conn: Connection, q: str, seqs: Sequence[int]) -> Sequence[Any]:
        return conn.execute(_SHOW, {"q": q, "seqs": list(seqs)}).all()

    def has_vectors(self, conn: Connection) -> bool:
        """Whether this server keeps knowledge vectors in pgvector (see migration 0007)."""
        if self._vectors is None:
            self._vectors = conn.execute(_HAS_VECTORS).first() is not None
        return self._vectors

    def store_vectors(self, conn: Connection, rows: Sequence[tuple[str, Sequence[float]]]) -> None:
        if rows and self.has_vectors(conn):
            conn.execute(_STORE, [{"id": i, "v": vector_literal(v)} for i, v in rows])

    def similar(
        self, conn: Connection, ws: str, embedder: str, query: Sequence[float], k: int
    ) -> dict[int, float] | None:
        """Exact cosine search in SQL; None when the server has no pgvector."""
        if not self.has_vectors(conn):
            return None
        params = {"q": vector_literal(query), "ws": ws, "eid": embedder, "k": k}
        return {r.seq: float(r.sim) for r in conn.execute(_SIMILAR, params)}

    def knowledge_candidates(
        self, conn: Connection, ws: str, query: str, limit: int
    ) -> Sequence[tuple[int, float]]:
        return _knowledge_candidates(conn, ws, query, limit)

    def insert_turns(self, conn: Connection, rows: Sequence[dict[str, Any]]) -> list[int]:
        """Batched INSERT … RETURNING seq, in the order the rows were given."""
        found = conn.execute(
            turns.insert().returning(turns.c.seq, sort_by_parameter_order=True), list(rows)
        ).scalars()
        return list(found)

    def prepare(self, query: str) -> str:
        return " ".join(fts.tsquery_words(query))


_KNOWLEDGE = sa.text(
    "SELECT c.seq, ts_rank_cd(c.text_tsv, to_tsquery('english', :q)) AS score "
    "FROM knowledge_chunks c WHERE c.text_tsv @@ to_tsquery('english', :q) "
    "AND c.workspace_id = :ws AND c.current ORDER BY score DESC LIMIT :limit"
)


def _knowledge_candidates(
    conn: Connection, ws: str, query: str, limit: int
) -> Sequence[tuple[int, float]]:
    """Current chunks matching any word of the query, best first (title weighs more)."""
    words = [w for w in fts.tsquery_words(query, content_only=True) if w.isalnum()]
    if not words:
        return []
    params = {"q": " | ".join(words), "ws": ws, "limit": limit}
    return [(r.seq, r.score) for r in conn.execute(_KNOWLEDGE, params)]


_HAS_VECTORS = sa.text(
    "SELECT 1 FROM information_schema.columns "
    "WHERE table_name = 'knowledge_chunks' AND column_name = 'embedding_vec'"
)
_SIMILAR = sa.text(
    "SELECT seq, 1 - (embedding_vec <=> CAST(:q AS vector)) AS sim FROM knowledge_chunks "
    "WHERE workspace_id = :ws AND current AND embedder = :eid AND embedding_vec IS NOT NULL "
    "ORDER BY embedding_vec <=> CAST(:q AS vector) LIMIT :k"
)
_STORE = sa.text("UPDATE knowledge_chunks SET embedding_vec = CAST(:v AS vector) WHERE id = :id")


def vector_literal(values: Sequence[float]) -> str:
    return "[" + ",".join(f"{float(x):.7g}" for x in values) + "]"
