"""Rate buckets' SQL: one atomic take from a token bucket, in the database every process sees."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from memwise._storage.schema import rate_buckets


def take(conn: Connection, key: str, capacity: float, per_second: float, now: float) -> bool:
    """Take one token from ``key``'s bucket (full at ``capacity``, refilled at
    ``per_second``): True when there was one. One statement, atomic under the row's lock:
    concurrent takes from several processes never overdraw it."""
    b = rate_buckets.c
    refilled = sa.func.least if conn.dialect.name == "postgresql" else sa.func.min
    level = refilled(capacity, b.tokens + (now - b.at) * per_second)
    insert = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(
        rate_buckets
    ).values(key=key, tokens=capacity - 1, at=now, allowed=True)
    upsert = insert.on_conflict_do_update(
        index_elements=[b.key],
        set_={
            "tokens": sa.case((level >= 1, level - 1), else_=level),
            "at": now,
            "allowed": level >= 1,
        },
    ).returning(b.allowed)
    return bool(conn.execute(upsert).scalar_one())


def level(conn: Connection, key: str, capacity: float, per_second: float, now: float) -> float:
    """The tokens ``key``'s bucket holds now (full when it has none yet); nothing is taken."""
    row = conn.execute(
        sa.select(rate_buckets.c.tokens, rate_buckets.c.at).where(rate_buckets.c.key == key)
    ).first()
    if row is None:
        return capacity
    return float(min(capacity, row.tokens + (now - row.at) * per_second))


def forget_full(conn: Connection, before: float) -> int:
    """Drop buckets untouched since ``before`` (they have refilled: a missing one is full)."""
    return int(conn.execute(rate_buckets.delete().where(rate_buckets.c.at < before)).rowcount)
