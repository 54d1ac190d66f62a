"""The record search shared by both backends: a recency-bounded candidate set.

Candidates are looked for among the most recent turns first (a range of sequence numbers
both indexes can use), widening fourfold while the window holds fewer than ``ENOUGH``
matches (each widening reads only the older slice it adds); the matches found (at most
``RANKED_CANDIDATES``, the newest) are scored, the best kept, and only those highlighted.
Common words stop in the first window, so their cost does not grow with the record; rare
words have few matches anyway and widen to the whole record. Each backend supplies the SQL
steps.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from memwise._domain.record import Author, RecordHit
from memwise._ids import ConversationId, WorkspaceId
from memwise._storage.backend import Backend
from memwise._storage.highlight import to_html

RANKED_CANDIDATES = 1000  # the most matches one window ranks (the newest)
ENOUGH = 100  # a window with this many matches is not widened
GROW = 4  # how much wider each next window is


def search(
    steps: Backend,
    conn: Connection,
    query: str,
    ws: WorkspaceId,
    *,
    limit: int,
    conversation_id: ConversationId | None = None,
) -> list[RecordHit]:
    q = steps.prepare(query)
    if not q:
        return []
    newest = steps.newest_seq(conn)
    if newest is None:
        return []
    window = steps.first_window(conn, q) or newest
    below = newest
    found: list[tuple[int, float]] = []
    while True:  # each slice older than the last: no turn is looked at twice
        above = max(0, newest - window)
        span = below - above if above else None
        wanted = RANKED_CANDIDATES - len(found)
        found += steps.candidates(conn, q, ws, conversation_id, above, below, wanted, span)
        if len(found) >= max(ENOUGH, limit) or above == 0:
            break
        below, window = above, window * GROW
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
