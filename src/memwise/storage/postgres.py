"""PostgreSQL specifics: tsvector search over the record."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise.domain.record import Author, RecordHit
from memwise.storage import fts
from memwise.storage.highlight import START, STOP, to_html
from memwise.storage.types import UTCDateTime

_SEARCH = sa.text(
    f"""
    WITH q AS (SELECT plainto_tsquery('english', :q) AS query),
    best AS (
        SELECT t.id, t.conversation_id, t.role, t.at, t.text,
               ts_rank_cd(t.text_tsv, q.query) AS score
        FROM turns t, q
        WHERE t.text_tsv @@ q.query AND t.workspace_id = :ws
          AND (CAST(:conv AS varchar) IS NULL OR t.conversation_id = :conv)
        ORDER BY score DESC, t.seq DESC
        LIMIT :limit
    )
    SELECT best.id, best.conversation_id, best.role, best.at, best.score,
           ts_headline('english', best.text, q.query,
                       'StartSel={START}, StopSel={STOP}, MaxWords=24, MinWords=8') AS hl
    FROM best, q
    ORDER BY best.score DESC
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
