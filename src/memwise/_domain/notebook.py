"""A staff user's notebook entry: plain data the store returns and the policies read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Entry:
    id: str
    text: str
    created_at: datetime
