"""PostgreSQL specifics: tsvector search over the record."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise.domain.record import Author, RecordHit
from memwise.storage import fts
from memwise.storage.highlight import START, STOP, to_html
from memwise.storage.types import UTCDateTime

RANKED_CANDIDATES = 1000  # relevance is ranked among the most recent matches

_SEARCH = sa.text(
    f"""
    WITH q AS (SELECT plainto_tsquery('english', :q) AS query),
    recent AS (
        SELECT t.seq, t.id, t.conversation_id, t.role, t.at, t.text, t.text_tsv
        FROM turns t, q
        WHERE t.text_tsv @@ q.query AND t.workspace_id = :ws
          AND (CAST(:conv AS varchar) IS NULL OR t.conversation_id = :conv)
        ORDER BY t.seq DESC
        LIMIT {RANKED_CANDIDATES}
    ),
    best AS (
        SELECT recent.*, ts_rank_cd(recent.text_tsv, q.query) AS score
        FROM recent, q
        ORDER BY score DESC, recent.seq DESC
        LIMIT :limit
    )
    SELECT best.id, best.conversation_id, best.role, best.at, best.score,
           ts_headline('english', best.text, q.query,
                       'StartSel={START}, StopSel={STOP}, MaxWords=24, MinWords=8') AS hl
    FROM best, q
    ORDER BY best.score DESC, best.seq DESC
    """
).columns(at=UTCDateTime)


class PostgresBackend:
    name = "postgresql"

    def search_turns(
        self,
        conn: Connection,
        workspace_id: str,
        query: str,
        *,
        limit: int,
        conversation_id: str | None = None,
    ) -> list[RecordHit]:
        text = " ".join(fts.tsquery_words(query))
        if not text:
            return []
        rows = conn.execute(
            _SEARCH, {"q": text, "ws": workspace_id, "conv": conversation_id, "limit": limit}
        )
        return [
            RecordHit(
                turn_id=r.id,
                conversation_id=r.conversation_id,
                role=Author(r.role),
                at=r.at,
                highlight=to_html(r.hl),
                score=float(r.score),
            )
            for r in rows
        ]
