"""Rebuilding a contact's memory: estimate first, then archive and re-read every conversation.

Old items are archived (never deleted); past conversations are queued again, one job each;
progress is the share of those jobs done. A second request while one runs changes nothing
and costs nothing. The cost is one interaction per conversation, and a rebuild that would
exceed the remaining monthly allowance is refused before anything happens.
"""

from __future__ import annotations

from dataclasses import dataclass
from zoneinfo import ZoneInfo

from sqlalchemy.engine import Connection

from memwise import errors
from memwise._domain.access import Principal, require_staff
from memwise._domain.tenancy import Role
from memwise._ids import ContactId, ConversationId, WorkspaceId, new_id
from memwise._services.memory import gates
from memwise._services.memory.extraction import Metering, month_of
from memwise._services.platform.runtime import Runtime
from memwise._storage.stores import jobs as job_store
from memwise._storage.stores import memory_items as item_store
from memwise._storage.stores import record as record_store
from memwise._storage.stores import tenancy as tenancy_store


@dataclass(frozen=True)
class Estimate:
    conversations: int
    cost: int
    remaining: int
    allowed: bool
    reason: str | None


@dataclass(frozen=True)
class Progress:
    rebuild_id: str | None
    total: int
    done: int
    failed: int
    running: bool


class Rebuilds:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        self.metering = Metering(rt)

    def _eligible(
        self, conn: Connection, ws: WorkspaceId, contact_id: ContactId
    ) -> list[ConversationId]:
        ids = record_store.ended_conversations(conn, ws, contact_id)
        return [c for c in ids if gates.blocked(conn, ws, c, metered=self.rt.metering) is None]

    def estimate(self, workspace_id: WorkspaceId, contact_id: ContactId) -> Estimate:
        with self.rt.db.read() as conn:
            tenancy_store.contact_row(conn, workspace_id, contact_id)
            eligible = self._eligible(conn, workspace_id, contact_id)
            ws = tenancy_store.workspace(conn, workspace_id)
            used = self.metering.used(
                conn, workspace_id, month_of(self.rt.clock.now(), ZoneInfo(ws.timezone))
            )
        remaining = max(0, ws.monthly_allowance - used)
        cost = len(eligible)
        reason = None
        if cost > remaining and self.rt.metering:
            reason = (
                f"re-reading {cost} conversations costs {cost} interactions; "
                f"{remaining} remain this month"
            )
        return Estimate(cost, cost, remaining, reason is None, reason)

    def start(
        self, workspace_id: WorkspaceId, contact_id: ContactId, *, by: Principal | None = None
    ) -> Progress:
        """Start a rebuild, or return the one already running (which costs nothing more)."""
        require_staff(by, Role.admin)  # the rule holds for every door
        current = self.progress(workspace_id, contact_id)
        if current.running:
            return current
        estimate = self.estimate(workspace_id, contact_id)
        if not estimate.allowed:
            raise errors.LimitExceeded(
                estimate.reason,
                code="allowance_exceeded",
                cost=estimate.cost,
                remaining=estimate.remaining,
            )
        rebuild_id = new_id("rb")
        now = self.rt.clock.now()
        with self.rt.db.write() as conn:
            item_store.archive_extracted(conn, workspace_id, contact_id, now)
            for conv in self._eligible(conn, workspace_id, contact_id):
                gates.queue_extraction_in(
                    conn, workspace_id, conv, now, rebuild=f"{contact_id}:{rebuild_id}"
                )
        return self.progress(workspace_id, contact_id)

    def progress(self, workspace_id: WorkspaceId, contact_id: ContactId) -> Progress:
        """The latest rebuild of this contact: how many conversations are re-read so far."""
        pattern = f"{gates.EXTRACT}:%:rebuild:{contact_id}:%"
        with self.rt.db.read() as conn:
            tenancy_store.contact_row(conn, workspace_id, contact_id)
            found = job_store.keys_like(conn, workspace_id, pattern)
        if not found:
            return Progress(None, 0, 0, 0, False)
        latest = found[0].idempotency_key.rsplit(":", 1)[1]
        mine = [r.status for r in found if r.idempotency_key.endswith(f":{latest}")]
        done = sum(s == "done" for s in mine)
        failed = sum(s == "failed" for s in mine)
        return Progress(latest, len(mine), done, failed, done + failed < len(mine))
