"""What differs between backends, as one small protocol."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from sqlalchemy.engine import Connection

from memwise._ids import WorkspaceId


class Backend(Protocol):
    name: str

    def insert_turns(self, conn: Connection, rows: Sequence[dict[str, Any]]) -> list[int]:
        """Insert record turns in one go; their seqs, in order."""
        ...

    def binary_rows(self, conn: Connection, query: Any) -> list[tuple[Any, ...]]:
        """The rows of a query that selects binary values (and strings and numbers), read
        the cheapest way the driver allows."""
        ...

    def prepare(self, query: str) -> str:
        """The backend's search expression for plain words ("" when nothing is left)."""
        ...

    def newest_seq(self, conn: Connection) -> int | None: ...

    def first_window(self, conn: Connection, q: str) -> int | None:
        """How many of the newest sequence numbers a record search looks in first (None:
        the whole record at once)."""
        ...

    def serialize(self, conn: Connection, key: str) -> None:
        """Hold ``key`` until the transaction ends: writers of the same key take turns
        (SQLite has one writer at a time already)."""
        ...

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
        """Up to ``cap`` most recent record matches in ``above < seq <= below``: (seq,
        score). ``span``: how many sequence numbers that slice holds (None: it reaches the
        record's start)."""
        ...

    def show(self, conn: Connection, q: str, seqs: Sequence[int]) -> Sequence[Any]:
        """Rows with seq, id, conversation_id, role, at and hl (the highlighted snippet)."""
        ...

    def knowledge_candidates(
        self, conn: Connection, ws: WorkspaceId, query: str, limit: int, enough: int | None = None
    ) -> Sequence[tuple[int, float]]:
        """Current knowledge chunks matching any word of the query: (seq, score), best first,
        at most ``limit``. Those holding every word come first; when at least ``enough`` do,
        they are all that is returned (nothing else could outrank them)."""
        ...

    def forget_statistics(self) -> None:
        """Read the word statistics that rank search terms afresh (after a bulk load)."""
        ...

    def store_vectors(self, conn: Connection, rows: Sequence[tuple[str, Sequence[float]]]) -> None:
        """Keep chunk vectors in the server's vector type, where there is one."""
        ...

    def similar(
        self, conn: Connection, ws: WorkspaceId, embedder: str, query: Sequence[float], k: int
    ) -> dict[int, float] | None:
        """Cosine similarity by chunk seq, searched in the database; None if it cannot."""
        ...
