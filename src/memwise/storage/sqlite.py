"""SQLite specifics: FTS5 search over the record."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise.domain.record import Author, RecordHit
from memwise.storage import fts
from memwise.storage.highlight import START, STOP, to_html
from memwise.storage.types import UTCDateTime

_SEARCH = sa.text(
    f"""
    SELECT t.id, t.conversation_id, t.role, t.at,
           snippet(turns_fts, 0, '{START}', '{STOP}', '…', 16) AS hl, turns_fts.rank AS score
    FROM turns_fts JOIN turns t ON t.seq = turns_fts.rowid
    WHERE turns_fts MATCH :q AND t.workspace_id = :ws
      AND (:conv IS NULL OR t.conversation_id = :conv)
    ORDER BY turns_fts.rank
    LIMIT :limit
    """
).columns(at=UTCDateTime)


class SQLiteBackend:
    name = "sqlite"

    def search_turns(
        self,
        conn: Connection,
        workspace_id: str,
        query: str,
        *,
        limit: int,
        conversation_id: str | None = None,
    ) -> list[RecordHit]:
        match = fts.fts5_query(query)
        if not match:
            return []
        rows = conn.execute(
            _SEARCH, {"q": match, "ws": workspace_id, "conv": conversation_id, "limit": limit}
        )
        return [
            RecordHit(
                turn_id=r.id,
                conversation_id=r.conversation_id,
                role=Author(r.role),
                at=r.at,
                highlight=to_html(r.hl),
                score=-float(r.score),
            )
            for r in rows
        ]
