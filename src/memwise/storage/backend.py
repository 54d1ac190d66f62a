"""What differs between backends, as one small protocol."""

from __future__ import annotations

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
