"""The worker's sweep that gives rows written without a vector of the configured embedder
one — written before it was configured, or under another — in bounded batches: memory items
and knowledge chunks alike (recall finds them by meaning again once swept)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from sqlalchemy.engine import Connection

from memwise._retrieval.embedders import Embedder
from memwise._storage.engine import Database

SWEEP = 256  # rows one sweep embeds at most (a second or a few of the worker's time)


def embed_missing(
    db: Database,
    embedder: Embedder | None,
    find: Callable[[Connection, str], Sequence[Any]],
    text: Callable[[Any], str],
    keep: Callable[[Connection, str, list[tuple[Any, np.ndarray]]], None],
) -> int:
    """Embed the rows ``find`` gives for the embedder's id (its query bounded by SWEEP) and
    ``keep`` their vectors; how many. The embedding is done between the read and the write,
    outside any transaction: it may be a remote call."""
    if embedder is None:
        return 0
    with db.read() as conn:
        found = find(conn, embedder.id)
    if not found:
        return 0
    vectors = embedder.embed([text(r) for r in found])
    with db.write() as conn:
        keep(conn, embedder.id, list(zip(found, vectors, strict=True)))
    return len(found)
