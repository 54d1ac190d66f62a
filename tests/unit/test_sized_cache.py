"""The byte-bounded cache: least recently used out first, by size, not by count."""

from __future__ import annotations

from memwise._services.platform.cache import SizedLRU


def test_it_evicts_by_bytes_least_recently_used_first() -> None:
    c: SizedLRU[str] = SizedLRU(100)
    c.put("a", "A", 40)
    c.put("b", "B", 40)
    assert c.get("a") == "A"  # a is now the most recently used
    c.put("c", "C", 40)  # 120 > 100: b goes
    assert "b" not in c and c.get("a") == "A" and c.get("c") == "C"
    assert c.bytes == 80 and len(c) == 2


def test_many_small_entries_fit_where_few_large_ones_would_not() -> None:
    c: SizedLRU[int] = SizedLRU(10_000)
    for i in range(1000):
        c.put(i, i, 10)
    assert len(c) == 1000
    c.put("big", 0, 9_000)
    assert len(c) == 101 and c.bytes == 10_000


def test_a_value_larger_than_the_budget_is_not_held_and_replacing_keeps_the_count() -> None:
    c: SizedLRU[str] = SizedLRU(50)
    c.put("x", "X", 60)
    assert "x" not in c and c.bytes == 0
    c.put("y", "Y", 20)
    c.put("y", "Y2", 30)
    assert c.get("y") == "Y2" and c.bytes == 30
    c.pop("y")
    c.pop("missing")
    assert c.bytes == 0 and len(c) == 0
