"""PostgreSQL specifics: tsvector search over the record."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._ids import WorkspaceId
from memwise._storage import fts
from memwise._storage.highlight import START, STOP
from memwise._storage.schema import turns
from memwise._storage.search import ENOUGH
from memwise._storage.types import UTCDateTime
from memwise._text.lexical import snowball

_NEWEST = sa.text("SELECT max(seq) FROM turns")
_CUSTOM_PLANS = sa.text("SET LOCAL plan_cache_mode = force_custom_plan")
CUSTOM = "memwise_custom_plans"  # conn.info: set in this transaction (cleared at its end)
_CANDIDATES = sa.text(
    "SELECT t.seq, ts_rank_cd(t.text_tsv, q.query) AS score "
    "FROM turns t, (SELECT plainto_tsquery('english', :q) AS query) q "
    "WHERE t.text_tsv @@ q.query AND t.seq > :above AND t.seq <= :below AND t.workspace_id = :ws "
    "AND (CAST(:conv AS varchar) IS NULL OR t.conversation_id = :conv) "
    "ORDER BY t.seq DESC LIMIT :cap"
)
_NO_BITMAPS = sa.text("SET LOCAL enable_bitmapscan = off")
_BITMAPS = sa.text("SET LOCAL enable_bitmapscan = on")
SCAN_ROWS = 30_000  # a slice up to this size is walked newest first
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
        self._stats: dict[str, tuple[float, float, dict[str, float], float]] = {}

    rarest_first = True  # knowledge candidates from the rarest words (False: every word)

    def serialize(self, conn: Connection, key: str) -> None:
        conn.execute(
            sa.text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))"), {"key": key}
        )

    @staticmethod
    def custom_plans(conn: Connection) -> None:
        """For the rest of this transaction, plan every statement for its own parameters:
        a search's best plan depends on how common its words are, so a generic plan settled
        on for one question must never serve another."""
        if not conn.info.get(CUSTOM):
            conn.execute(_CUSTOM_PLANS)
            conn.info[CUSTOM] = True

    def newest_seq(self, conn: Connection) -> int | None:
        return conn.execute(_NEWEST).scalar()

    def first_window(self, conn: Connection, q: str) -> int | None:
        """A window expected to hold about ``search.ENOUGH`` matches of every word, by the
        planner's statistics of the record's lexemes; None when that is most of the record
        (rare words: the full-text index finds their few matches at once)."""
        rows, freq, floor = self._lexeme_stats(conn, "turns")
        words = fts.tsquery_words(q, content_only=True)
        if not words or rows <= 0:
            return None
        share = 1.0
        for w in dict.fromkeys(snowball(w.lower()) for w in words):
            share *= freq.get(w, floor / 2)
        if share <= 0:
            return None
        window = int(1.5 * ENOUGH / share)  # a margin: most first windows are enough
        return window if window < rows / 2 else None

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
        self.custom_plans(conn)
        params = {"q": q, "ws": ws, "conv": conv, "above": above, "below": below, "cap": cap}
        if span is None or span > SCAN_ROWS:
            return [(r.seq, r.score) for r in conn.execute(_CANDIDATES, params)]
        # A short window of common words: walking it newest first costs at most its size,
        # where a bitmap of the words' matches costs what the whole record holds of them.
        conn.execute(_NO_BITMAPS)
        try:
            return [(r.seq, r.score) for r in conn.execute(_CANDIDATES, params)]
        finally:
            conn.execute(_BITMAPS)

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
        self, conn: Connection, ws: WorkspaceId, embedder: str, query: Sequence[float], k: int
    ) -> dict[int, float] | None:
        """Exact cosine search in SQL; None when the server has no pgvector."""
        if not self.has_vectors(conn):
            return None
        params = {"q": vector_literal(query), "ws": ws, "eid": embedder, "k": k}
        return {r.seq: float(r.sim) for r in conn.execute(_SIMILAR, params)}

    def knowledge_candidates(
        self, conn: Connection, ws: WorkspaceId, query: str, limit: int, enough: int | None = None
    ) -> Sequence[tuple[int, float]]:
        """Current chunks matching the question's rarest words, best first: ranking every
        chunk that holds a common word is what made a big knowledge base slow. Those holding
        every word come first (the index intersects their lists; few are ranked)."""
        words = list(
            dict.fromkeys(w for w in fts.tsquery_words(query, content_only=True) if w.isalnum())
        )
        if not words:
            return []
        self.custom_plans(conn)
        if not self.rarest_first:  # every chunk holding any word, ranked (for comparison)
            return _ranked(conn, ws, " | ".join(words), limit)
        order, share, rows = self._by_rarity(conn, words)
        rarest = rows * share[order[0]]
        found = []
        if len(order) > 1:
            every = rows * math.prod(share.values())  # chunks expected to hold every word
            found = _ranked(conn, ws, " & ".join(order), limit, SAMPLE, _bitmap(every, rows))
        if len(found) >= min(limit, enough or limit):
            return found
        if rarest > COMMON_ROWS:  # only common words: rank a sample of chunks holding any
            anyone = rows * (1 - math.prod(1 - f for f in share.values()))
            return fts.first_unique(
                found + _ranked(conn, ws, " | ".join(order), limit, SAMPLE, _bitmap(anyone, rows)),
                limit,
            )
        # The chunks of the rarest word first, ranked; then, while more are wanted, a bounded
        # sample of those holding the next rarest too: a rare word's chunk is never pushed
        # out by the many that hold a common one, and the common ones are not all ranked.
        found = fts.first_unique(found + _ranked(conn, ws, order[0], limit), limit)
        for n in range(2, len(order) + 1):
            if len(found) >= limit:
                break
            more = _ranked(conn, ws, " | ".join(order[:n]), limit, FILL * limit)
            found = fts.first_unique(found + more, limit)
        return found

    def _by_rarity(
        self, conn: Connection, words: list[str]
    ) -> tuple[list[str], dict[str, float], float]:
        """The words, rarest first by the planner's own statistics of the lexemes (read once
        every few minutes), the share of chunks holding each, and the chunks counted."""
        rows, freq, floor = self._lexeme_stats(conn, "knowledge_chunks")
        share = {w: freq.get(snowball(w.lower()), floor / 2) for w in dict.fromkeys(words)}
        order = sorted(share, key=lambda w: share[w])
        return order, share, rows

    def forget_statistics(self) -> None:
        """Read the lexeme statistics afresh on the next search (after a bulk load and its
        ANALYZE; otherwise they are read again every few minutes)."""
        self._stats = {}

    def _lexeme_stats(self, conn: Connection, table: str) -> tuple[float, dict[str, float], float]:
        """(rows, lexeme → share of rows holding it, the least share listed) of ``table``'s
        ``text_tsv``, from the planner's statistics, read again every few minutes."""
        now = time.monotonic()
        held = self._stats.get(table)
        if held is None or now - held[0] > STATS_SECONDS:
            row = conn.execute(_LEXEME_STATS, {"table": table}).first()
            rows = float(conn.execute(_ROWS, {"table": table}).scalar() or 0)
            if row is None or not row.elems:  # never analysed: every word looks rare
                freq, floor = {}, 0.0
            else:
                freqs = list(row.freqs)
                freq = dict(zip(row.elems, freqs, strict=False))
                floor = float(freqs[-3]) if len(freqs) >= 3 else 0.0  # the minimum listed
            held = self._stats[table] = (now, max(rows, 0.0), freq, floor)
        return held[1], held[2], held[3]

    def binary_rows(self, conn: Connection, query: Any) -> list[tuple[Any, ...]]:
        """In the driver's binary format: its text format sends a binary value as hex, twice
        its size on the wire, then decoded (9 MB: ~80 ms against ~25 ms here)."""
        compiled = query.compile(dialect=conn.dialect, compile_kwargs={"render_postcompile": True})
        raw = conn.connection.driver_connection
        with raw.cursor(binary=True) as cursor:  # type: ignore[union-attr]
            cursor.execute(str(compiled), compiled.params)
            return [tuple(r) for r in cursor.fetchall()]

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
_LEXEME_STATS = sa.text(
    "SELECT CAST(CAST(most_common_elems AS text) AS text[]) AS elems, "
    "most_common_elem_freqs AS freqs FROM pg_stats WHERE schemaname = current_schema() "
    "AND tablename = :table AND attname = 'text_tsv'"
)
_ROWS = sa.text("SELECT reltuples FROM pg_class WHERE oid = CAST(:table AS regclass)")
STATS_SECONDS = 300.0  # the lexeme statistics are read again after this


_SAMPLED = sa.text(
    "SELECT c.seq, ts_rank_cd(c.text_tsv, to_tsquery('english', :q)) AS score FROM ("
    "SELECT seq, text_tsv FROM knowledge_chunks WHERE text_tsv @@ to_tsquery('english', :q) "
    "AND workspace_id = :ws AND current LIMIT :sample) c ORDER BY score DESC LIMIT :limit"
)
COMMON_ROWS = 5_000  # a rarest word in more chunks than this: the question has only common words
SAMPLE = 1_000  # chunks ranked for such a question (as the planner finds them)
FILL = 4  # chunks ranked per result still wanted, once the rarest word's are in


_BITMAP_ONLY = sa.text(
    "SELECT set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)"
)
_ANY_PLAN = sa.text(
    "SELECT set_config('enable_seqscan', 'on', true), set_config('enable_indexscan', 'on', true)"
)


INDEX_ENTRY_COST = 1 / 7  # reading a match from the full-text index, per chunk tested


def _bitmap(matches: float, rows: float) -> bool:
    """Whether a sample of ``SAMPLE`` chunks among ``matches`` of ``rows`` is found faster
    from the full-text index (all matches read, then the sample's rows) than by walking
    the table until enough match. The planner prices testing a chunk's words far below
    what it costs (at 100k chunks, words in 7% of them: a walk of ~15k chunks took twice
    the index's time), so the choice is made here, on measured costs."""
    if matches <= 0 or rows <= 0:
        return True
    walked = SAMPLE * rows / matches
    return matches * INDEX_ENTRY_COST < walked


def _ranked(
    conn: Connection,
    ws: WorkspaceId,
    q: str,
    limit: int,
    sample: int | None = None,
    bitmap: bool = False,
) -> list[tuple[int, float]]:
    params = {"q": q, "ws": ws, "limit": limit, "sample": sample}
    if not sample:
        return [(r.seq, r.score) for r in conn.execute(_KNOWLEDGE, params)]
    if not bitmap:
        return [(r.seq, r.score) for r in conn.execute(_SAMPLED, params)]
    conn.execute(_BITMAP_ONLY)  # a failure aborts the transaction, and these settings with it
    found = [(r.seq, r.score) for r in conn.execute(_SAMPLED, params)]
    conn.execute(_ANY_PLAN)
    return found


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
