"""Patterns: preferences counted from repeated behaviour, never from anything said.

A label value seen at least 3 times on a contact's events shows on the patterns view.
Seen 3+ times across at least 2 conversations, a scheduled job (no model, no metering)
promotes it to an inferred preference whose sentence keeps the arithmetic:
"Repeatedly chooses Marina Bay Sands for hotel (3 of 4 bookings)."

Decisions stick: an operator's wording survives recounts (only the numbers update), an
archived pattern is never recreated, a stated preference takes over (same key), and an
agent with memory off never gains a pattern.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.engine import Connection

from memwise import errors
from memwise._domain.record import client_time
from memwise._domain.tenancy import Plan
from memwise._ids import ContactId, ConversationId, WorkspaceId
from memwise._policies.notebook import normalize
from memwise._safety import secrets
from memwise._services.memory.extraction import record_event_in
from memwise._services.memory.memory import Memory, NewItem
from memwise._services.platform import rows
from memwise._services.platform.runtime import Runtime
from memwise._storage.stores import contact_events as store
from memwise._storage.stores import memory_items as item_store
from memwise._storage.stores.jobs import insert_once

PROMOTE = "promote_patterns"


@dataclass(frozen=True)
class Pattern:
    label: str
    value: str
    count: int
    conversations: int
    promoted: bool
    event_type: str
    total: int  # events of that type carrying this label


def sentence(p: Pattern) -> str:
    plural = p.event_type if p.total == 1 else f"{p.event_type}s"
    return (
        f"Repeatedly chooses {p.value} for {p.label.replace('_', ' ')} "
        f"({p.count} of {p.total} {plural})."
    )


class Patterns:
    def __init__(self, rt: Runtime, memory: Memory) -> None:
        self.rt = rt
        self.memory = memory

    def record_event(
        self,
        workspace_id: WorkspaceId,
        contact_id: ContactId,
        type_: str,
        labels: dict[str, str],
        *,
        at: datetime | None = None,
        conversation_id: ConversationId | None = None,
        source: str = "api",
    ) -> str:
        """Record one structured event (a booking, an order …) for a contact."""
        if not type_ or not type_.replace("_", "").isalnum() or len(type_) > 60:
            raise errors.Invalid("an event type is one word, e.g. 'booking'", code="invalid_type")
        for label, value in labels.items():
            if secrets.find(f"{label} {value}"):
                raise errors.Refused(
                    f"the label {str(label)[:60]!r} holds a secret: events are counted into "
                    "memory, which never keeps one",
                    code="secret_in_label",
                )
        with self.rt.db.write() as conn:
            rows.require(conn, "contact", workspace_id, contact_id)
            if conversation_id is not None:
                rows.require(conn, "conversation", workspace_id, conversation_id)
            now = self.rt.clock.now()
            when = client_time(at, now, self.rt.limits.clients.clock_skew_s, trusted=True)
            return record_event_in(
                conn,
                workspace_id,
                contact_id,
                conversation_id,
                type_,
                labels,
                when,
                source,
                now,
            )

    def view(
        self, workspace_id: WorkspaceId, contact_id: ContactId
    ) -> tuple[list[Pattern], str | None]:
        """Every label value seen at least 3 times, with counts; or empty and why."""
        limits = self.rt.limits.patterns
        with self.rt.db.read() as conn:
            rows.require(conn, "contact", workspace_id, contact_id)
            if not store.analysed(conn, workspace_id):
                return [], (
                    "business intelligence is off for every agent, so no events are counted"
                )
            found = store.label_counts(conn, workspace_id, contact_id, limits.shown_at)
            promoted = {
                (lbl.get("label"), lbl.get("value"))
                for (lbl,) in (
                    (r.labels.get("pattern") or {},)
                    for r in store.pattern_items(conn, workspace_id, contact_id)
                    if r.lifecycle == "active"
                )
            }
        return [
            Pattern(
                r.label,
                r.value,
                r.n,
                r.convs,
                (r.label, r.value) in promoted,
                r.event_type,
                r.total,
            )
            for r in found
        ], None

    def eligible(self, conn: Connection) -> list[WorkspaceId]:
        """Workspaces whose plan includes memory, with an agent that has memory and BI on."""
        return [
            WorkspaceId(ws)
            for ws, plan in store.workspaces_analysed(conn)
            if Plan(plan).includes_memory or not self.rt.metering
        ]

    def _promote(self, conn: Connection, workspace_id: WorkspaceId) -> dict[str, int]:
        """Promote what qualifies in one workspace, inside the caller's transaction."""
        limits = self.rt.limits.patterns
        counts = {"promoted": 0, "updated": 0, "kept_wording": 0, "skipped": 0, "refused": 0}
        if workspace_id not in self.eligible(conn):
            return counts  # memory off (plan or agent): no pattern is ever gained
        found = store.label_counts(conn, workspace_id, None, limits.promoted_at)
        best: dict[tuple[str, str], Any] = {}
        for r in found:  # the most frequent value per contact and label
            if r.convs >= limits.promoted_conversations:
                best.setdefault((r.contact_id, r.label), r)
        known: dict[tuple[Any, Any, Any], list[Any]] = {}
        for row in store.pattern_items(conn, workspace_id):  # every pattern item, once
            mark = row.labels.get("pattern") or {}
            known.setdefault((row.contact_id, mark.get("label"), mark.get("value")), []).append(row)
        for (contact_id, label), r in best.items():
            p = Pattern(label, r.value, r.n, r.convs, True, r.event_type, r.total)
            mine = known.get((contact_id, label, r.value), [])
            counts[self._promote_one(conn, workspace_id, ContactId(contact_id), p, mine)] += 1
        return counts

    def promote(self, workspace_id: WorkspaceId) -> dict[str, int]:
        """Promote the workspace's patterns; joins an open unit of work."""
        with self.rt.db.write() as conn:
            return self._promote(conn, workspace_id)

    def schedule(self, force: bool = False, workspace_id: WorkspaceId | None = None) -> int:
        """Queue the promotion for every eligible workspace.

        Normally the most recent nightly slot (02:00 UTC), once per night, so any worker run
        after that hour does it; ``force`` queues a run due now (as if its time had come).
        """
        now = self.rt.clock.now()
        slot = last_run(now)
        queued = 0
        with self.rt.db.write() as conn:
            for ws in self.eligible(conn):
                if workspace_id and ws != workspace_id:
                    continue
                period = f"forced:{now.isoformat()}" if force else f"{slot:%Y-%m-%d}"
                _, created = insert_once(
                    conn,
                    ws,
                    PROMOTE,
                    f"{PROMOTE}:{ws}:{period}",
                    {},
                    now,
                    run_after=now if force else slot,
                    max_attempts=3,
                )
                queued += created
        return queued

    def _promote_one(
        self, conn: Connection, ws: WorkspaceId, contact_id: ContactId, p: Pattern, mine: list[Any]
    ) -> str:
        key = f"preference.{p.label}"
        if any(r.lifecycle == "archived" for r in mine):
            return "skipped"  # an operator archived it: never recreated
        numbers = {
            "label": p.label,
            "value": p.value,
            "count": p.count,
            "total": p.total,
            "conversations": p.conversations,
            "event_type": p.event_type,
        }
        live = next((r for r in mine if r.lifecycle == "active"), None)
        if live is not None:
            values: dict[str, Any] = {
                "labels": {"pattern": numbers},
                "last_mentioned_at": self.rt.clock.now(),
            }
            if not live.edited:
                values["text"] = sentence(p)
                values["normalized"] = normalize(sentence(p))
            item_store.update(conn, live.id, **values)
            return "updated" if not live.edited else "kept_wording"
        if any(r.lifecycle == "superseded" for r in mine):
            return "skipped"  # the customer stated it since: the stated item took over
        try:
            written = self.memory.write(
                ws,
                contact_id,
                NewItem(
                    kind="pattern",
                    text=sentence(p),
                    key=key,
                    source="inferred",
                    labels={"pattern": numbers},
                    entities=[p.value],
                    extractor="patterns",
                    prompt_version="count-1",
                ),
            )
        except errors.Invalid:  # refused at the write boundary: counted; the others go on
            return "refused"
        return "promoted" if written.action != "skipped" else "skipped"


def last_run(now: datetime, hour: int = 2) -> datetime:
    """The most recent nightly slot at or before ``now`` (02:00 UTC by default)."""
    today = now.astimezone(UTC).replace(hour=hour, minute=0, second=0, microsecond=0)
    return today if today <= now else today - timedelta(days=1)
