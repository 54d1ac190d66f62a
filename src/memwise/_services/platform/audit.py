"""The audit log: every tool call passes through ``log``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy.engine import Connection

from memwise import errors
from memwise._ids import ContactId, ConversationId, WorkspaceId, new_id
from memwise._safety import secrets
from memwise._services.platform.runtime import Runtime
from memwise._storage.stores import audit as store

RESULT_CHARS = 500
ID_CHARS = 40  # the width of every id column


class Status(StrEnum):
    read = "read"
    proposed = "proposed"
    executed = "executed"
    failed = "failed"
    refused = "refused"


@dataclass(frozen=True)
class Entry:
    id: str
    seq: int
    at: datetime
    actor: str
    tool: str
    args: dict[str, Any]
    status: Status
    result: str
    contact_id: ContactId | None
    conversation_id: ConversationId | None


def log(
    conn: Connection,
    *,
    workspace_id: WorkspaceId,
    at: datetime,
    actor: str,
    tool: str,
    args: dict[str, Any],
    status: Status | str,
    result: str,
    contact_id: ContactId | None = None,
    conversation_id: ConversationId | None = None,
) -> str:
    """Write one audit entry inside the caller's transaction."""
    entry_id = new_id("aud")
    store.insert(
        conn,
        id=entry_id,
        workspace_id=workspace_id,
        at=at,
        actor=actor[:200],
        tool=tool[:100],
        args=scrubbed(args),
        status=Status(status).value,
        result=result[:RESULT_CHARS],
        contact_id=_id(contact_id),
        conversation_id=_id(conversation_id),
    )
    return entry_id


def scrubbed(value: Any) -> Any:
    """Arguments as the log keeps them: a string holding a secret is replaced by its length
    (a refused ``remember_rule("password: …")`` must not put the password in the log)."""
    if isinstance(value, str):
        return f"[redacted: {len(value)} chars]" if secrets.find(value) else value
    if isinstance(value, dict):
        return {scrubbed(k) if isinstance(k, str) else k: scrubbed(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [scrubbed(v) for v in value]
    return value


def _id(value: str | None) -> str | None:
    """An object id as given by a caller; one too long to be an id is not one."""
    return value if value is None or len(value) <= ID_CHARS else None


def status_of(value: Status | str | None) -> Status | None:
    """An audit status from what a door was given ("refused"), or a clear error."""
    if value is None or isinstance(value, Status):
        return value
    if value not in Status.__members__:
        raise errors.Invalid(f"unknown audit status {value!r}", code="bad_status")
    return Status(value)


class Audit:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    def record(self, workspace_id: WorkspaceId, **entry: Any) -> str:
        """Log one tool call in its own transaction (for callers outside one)."""
        with self.rt.db.write() as conn:
            return log(conn, workspace_id=workspace_id, at=self.rt.clock.now(), **entry)

    def entries(
        self,
        workspace_id: WorkspaceId,
        *,
        tool: str | None = None,
        status: Status | None = None,
        contact_id: ContactId | None = None,
        before: int | None = None,
        limit: int = 50,
    ) -> list[Entry]:
        wanted = status_of(status)
        with self.rt.db.read() as conn:
            return [
                Entry(
                    id=r.id,
                    seq=r.seq,
                    at=r.at,
                    actor=r.actor,
                    tool=r.tool,
                    args=r.args,
                    status=Status(r.status),
                    result=r.result,
                    contact_id=r.contact_id,
                    conversation_id=r.conversation_id,
                )
                for r in store.entries(
                    conn,
                    workspace_id,
                    tool=tool,
                    status=wanted.value if wanted else None,
                    contact_id=contact_id,
                    before=before,
                    limit=max(1, min(limit, 500)),
                )
            ]
