"""SQLite specifics: FTS5 search over the record."""

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
    "SELECT t.seq, -bm25(turns_fts) AS score "
    "FROM turns_fts JOIN turns t ON t.seq = turns_fts.rowid "
    "WHERE turns_fts MATCH :q AND turns_fts.rowid > :above AND t.workspace_id = :ws "
    "AND (:conv IS NULL OR t.conversation_id = :conv) "
    "ORDER BY turns_fts.rowid DESC LIMIT :cap"
)
# A rowid range plus an id filter on the joined table: an IN list on the FTS table itself
# would rerun the match once per value.
_SHOW = (
    sa.text(
        "SELECT t.seq, t.id, t.conversation_id, t.role, t.at, "
        f"snippet(turns_fts, 0, '{START}', '{STOP}', '…', 16) AS hl "
        "FROM turns_fts JOIN turns t ON t.seq = turns_fts.rowid "
        "WHERE turns_fts MATCH :q AND turns_fts.rowid BETWEEN :lo AND :hi AND t.seq IN :seqs"
    )
    .bindparams(sa.bindparam("seqs", expanding=True))
    .columns(at=UTCDateTime)
)


class SQLiteBackend:
    name = "sqlite"
    first_window: int | None = 50_000  # FTS5 walks long doclists: start recent

    def serialize(self, conn: Connection, key: str) -> None:
        """Nothing to do: writes begin IMMEDIATE, one writer at a time."""

    def newest_seq(self, conn: Connection) -> int | None:
        return conn.execute(_NEWEST).scalar()

    def candidates(
        self, conn: Connection, q: str, ws: str, conv: str | None, above: int, cap: int
    ) -> Sequence[tuple[int, float]]:
        params = {"q": q, "ws": ws, "conv": conv, "above": above, "cap": cap}
        return [(r.seq, r.score) for r in conn.execute(_CANDIDATES, params)]

    def show(self, conn: Connection, q: str, seqs: Sequence[int]) -> Sequence[Any]:
        params = {"q": q, "lo": min(seqs), "hi": max(seqs), "seqs": list(seqs)}
        return conn.execute(_SHOW, params).all()

    def store_vectors(self, conn: Connection, rows: Sequence[tuple[str, Sequence[float]]]) -> None:
        """Vectors stay in the bytea column (searched in numpy)."""

    def similar(
        self, conn: Connection, ws: str, embedder: str, query: Sequence[float], k: int
    ) -> dict[int, float] | None:
        return None  # no vector index here: the caller searches exactly in numpy

    def knowledge_candidates(
        self, conn: Connection, ws: str, query: str, limit: int
    ) -> Sequence[tuple[int, float]]:
        return _knowledge_candidates(conn, ws, query, limit)

    def insert_turns(self, conn: Connection, rows: Sequence[dict[str, Any]]) -> list[int]:
        """One executemany; seqs follow from the largest rowid (the write lock is ours: the
        transaction began IMMEDIATE, and an INTEGER PRIMARY KEY takes max(rowid) + 1)."""
        start = conn.execute(sa.text("SELECT coalesce(max(seq), 0) FROM turns")).scalar_one()
        conn.execute(turns.insert(), list(rows))
        return list(range(start + 1, start + 1 + len(rows)))

    def prepare(self, query: str) -> str:
        return fts.fts5_query(query)


_KNOWLEDGE = sa.text(
    "SELECT c.seq, -bm25(knowledge_fts, 2.0, 1.0) AS score FROM knowledge_fts "
    "JOIN knowledge_chunks c ON c.seq = knowledge_fts.rowid "
    "WHERE knowledge_fts MATCH :q AND c.workspace_id = :ws AND c.current = 1 "
    "ORDER BY score DESC LIMIT :limit"
)


def _knowledge_candidates(
    conn: Connection, ws: str, query: str, limit: int
) -> Sequence[tuple[int, float]]:
    """Current chunks matching any word of the query, best first (title weighs double)."""
    q = fts.fts5_query(query, any_word=True)
    if not q:
        return []
    return [(r.seq, r.score) for r in conn.execute(_KNOWLEDGE, {"q": q, "ws": ws, "limit": limit})]
