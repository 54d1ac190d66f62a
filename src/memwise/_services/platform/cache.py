"""A least-recently-used cache bounded by an estimate of the bytes it holds, not by a count
of entries: one contact with 20,000 turns weighs what it weighs, and ten thousand contacts
with a few items each fit where thirty-two heavy ones would not."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class SizedLRU(Generic[V]):
    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._held: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def bytes(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._held)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._held

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            found = self._held.get(key)
            if found is None:
                return None
            self._held.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: V, size: int) -> None:
        """Hold ``value`` (about ``size`` bytes); the least recently used go first to make
        room. A value larger than the whole budget is not held at all."""
        with self._lock:
            self._drop(key)
            if size > self.max_bytes:
                return
            self._held[key] = (value, size)
            self._bytes += size
            while self._bytes > self.max_bytes:
                _, (_, gone) = self._held.popitem(last=False)
                self._bytes -= gone

    def pop(self, key: Hashable) -> None:
        with self._lock:
            self._drop(key)

    def _drop(self, key: Hashable) -> None:
        found = self._held.pop(key, None)
        if found is not None:
            self._bytes -= found[1]
