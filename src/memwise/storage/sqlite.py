"""SQLite specifics: FTS5 search over the record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise.domain.record import Author, RecordHit
from memwise.storage import fts
from memwise.storage.highlight import START, STOP, to_html
from memwise.storage.types import UTCDateTime

RANKED_CANDIDATES = 1000  # relevance is ranked among the most recent matches

# Workspace-wide: the most recent matches bound a rowid range, relevance is ranked inside it,
# and only the rows returned are highlighted.
_FLOOR = sa.text(
    "SELECT min(seq) FROM (SELECT t.seq FROM turns_fts JOIN turns t ON t.seq = turns_fts.rowid "
    "WHERE turns_fts MATCH :q AND t.workspace_id = :ws ORDER BY turns_fts.rowid DESC LIMIT :cap)"
)
_RANK = sa.text(
    "SELECT turns_fts.rowid AS rowid, bm25(turns_fts) AS score "
    "FROM turns_fts JOIN turns t ON t.seq = turns_fts.rowid "
    "WHERE turns_fts MATCH :q AND turns_fts.rowid >= :floor AND t.workspace_id = :ws "
    "ORDER BY score LIMIT :limit"
)
_RANK_IN_CONVERSATION = sa.text(
    "SELECT turns_fts.rowid AS rowid, bm25(turns_fts) AS score "
    "FROM turns_fts JOIN turns t ON t.seq = turns_fts.rowid "
    "WHERE turns_fts MATCH :q AND t.conversation_id = :conv ORDER BY score LIMIT :limit"
)
_SHOW = (
    sa.text(
        f"SELECT t.seq, t.id, t.conversation_id, t.role, t.at, "
        f"snippet(turns_fts, 0, '{START}', '{STOP}', '…', 16) AS hl "
        "FROM turns_fts JOIN turns t ON t.seq = turns_fts.rowid "
        "WHERE turns_fts MATCH :q AND turns_fts.rowid IN :ids"
    )
    .bindparams(sa.bindparam("ids", expanding=True))
    .columns(at=UTCDateTime)
)


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
        words = fts.fts5_query(query)
        if not words:
            return []
        match = words
        ranked: Sequence[Any]
        if conversation_id is not None:
            ranked = conn.execute(
                _RANK_IN_CONVERSATION, {"q": match, "conv": conversation_id, "limit": limit}
            ).all()
        else:
            floor = conn.execute(
                _FLOOR, {"q": match, "ws": workspace_id, "cap": RANKED_CANDIDATES}
            ).scalar()
            if floor is None:
                return []
            ranked = conn.execute(
                _RANK, {"q": match, "ws": workspace_id, "floor": floor, "limit": limit}
            ).all()
        if not ranked:
            return []
        shown = {
            r.seq: r for r in conn.execute(_SHOW, {"q": match, "ids": [r.rowid for r in ranked]})
        }
        return [
            RecordHit(
                turn_id=row.id,
                conversation_id=row.conversation_id,
                role=Author(row.role),
                at=row.at,
                highlight=to_html(row.hl),
                score=-float(r.score),
            )
            for r in ranked
            if (row := shown.get(r.rowid)) is not None
        ]
