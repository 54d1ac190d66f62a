"""The one JSON shape of a domain object, shared by every door (HTTP, MCP, console, CLI)."""

from __future__ import annotations

from dataclasses import asdict, is_dataclass
from datetime import datetime
from enum import Enum
from typing import Any

from memwise._domain.memory import Served


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


def served(s: Served) -> dict[str, Any]:
    """A memory item as the doors show it: the item, its trust and whether it is current."""
    i = s.item
    return {
        "id": i.id,
        "kind": i.kind.value,
        "scope": i.scope.value,
        "text": i.text,
        "key": i.key,
        "source": i.source.value,
        "trust": s.trust.value,
        "temporal": s.temporal,
        "evidence": [{"turn_id": e.turn_id, "quote": e.quote} for e in i.evidence],
        "recorded_at": i.recorded_at.isoformat(),
        "last_mentioned_at": i.last_mentioned_at.isoformat(),
        "occurs_on": i.occurs_on,
        "occurs_phrase": i.occurs_phrase,
        "lifecycle": i.lifecycle.value,
        "superseded_by": i.superseded_by,
        "superseded_at": i.superseded_at.isoformat() if i.superseded_at else None,
        "superseded_why": i.superseded_why,
        "edited": i.edited,
        "entities": i.entities,
        "conversation_id": i.conversation_id,
        "extractor": i.extractor,
        "contact_id": i.contact_id,
        "summary": i.labels.get("summary") if i.kind.value == "summary" else None,
    }
