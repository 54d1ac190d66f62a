"""Opaque, roughly time-ordered identifiers: a prefix, 12 hex digits of milliseconds, 16 random."""

from __future__ import annotations

import secrets
import time


def new_id(prefix: str) -> str:
    millis = time.time_ns() // 1_000_000
    return f"{prefix}_{millis:012x}{secrets.token_hex(8)}"


def new_secret(prefix: str) -> str:
    """A bearer secret: shown once, stored only as a hash."""
    return f"{prefix}_{secrets.token_urlsafe(32)}"
