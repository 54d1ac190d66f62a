"""SQLite specifics: FTS5 search over the record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import snowballstemmer
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

    rarest_first = True  # knowledge candidates from the rarest words (False: every word)

    def knowledge_candidates(
        self, conn: Connection, ws: str, query: str, limit: int
    ) -> Sequence[tuple[int, float]]:
        """Current chunks, best first (title weighs double): those of the question's rarest
        word ranked, then, while more are wanted, a bounded sample of those holding the next
        rarest too (their order left to the caller's coverage scoring)."""
        words = list(dict.fromkeys(fts.content_words(query)))
        if not words:
            return []
        if not self.rarest_first or len(words) == 1:
            return _ranked(conn, ws, fts.fts5_query(query, any_word=True), limit)
        counts = _document_counts(conn, words)
        order = sorted(words, key=lambda w: counts.get(w, 0))
        if counts.get(order[0], 0) > COMMON_ROWS:  # only common words: chunks holding them all
            found = _ranked(conn, ws, _quoted(order, " AND "), limit)
            if len(found) < limit:
                found += _sampled(conn, ws, _quoted(order, " OR "), FILL * limit)
            return fts.first_unique(found, limit)
        found = _ranked(conn, ws, _quoted(order[:1], ""), limit)
        for n in range(2, len(order) + 1):
            if len(found) >= limit:
                break
            found = fts.first_unique(
                found + _sampled(conn, ws, _quoted(order[:n], " OR "), FILL * limit), limit
            )
        return found

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


COMMON_ROWS = 5_000  # a rarest word in more chunks than this: the question has only common words
FILL = 4  # chunks sampled per result still wanted, once the rarest word's are in
_PORTER = snowballstemmer.stemmer("porter")  # as FTS5's porter tokenizer stems


def _quoted(words: Sequence[str], joiner: str) -> str:
    return joiner.join(f'"{w.replace(chr(34), "")}"' for w in words)


def _document_counts(conn: Connection, words: Sequence[str]) -> dict[str, int]:
    """How many chunks hold each word (every workspace's: an estimate of its rarity), from
    the full-text index's own vocabulary."""
    stems = {w: _PORTER.stemWord(w.lower()) for w in words}
    found = conn.execute(
        sa.text("SELECT term, doc FROM knowledge_vocab WHERE term IN :terms").bindparams(
            sa.bindparam("terms", expanding=True)
        ),
        {"terms": sorted(set(stems.values()))},
    )
    docs = {r.term: int(r.doc) for r in found}
    return {w: docs.get(stem, 0) for w, stem in stems.items()}


def _ranked(conn: Connection, ws: str, q: str, limit: int) -> list[tuple[int, float]]:
    if not q:
        return []
    return [(r.seq, r.score) for r in conn.execute(_KNOWLEDGE, {"q": q, "ws": ws, "limit": limit})]


# The full-text index drives (as a subquery): joined, the planner would walk the workspace's
# chunks and test each against the index (hundreds of ms at 10k chunks).
_SAMPLED = sa.text(
    "SELECT c.seq, 0.0 AS score FROM knowledge_chunks c WHERE c.seq IN "
    "(SELECT rowid FROM knowledge_fts WHERE knowledge_fts MATCH :q) "
    "AND c.workspace_id = :ws AND c.current = 1 LIMIT :limit"
)


def _sampled(conn: Connection, ws: str, q: str, limit: int) -> list[tuple[int, float]]:
    return [(r.seq, r.score) for r in conn.execute(_SAMPLED, {"q": q, "ws": ws, "limit": limit})]
