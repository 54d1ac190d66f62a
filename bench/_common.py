"""Helpers shared by the benchmark scripts: databases, text, timing, tables."""

from __future__ import annotations

import random
import statistics
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from rich.console import Console
from rich.table import Table

PG_ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
console = Console()

WORDS = (
    "order invoice delivery parcel refund tent stove boots jacket size colour return exchange "
    "address email phone account balance payment card warranty repair manual footprint pole "
    "zip seam waterproof trail summit winter summer camping hiking kayak paddle rope harness "
    "helmet lamp battery charger filter bottle stove gas canister backpack strap buckle hip "
    "belt frame sleeping bag mat pillow liner stakes guyline vestibule mesh door window rain "
    "fly groundsheet shipping tracking courier monday tuesday friday weekend morning evening "
    "please thanks hello question problem broken missing late wrong damaged fine great"
).split()


_SYLLABLES = [a + b for a in "bdfgklmnprstvz" for b in ("a", "e", "i", "o", "u", "ar", "en", "il")]


def analyze(engine: sa.engine.Engine, table: str | None = None) -> None:
    """What autovacuum would do after a bulk load: fresh planner statistics. ANALYZE is
    transactional, so it runs outside one (a rolled-back ANALYZE leaves the planner blind)."""
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
        c.exec_driver_sql(f"ANALYZE {table}" if table else "ANALYZE")


def vocabulary(size: int = 20_000, seed: int = 3) -> list[str]:
    """Domain words first (most frequent), then invented words: a Zipf-ranked vocabulary."""
    rng = random.Random(seed)
    seen = set(WORDS)
    words = list(WORDS)
    while len(words) < size:
        w = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))
        if w not in seen:
            seen.add(w)
            words.append(w)
    return words


VOCAB = vocabulary()
_CUM: list[float] = []
_total = 0.0
for _rank in range(1, len(VOCAB) + 1):
    _total += 1.0 / _rank**1.07
    _CUM.append(_total)


def sentence(rng: random.Random, n: int | None = None) -> str:
    """A sentence of Zipf-distributed words (like natural text: few common, many rare)."""
    k = n or rng.randint(6, 24)
    return " ".join(rng.choices(VOCAB, cum_weights=_CUM, k=k)).capitalize() + "."


def queries(rng: random.Random, kind: str, n: int) -> list[str]:
    """specific: a mid-frequency word with a rarer one (names, products); common: two top words."""
    if kind == "common":
        return [" ".join(rng.sample(VOCAB[:40], 2)) for _ in range(n)]
    return [f"{rng.choice(VOCAB[40:400])} {rng.choice(VOCAB[400:4000])}" for _ in range(n)]


@contextmanager
def database(backend: str, tmp: Path) -> Iterator[str]:
    """A fresh database URL on ``backend``, removed afterwards."""
    if backend == "sqlite":
        path = tmp / f"bench-{uuid.uuid4().hex[:8]}.db"
        try:
            yield f"sqlite:///{path}"
        finally:
            for suffix in ("", "-wal", "-shm"):
                Path(str(path) + suffix).unlink(missing_ok=True)
        return
    name = f"mw_bench_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield sa.make_url(PG_ADMIN).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def percentiles(samples: list[float]) -> tuple[float, float]:
    """p50 and p95 in milliseconds."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p95 * 1000


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def table(title: str, columns: list[str], rows: list[list[str]]) -> None:
    t = Table(title=title)
    for c in columns:
        t.add_column(c, justify="right" if c != columns[0] else "left")
    for r in rows:
        t.add_row(*r)
    console.print(t)
