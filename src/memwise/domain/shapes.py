"""The one JSON shape of a domain object, shared by every door (HTTP, MCP, console, CLI)."""

from __future__ import annotations

from dataclasses import asdict, is_dataclass
from datetime import datetime
from enum import Enum
from typing import Any


def out(obj: Any, **extra: Any) -> dict[str, Any]:
    """A dataclass as a JSON-ready dict (enums as values, datetimes as ISO 8601)."""
    data = asdict(obj) if is_dataclass(obj) and not isinstance(obj, type) else dict(obj)
    data.update(extra)
    return {k: plain(v) for k, v in data.items()}


def plain(v: Any) -> Any:
    if isinstance(v, Enum):
        return v.value
    if isinstance(v, datetime):
        return v.isoformat()
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [plain(x) for x in v]
    return v
