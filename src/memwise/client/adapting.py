"""What the framework adapters (``memwise.client.langchain``, ``memwise.client.llama_index``)
share: the customer by id or by your own id, a message's text, a record hit's metadata."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from memwise.client import models as m


def contact_of(client: Any, contact_id: str | None, external_id: str | None) -> str | None:
    """``contact_id``, or the contact your own ``external_id`` names; None when memwise does
    not know them yet (reading never makes a contact: unknown stays unknown)."""
    if contact_id is not None:
        return contact_id
    if external_id is None:
        raise ValueError("name the customer by one of contact_id or external_id")
    found = client.find_contacts(external_id=external_id).items
    return found[0].id if found else None


def message_text(content: Any) -> str:
    """A chat message's text: the string itself, or the text parts of a list of content
    blocks (images and other parts have no text to remember)."""
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content or []:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
        elif getattr(block, "text", None) is not None:
            parts.append(str(block.text))
    return "\n".join(p for p in parts if p)


def record_lines(hits: Iterable[m.HistoryHit]) -> list[tuple[str, dict[str, Any]]]:
    """Past turns as text and metadata: who said it, when, in which conversation."""
    return [
        (
            hit.text,
            {
                "conversation_id": hit.conversation_id,
                "turn_id": hit.turn_id,
                "role": hit.role,
                "speaker": hit.speaker,
                "at": hit.at.isoformat(),
                "score": hit.score,
            },
        )
        for hit in hits
    ]
