"""SQLite specifics: FTS5 search over the record."""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Sequence
from typing import Any

import snowballstemmer
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._ids import WorkspaceId
from memwise._storage import fts
from memwise._storage.highlight import START, STOP
from memwise._storage.schema import turns
from memwise._storage.types import UTCDateTime

_NEWEST = sa.text("SELECT max(seq) FROM turns")
_CANDIDATES = sa.text(
    "SELECT t.seq, -bm25(turns_fts) AS score "
    "FROM turns_fts JOIN turns t ON t.seq = turns_fts.rowid "
    "WHERE turns_fts MATCH :q AND turns_fts.rowid > :above AND turns_fts.rowid <= :below "
    "AND t.workspace_id = :ws "
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
    WINDOW = 50_000  # FTS5 walks long doclists: start recent

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}  # porter stem → chunks holding it (an estimate)
        self._counts_at = 0.0

    def serialize(self, conn: Connection, key: str) -> None:
        """Nothing to do: writes begin IMMEDIATE, one writer at a time."""

    def newest_seq(self, conn: Connection) -> int | None:
        return conn.execute(_NEWEST).scalar()

    def first_window(self, conn: Connection, q: str) -> int | None:
        return self.WINDOW

    def candidates(
        self,
        conn: Connection,
        q: str,
        ws: WorkspaceId,
        conv: str | None,
        above: int,
        below: int,
        cap: int,
        span: int | None = None,
    ) -> Sequence[tuple[int, float]]:
        params = {"q": q, "ws": ws, "conv": conv, "above": above, "below": below, "cap": cap}
        return [(r.seq, r.score) for r in conn.execute(_CANDIDATES, params)]

    def show(self, conn: Connection, q: str, seqs: Sequence[int]) -> Sequence[Any]:
        params = {"q": q, "lo": min(seqs), "hi": max(seqs), "seqs": list(seqs)}
        return conn.execute(_SHOW, params).all()

    def store_vectors(self, conn: Connection, rows: Sequence[tuple[str, Sequence[float]]]) -> None:
        """Vectors stay in the bytea column (searched in numpy)."""

    def similar(
        self, conn: Connection, ws: WorkspaceId, embedder: str, query: Sequence[float], k: int
    ) -> dict[int, float] | None:
        return None  # no vector index here: the caller searches exactly in numpy

    rarest_first = True  # knowledge candidates from the rarest words (False: every word)

    def _document_counts(self, conn: Connection, words: Sequence[str]) -> dict[str, int]:
        """Each word's chunk count, an estimate of its rarity: read from the index's
        vocabulary, then held for a few minutes (the counts only rank the words)."""
        now = time.monotonic()
        held = self._counts
        if now - self._counts_at > STATS_SECONDS or len(held) > STATS_WORDS:
            held.clear()
            self._counts_at = now
        stems = {w: _porter(w) for w in words}
        missing = [t for t in stems.values() if t not in held]
        if missing:
            held.update(_vocabulary_counts(conn, missing))
        return {w: held[t] for w, t in stems.items()}

    def forget_statistics(self) -> None:
        """Read the words' chunk counts afresh on the next search (after a bulk load)."""
        self._counts.clear()

    def knowledge_candidates(
        self, conn: Connection, ws: WorkspaceId, query: str, limit: int, enough: int | None = None
    ) -> Sequence[tuple[int, float]]:
        """Current chunks, best first (title weighs double): those holding every word of
        the question ranked (the newest ``SAMPLE`` of them when there are more); then, while
        more are wanted, those of the rarest word ranked, then a bounded sample of those
        holding the next rarest too (their order left to the caller's coverage scoring)."""
        words = list(dict.fromkeys(fts.content_words(query)))
        if not words:
            return []
        if not self.rarest_first or len(words) == 1:
            return _ranked(conn, ws, fts.fts5_query(query, any_word=True), limit)
        found = _ranked(conn, ws, _quoted(words, " AND "), limit, SAMPLE)
        if len(found) >= min(limit, enough or limit):
            return found
        counts = self._document_counts(conn, words)
        order = sorted(words, key=lambda w: counts.get(w, 0))
        if counts.get(order[0], 0) > COMMON_ROWS:  # only common words: a sample of the rest
            return fts.first_unique(
                found + _sampled(conn, ws, _quoted(order, " OR "), FILL * limit), limit
            )
        found = fts.first_unique(found + _ranked(conn, ws, _quoted(order[:1], ""), limit), limit)
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

    def binary_rows(self, conn: Connection, query: Any) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in conn.execute(query)]

    def prepare(self, query: str) -> str:
        return fts.fts5_query(query)


_KNOWLEDGE = sa.text(
    "SELECT c.seq, -bm25(knowledge_fts, 2.0, 1.0) AS score FROM knowledge_fts "
    "JOIN knowledge_chunks c ON c.seq = knowledge_fts.rowid "
    "WHERE knowledge_fts MATCH :q AND c.workspace_id = :ws AND c.current = 1 "
    "ORDER BY score DESC LIMIT :limit"
)


COMMON_ROWS = 5_000  # a rarest word in more chunks than this: the question has only common words
SAMPLE = 1_000  # chunks holding every word ranked, the newest (as PostgreSQL ranks a sample)
FILL = 4  # chunks sampled per result still wanted, once the rarest word's are in
STATS_SECONDS = 300.0  # the words' chunk counts are read again after this
STATS_WORDS = 50_000  # and at most this many are held
_PORTER = snowballstemmer.stemmer("porter")  # as FTS5's porter tokenizer stems
_porter_lock = threading.Lock()


@functools.lru_cache(maxsize=1 << 16)
def _porter(word: str) -> str:
    with _porter_lock:  # the stemmer object keeps state between calls
        return str(_PORTER.stemWord(word.lower()))


def _quoted(words: Sequence[str], joiner: str) -> str:
    return joiner.join(f'"{w.replace(chr(34), "")}"' for w in words)


def _vocabulary_counts(conn: Connection, stems: Sequence[str]) -> dict[str, int]:
    """How many chunks hold each stem (every workspace's: an estimate of its rarity), from
    the full-text index's own vocabulary."""
    found = conn.execute(
        sa.text("SELECT term, doc FROM knowledge_vocab WHERE term IN :terms").bindparams(
            sa.bindparam("terms", expanding=True)
        ),
        {"terms": sorted(set(stems))},
    )
    docs = {r.term: int(r.doc) for r in found}
    return {t: docs.get(t, 0) for t in stems}


# Ranked in the full-text index alone, then the best checked against the chunks (this
# workspace's, current): joined for every matching row, the check cost as much as the ranking.
_INDEX_RANKED = sa.text(
    "SELECT rowid AS seq, -bm25(knowledge_fts, 2.0, 1.0) AS score FROM knowledge_fts "
    "WHERE knowledge_fts MATCH :q ORDER BY score DESC LIMIT :limit"
)
# The newest ``sample`` matches ranked, then checked against the chunks: the subquery's
# LIMIT keeps the join to those few rows.
_NEWEST_KNOWLEDGE = sa.text(
    "SELECT f.seq, f.score FROM (SELECT rowid AS seq, -bm25(knowledge_fts, 2.0, 1.0) AS score "
    "FROM knowledge_fts WHERE knowledge_fts MATCH :q ORDER BY rowid DESC LIMIT :sample) f "
    "JOIN knowledge_chunks c ON c.seq = f.seq WHERE c.workspace_id = :ws AND c.current = 1 "
    "ORDER BY f.score DESC LIMIT :limit"
)
_BEYOND = sa.text(
    "SELECT count(*) FROM (SELECT rowid FROM knowledge_fts WHERE knowledge_fts MATCH :q LIMIT :n)"
)


def _matches_beyond(conn: Connection, q: str, sample: int) -> bool:
    """Whether more than ``sample`` chunks (of any workspace) match ``q``."""
    return int(conn.execute(_BEYOND, {"q": q, "n": sample + 1}).scalar_one()) > sample


_OURS = sa.text(
    "SELECT seq FROM knowledge_chunks WHERE seq IN :seqs AND workspace_id = :ws AND current = 1"
).bindparams(sa.bindparam("seqs", expanding=True))


def _ranked(
    conn: Connection, ws: WorkspaceId, q: str, limit: int, sample: int | None = None
) -> list[tuple[int, float]]:
    """The best ``limit`` of this workspace's current chunks matching ``q``. The index's own
    best first; ranked with the join only when other workspaces' chunks (or replaced ones)
    took places among those. With ``sample``, only the newest ``sample`` matches are ranked
    (FTS5 computes bm25 for each match it returns: thousands for two common words)."""
    if not q:
        return []
    params = {"q": q, "ws": ws, "limit": limit, "sample": sample}
    if sample:
        mine = [(r.seq, r.score) for r in conn.execute(_NEWEST_KNOWLEDGE, params)]
        if len(mine) >= limit or not _matches_beyond(conn, q, sample):
            return mine
        # other workspaces' (or replaced) chunks filled the sample: rank every match
    best = [(r.seq, r.score) for r in conn.execute(_INDEX_RANKED, params)]
    if not best:
        return []
    ours = set(conn.execute(_OURS, {"seqs": [s for s, _ in best], "ws": ws}).scalars())
    if len(ours) == len(best) or len(best) < limit:
        return [p for p in best if p[0] in ours]
    return [(r.seq, r.score) for r in conn.execute(_KNOWLEDGE, params)]


# The full-text index drives (as a subquery): joined, the planner would walk the workspace's
# chunks and test each against the index (hundreds of ms at 10k chunks).
_SAMPLED = sa.text(
    "SELECT c.seq, 0.0 AS score FROM knowledge_chunks c WHERE c.seq IN "
    "(SELECT rowid FROM knowledge_fts WHERE knowledge_fts MATCH :q) "
    "AND c.workspace_id = :ws AND c.current = 1 LIMIT :limit"
)


def _sampled(conn: Connection, ws: WorkspaceId, q: str, limit: int) -> list[tuple[int, float]]:
    return [(r.seq, r.score) for r in conn.execute(_SAMPLED, {"q": q, "ws": ws, "limit": limit})]
