"""Whether a conversation may become memory, and queueing it when it closes.

Memory runs only when all three hold: the workspace plan includes memory, the agent has
memory enabled, and the conversation is not excluded (a Telegram /reset starts an excluded,
clean conversation).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection

from memwise._domain.tenancy import Plan
from memwise._ids import ConversationId, WorkspaceId
from memwise._services.platform.bus import ConversationClosed
from memwise._storage.stores.jobs import insert_once
from memwise._storage.stores.record import memory_gate

EXTRACT = "extract"


def blocked(
    conn: Connection,
    workspace_id: WorkspaceId,
    conversation_id: ConversationId,
    *,
    metered: bool = True,
) -> str | None:
    """Why this conversation may not become memory, or None when it may. ``metered``: plans
    apply (a hosted operator's ``MEMWISE_METERING``); self-hosted, they do not."""
    row = memory_gate(conn, workspace_id, conversation_id)
    if row is None:
        return "the conversation no longer exists"
    if metered and not Plan(row.plan).includes_memory:
        return f"the {row.plan} plan does not include memory"
    if not row.memory_enabled:
        return "the agent has memory turned off"
    if row.excluded_from_memory:
        return "the conversation is excluded from memory"
    if row.contact_id is None:
        return "staff conversations never become contact memory"
    return None


def queue_extraction_in(
    conn: Connection,
    workspace_id: WorkspaceId,
    conversation_id: ConversationId,
    now: datetime,
    *,
    rebuild: str | None = None,
) -> str | None:
    """Queue this conversation's extraction when the gates allow; idempotent per conversation."""
    if blocked(conn, workspace_id, conversation_id, metered=False):  # the job checks plans
        return None
    key = f"{EXTRACT}:{conversation_id}" + (f":rebuild:{rebuild}" if rebuild else "")
    payload: dict[str, Any] = {"conversation_id": conversation_id}
    if rebuild:
        payload["rebuild_id"] = rebuild
    job_id, _ = insert_once(conn, workspace_id, EXTRACT, key, payload, now)
    return job_id


def on_conversation_closed(conn: Connection, event: ConversationClosed) -> None:
    """A closed conversation's extraction is queued (when the gates allow)."""
    queue_extraction_in(conn, event.workspace_id, event.conversation_id, event.at)
