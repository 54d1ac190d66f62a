"""Recall for one turn: a short profile always, and notes relevant to the request.

Work grows with the contact's own items only: they are read by index and scored here.
Every candidate appears in the explain trace with the reason it was or was not included.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

import numpy as np
from sqlalchemy.engine import Connection

from memwise import _observability as observability
from memwise import errors
from memwise._domain.explain import Considered
from memwise._domain.memory import (
    DURABLE_KINDS,
    Item,
    Kind,
    Served,
    Source,
    Trust,
    occurs_moment,
    render,
    render_conflict,
)
from memwise._domain.memory import Line as Line
from memwise._domain.memory import Recall as Recall
from memwise._domain.memory import RecallPart as RecallPart
from memwise._ids import ContactId, WorkspaceId
from memwise._retrieval import embedders, fusion
from memwise._services.memory.memory import Memory
from memwise._services.platform.cache import SizedLRU
from memwise._services.platform.runtime import Runtime
from memwise._storage.stores.memory_items import contact_rows, item_from_row, zone_and_version
from memwise._text import lexical

PROFILE_KEYS = ("name", "role", "preference.contact_channel", "contact_channel", "language")
RANK = {Source.stated: 0, Source.operator: 0, Source.inferred: 1}


def _is_profile(item: Item) -> bool:
    return item.kind in DURABLE_KINDS or (item.key or "").startswith(PROFILE_KEYS)


@dataclass(frozen=True)
class _Plan:
    """What a recall decides before it reads the request, for one zone, valid until the
    first moment an item's trust or temporal state changes (a task turns stale, an event
    becomes past): the profile, the rest with a BM25 index over them, and the explanation
    of what the request cannot change."""

    zone: str
    since: datetime
    until: datetime | None
    profile: list[Line]
    explain: list[Considered]
    rest: list[Served]
    index: lexical.Index
    unrelated: list[Considered]  # one per item of rest: "not relevant to the request"

    def holds(self, zone: ZoneInfo, now: datetime) -> bool:
        return (
            self.zone == zone.key and self.since <= now and (self.until is None or now < self.until)
        )


@dataclass
class _Held:
    version: tuple[int, int, int]
    items: list[Item]
    vectors: dict[str, np.ndarray]
    plan: _Plan | None = None  # replaced whole, never changed in place


class Recaller:
    def __init__(self, rt: Runtime, memory: Memory) -> None:
        self.rt = rt
        self.memory = memory
        # each contact's decoded items, until one of them changes (version, items, vectors)
        self._cache: SizedLRU[_Held] = SizedLRU(rt.limits.memory.cache_mb << 20)

    def forget(self, workspace_id: WorkspaceId, contact_id: ContactId) -> None:
        """Drop what is held about the contact (after a data request deleted them)."""
        self._cache.pop((workspace_id, contact_id))

    def _held(
        self,
        conn: Connection,
        workspace_id: WorkspaceId,
        contact_id: ContactId,
        version: tuple[int, int, int],
    ) -> _Held:
        """The contact's items (every lifecycle) and their vectors: decoded once, then reused
        while the items' version (count, newest, revisions) stays the same."""
        held = self._cache.get((workspace_id, contact_id))
        if held is not None and held.version == version:
            return held
        found_rows = contact_rows(conn, workspace_id, contact_id)
        found = [item_from_row(r) for r in found_rows]
        eid = self.memory.embedder.id if self.memory.embedder else None
        vectors = {
            r.id: embedders.from_bytes(r.embedding)
            for r in found_rows
            if eid and r.embedder == eid and r.embedding
        }
        # about the bytes held (tracemalloc: ~1.5 kB per item with one quote, and as much
        # again for its plan: served state, rendered line, postings; this errs high)
        size = sum(
            2400 + 4 * len(i.text) + sum(300 + 2 * len(e.quote) for e in i.evidence) for i in found
        ) + sum(100 + int(v.nbytes) for v in vectors.values())
        held = _Held(version, found, vectors)
        self._cache.put((workspace_id, contact_id), held, size)
        return held

    def recall(
        self,
        workspace_id: WorkspaceId,
        contact_id: ContactId,
        request: str,
        *,
        limit: int | None = None,
    ) -> Recall:
        """The contact's profile and the dated notes that matter for ``request``."""
        with (
            observability.span("memwise.recall", workspace=workspace_id),
            observability.timed(observability.RECALL_SECONDS),
        ):
            return self._recall(workspace_id, contact_id, request, limit=limit)

    def _recall(
        self,
        workspace_id: WorkspaceId,
        contact_id: ContactId,
        request: str,
        *,
        limit: int | None = None,
    ) -> Recall:
        limits = self.rt.limits.memory
        limit = limits.recall_items if limit is None else limit
        with self.rt.db.read() as conn:
            found = zone_and_version(conn, workspace_id, contact_id)
            if found is None:
                self.forget(workspace_id, contact_id)  # deleted, perhaps by another process
                raise errors.NotFound("no such contact", code="contact_not_found")
            zone = ZoneInfo(found[0])
            held = self._held(conn, workspace_id, contact_id, found[1])
        now = self.rt.clock.now()  # one moment for the whole recall
        plan = held.plan
        if plan is None or not plan.holds(zone, now):
            plan = held.plan = self._plan(held.items, zone, now)
        out = Recall(profile=list(plan.profile), explain=list(plan.explain))
        self._notes(plan, request, zone, out, limit, now, held.vectors)
        return out

    def _plan(self, found: list[Item], zone: ZoneInfo, now: datetime) -> _Plan:
        served = [self.memory.serve(i, zone, now) for i in found]
        out = Recall()
        current: list[Served] = []
        changes: list[datetime] = []
        stale_after = self.memory.stale_after
        for s in served:
            if s.trust in (Trust.superseded, Trust.archived):
                out.explain.append(Considered("notes", s.item.id, False, s.trust.value))
                continue
            current.append(s)
            item = s.item
            if item.occurs_on:  # upcoming turns past
                changes.append(occurs_moment(item.occurs_on, zone))
            elif item.kind is Kind.task:  # an open task turns stale
                changes.append(item.last_mentioned_at + stale_after)
        self._profile(current, zone, out, self.rt.limits.memory.profile_items, now)
        taken = {i for line in out.profile for i in line.ids}
        rest = [s for s in current if s.item.id not in taken]
        docs = [
            " ".join([s.item.text, s.item.key or "", *s.item.entities, s.item.occurs_phrase or ""])
            for s in rest
        ]
        return _Plan(
            zone.key,
            now,
            min((c for c in changes if c >= now), default=None),
            out.profile,
            out.explain,
            rest,
            lexical.Index(docs),
            [Considered("notes", s.item.id, False, "not relevant to the request") for s in rest],
        )

    def _profile(
        self, current: list[Served], zone: ZoneInfo, out: Recall, room: int, now: datetime
    ) -> None:
        durable = [s for s in current if _is_profile(s.item) and s.trust is not Trust.stale]
        conflicts: dict[str, list[Served]] = {}
        singles: list[Served] = []
        for s in durable:
            if s.trust is Trust.conflicted and s.item.key:
                conflicts.setdefault(s.item.key, []).append(s)
            else:
                singles.append(s)
        # stated (and operator) outrank inferred; then the most recently mentioned
        singles.sort(key=lambda s: (RANK[s.item.source], -s.item.last_mentioned_at.timestamp()))
        # Only the lines that fit are rendered; the rest are only named in the explanation.
        groups: list[tuple[list[Served], bool]] = [
            (group, True) for group in conflicts.values()
        ] + [([s], False) for s in singles]
        for n, (group, conflict) in enumerate(groups):
            included = n < room
            if included:
                first = group[0]
                text = (
                    render_conflict([s.item for s in group], zone)
                    if conflict
                    else render(first.item, now, zone, first.trust)
                )
                out.profile.append(
                    Line(
                        "profile",
                        [s.item.id for s in group],
                        text,
                        Trust.conflicted.value if conflict else first.trust.value,
                        staff_only=any(s.item.source == Source.operator for s in group),
                    )
                )
            for s in group:
                out.explain.append(
                    Considered(
                        "profile",
                        s.item.id,
                        included,
                        "profile" if included else "profile over budget",
                    )
                )

    def _notes(
        self,
        plan: _Plan,
        request: str,
        zone: ZoneInfo,
        out: Recall,
        limit: int,
        now: datetime,
        vectors: dict[str, np.ndarray] | None = None,
    ) -> None:
        """Relevant items: sharing words with the request (BM25) or close in meaning
        (cosine, when an embedder is configured), the two rankings fused."""
        rest = plan.rest
        if not rest:
            return
        relevance = plan.index.scores(request)
        if vectors and self.memory.embedder is not None:
            q = self.memory.embedder.embed([request])[0]
            sims = {i: float(v @ q) for i, v in vectors.items()}
            # fuse the two rankings; either kind of relevance admits an item
            floor = self.rt.limits.memory.min_similarity
            by_words = [rest[n].item.id for n in sorted(relevance, key=lambda n: -relevance[n])]
            by_meaning = sorted((i for i in sims if sims[i] >= floor), key=lambda i: -sims[i])
            fused = fusion.rrf([by_words, by_meaning])
            relevance = {n: fused[s.item.id] for n, s in enumerate(rest) if s.item.id in fused}
        weight = self.rt.limits.memory.past_event_weight
        relevance = {n: r for n, r in relevance.items() if r > 0}
        if relevance:
            out.explain.extend(u for n, u in enumerate(plan.unrelated) if n not in relevance)
        else:
            out.explain.extend(plan.unrelated)
        scored = []
        for n in sorted(relevance):
            s, rel = rest[n], relevance[n]
            w = weight if s.temporal == "past" else 1.0
            if s.trust is Trust.stale:
                w *= 0.5
            age_days = max(0.0, (now - s.item.last_mentioned_at).total_seconds() / 86400)
            recency = 1.0 / (1.0 + age_days / 365)
            scored.append((rel * w * (0.8 + 0.2 * recency), s))
        scored.sort(key=lambda pair: -pair[0])
        for n, (score, s) in enumerate(scored):
            if n < limit:
                text = (
                    render_conflict([s.item], zone)
                    if s.trust is Trust.conflicted
                    else render(s.item, now, zone, s.trust)
                )
                out.notes.append(
                    Line(
                        "notes",
                        [s.item.id],
                        text,
                        s.trust.value,
                        round(score, 4),
                        staff_only=s.item.source == Source.operator,
                    )
                )
                reason = "relevant" + (" (past: weighs less)" if s.temporal == "past" else "")
                out.explain.append(Considered("notes", s.item.id, True, reason))
            else:
                out.explain.append(Considered("notes", s.item.id, False, "over the recall limit"))
