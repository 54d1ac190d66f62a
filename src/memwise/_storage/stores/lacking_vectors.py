"""Rows lacking a vector of the configured embedder (memory items, knowledge chunks): what
the worker's sweep embeds, found through an index on (…, embedder, seq) so that a table
whose rows all hold the embedder's vectors costs the sweep a lookup each minute, not a scan
of the table (``embedder IS NULL OR embedder != :e`` read every row)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection


def rows(
    conn: Connection,
    table: sa.Table,
    columns: list[Any],
    embedder: str,
    limit: int,
    *where: Any,
) -> list[Any]:
    """Up to ``limit`` rows (``columns`` and ``seq``) with no vector of ``embedder`` — none
    yet, or another embedder's — the oldest of each of the three index ranges (no vector,
    an embedder named before it, one named after), the oldest of them first."""
    c = table.c
    found: list[Any] = []
    for lacks in (c.embedder.is_(None), c.embedder < embedder, c.embedder > embedder):
        query = sa.select(*columns, c.seq).where(lacks, *where)
        found += conn.execute(query.order_by(c.embedder, c.seq).limit(limit)).all()
    return sorted(found, key=lambda r: r.seq)[:limit]
