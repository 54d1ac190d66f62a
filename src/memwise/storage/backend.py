"""What differs between backends, as one small protocol."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from sqlalchemy.engine import Connection

from memwise.domain.record import RecordHit


class Backend(Protocol):
    name: str

    def search_turns(
        self,
        conn: Connection,
        workspace_id: str,
        query: str,
        *,
        limit: int,
        conversation_id: str | None = None,
    ) -> list[RecordHit]:
        """Full-text search over the record of one workspace, best first, highlighted."""
        ...

    def knowledge_candidates(
        self, conn: Connection, ws: str, query: str, limit: int
    ) -> Sequence[tuple[int, float]]:
        """Current knowledge chunks matching any word of the query: (seq, score), best first."""
        ...
