"""The record search shared by both backends: an expanding recency window.

Candidates are looked for among the most recent turns first (a range both indexes can
use), widening tenfold until enough are found; each candidate is scored as it is found,
the best are kept, and only those are highlighted. Common words stop early; rare words
have few matches anyway. Each backend supplies the SQL steps.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from memwise.domain.record import Author, RecordHit
from memwise.storage.backend import Backend
from memwise.storage.highlight import to_html

RANKED_CANDIDATES = 1000


def search(
    steps: Backend,
    conn: Connection,
    query: str,
    ws: str,
    *,
    limit: int,
    conversation_id: str | None = None,
) -> list[RecordHit]:
    q = steps.prepare(query)
    if not q:
        return []
    newest = steps.newest_seq(conn)
    if newest is None:
        return []
    window = steps.first_window or newest
    while True:
        above = max(0, newest - window)
        found = steps.candidates(conn, q, ws, conversation_id, above, RANKED_CANDIDATES)
        if len(found) >= RANKED_CANDIDATES or above == 0:
            break
        window *= 10
    best = sorted(found, key=lambda pair: (-pair[1], -pair[0]))[:limit]
    if not best:
        return []
    shown = {r.seq: r for r in steps.show(conn, q, [seq for seq, _ in best])}
    return [
        RecordHit(
            turn_id=r.id,
            conversation_id=r.conversation_id,
            role=Author(r.role),
            at=r.at,
            highlight=to_html(r.hl),
            score=float(score),
        )
        for seq, score in best
        if (r := shown.get(seq)) is not None
    ]
