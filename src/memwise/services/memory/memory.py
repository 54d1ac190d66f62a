"""Contact memory: writing (with supersession and conflicts), editing, archiving, listing."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise import errors
from memwise.domain.memory import (
    Evidence,
    Item,
    Kind,
    Lifecycle,
    Scope,
    Served,
    Source,
    Trust,
    Written,
    check_key,
    check_occurs_on,
    occurs_moment,
    supersession,
    temporal,
    trust,
)
from memwise.extraction import harness
from memwise.extraction.types import Line
from memwise.ids import new_id
from memwise.policies.notebook import normalize
from memwise.retrieval import embedders
from memwise.retrieval.embedders import Embedder
from memwise.safety import guards
from memwise.services.platform import events, rows
from memwise.services.platform.runtime import Runtime
from memwise.storage.schema import contacts, conversations, memory_items, turns, workspaces

MAX_TEXT = 500


@dataclass(frozen=True)
class NewItem:
    kind: str
    text: str
    source: str = "stated"
    scope: str = "contact"
    key: str | None = None
    evidence: Sequence[Evidence] = ()
    occurs_on: str | date | datetime | None = None
    occurs_phrase: str | None = None
    conversation_id: str | None = None
    entities: Sequence[str] = ()
    labels: dict[str, Any] = field(default_factory=dict)
    extractor: str | None = None
    prompt_version: str | None = None


def item_from_row(r: Any) -> Item:
    return Item(
        id=r.id,
        workspace_id=r.workspace_id,
        contact_id=r.contact_id,
        kind=Kind(r.kind),
        scope=Scope(r.scope),
        text=r.text,
        key=r.key,
        source=Source(r.source),
        evidence=[
            Evidence(
                e["turn_id"], e["quote"], datetime.fromisoformat(e["at"]) if e.get("at") else None
            )
            for e in r.evidence
        ],
        recorded_at=r.recorded_at,
        last_mentioned_at=r.last_mentioned_at,
        occurs_on=r.occurs_on,
        lifecycle=Lifecycle(r.lifecycle),
        conflicted=r.conflicted,
        superseded_by=r.superseded_by,
        superseded_at=r.superseded_at,
        superseded_why=r.superseded_why,
        edited=r.edited,
        conversation_id=r.conversation_id,
        entities=list(r.entities or []),
        occurs_phrase=r.occurs_phrase,
        extractor=r.extractor,
        prompt_version=r.prompt_version,
        labels=dict(r.labels or {}),
    )


def _evidence_json(evidence: Iterable[Evidence]) -> list[dict[str, Any]]:
    return [
        {"turn_id": e.turn_id, "quote": e.quote, "at": e.at.isoformat() if e.at else None}
        for e in evidence
    ]


def check_text(text: str, key: str | None, *, by_staff: bool = False) -> str:
    """The write boundary for an item's text: bounded, and not of a forbidden class."""
    cleaned = " ".join(str(text or "").split())
    if not cleaned:
        raise errors.Invalid("a memory item needs text", code="empty_text")
    if len(cleaned) > MAX_TEXT:
        raise errors.Invalid(f"a memory item is limited to {MAX_TEXT} characters", code="too_long")
    guards.check_memory_text(cleaned, key, by_staff=by_staff)
    return cleaned


def contact_rows(conn: Connection, workspace_id: str, contact_id: str) -> list[Any]:
    """Every item row of one contact, oldest first: read by the contact index, sorted here.

    (Asking the database to ORDER BY seq lets SQLite's planner walk the whole table in
    primary-key order instead of using the contact index.)
    """
    found = conn.execute(
        sa.select(memory_items).where(
            memory_items.c.workspace_id == workspace_id, memory_items.c.contact_id == contact_id
        )
    )
    return sorted(found, key=lambda r: r.seq)


class Memory:
    def __init__(self, rt: Runtime, embedder: Embedder | None = None) -> None:
        self.rt = rt
        self.embedder = embedder

    def _embed(self, conn: Connection, item_id: str, text: str) -> None:
        """Keep the item's vector (for hybrid recall) when an embedder is configured."""
        if self.embedder is None:
            return
        vector = self.embedder.embed([text])[0]
        conn.execute(
            memory_items.update()
            .where(memory_items.c.id == item_id)
            .values(embedder=self.embedder.id, embedding=embedders.to_bytes(vector))
        )

    @property
    def stale_after(self) -> timedelta:
        return timedelta(days=self.rt.limits.memory.task_stale_days)

    def zone(self, conn: Connection, workspace_id: str) -> ZoneInfo:
        tz = conn.execute(
            sa.select(workspaces.c.timezone).where(workspaces.c.id == workspace_id)
        ).scalar_one()
        return ZoneInfo(tz)

    # -- writing -------------------------------------------------------------------------
    def write(self, workspace_id: str, contact_id: str | None, new: NewItem) -> Written:
        """Write one item. Inside a unit of work (``db.write()``, as the extraction apply step
        opens) it joins it under a savepoint: a refused item leaves nothing behind."""
        with self.rt.db.write() as conn:
            return self._write(conn, workspace_id, contact_id, new)

    def _write(
        self, conn: Connection, workspace_id: str, contact_id: str | None, new: NewItem
    ) -> Written:
        kind = rows.enum_value(Kind, new.kind, "kind")
        scope = rows.enum_value(Scope, new.scope, "scope")
        source = rows.enum_value(Source, new.source, "source")
        key = check_key(new.key)
        text = check_text(new.text, key, by_staff=new.source == Source.operator.value)
        occurs_on = check_occurs_on(new.occurs_on)
        if scope is Scope.workspace:
            if contact_id is not None:
                raise errors.Invalid("a workspace item belongs to no contact", code="invalid_scope")
        else:
            rows.require(conn, contacts, workspace_id, contact_id or "", "contact")
        if scope is Scope.session and not new.conversation_id:
            raise errors.Invalid("a session item needs its conversation", code="invalid_scope")
        evidence = self._check_evidence(conn, workspace_id, contact_id, source, new.evidence)
        now = self.rt.clock.now()
        said_at = max((e.at for e in evidence if e.at), default=now)
        zone = self.zone(conn, workspace_id)
        norm = normalize(text)
        candidate = Item(
            id=new_id("mem"),
            workspace_id=workspace_id,
            contact_id=contact_id,
            kind=kind,
            scope=scope,
            text=text,
            key=key,
            source=source,
            evidence=evidence,
            recorded_at=now,
            last_mentioned_at=said_at,
            occurs_on=occurs_on,
            lifecycle=Lifecycle.active,
            conversation_id=new.conversation_id,
            entities=[" ".join(e.split()) for e in new.entities if e and e.strip()][:20],
            occurs_phrase=(new.occurs_phrase or None) and new.occurs_phrase[:200],
            extractor=new.extractor,
            prompt_version=new.prompt_version,
            labels=dict(new.labels),
        )
        # The supersession decision is serialised per (contact, key): two writers of one key
        # take turns, so the second sees the first and supersedes or conflicts with it.
        self.rt.db.backend.serialize(conn, f"memory:{workspace_id}:{contact_id}:{key or norm}")
        same = self._active(conn, workspace_id, contact_id, key, norm)
        repeat = next((r for r in same if r.normalized == norm), None)
        if repeat is not None:
            return self._repeat(conn, repeat, evidence, said_at)
        rivals = [r for r in same if key and r.key == key]
        verdicts = [(old, self._order(old, candidate, said_at)) for old in rivals]
        skipped = next((old for old, v in verdicts if v == "skip"), None)
        if skipped is not None:  # decided before anything is written: no dangling marks
            return Written(item_from_row(skipped), "skipped", [skipped.id])
        action, affected, superseded_by = "created", [], None
        for old, verdict in verdicts:
            if verdict == "supersede_old":
                why = f"replaced by a newer statement of {said_at.astimezone(zone):%d %b %Y}"
                if old.source == Source.inferred and source is not Source.inferred:
                    why = (
                        "the customer stated it"
                        if source is Source.stated
                        else "an operator set it"
                    )
                self._supersede(conn, old.id, candidate.id, now, why)
                action = "superseded"
                affected.append(old.id)
            elif verdict == "older":
                superseded_by = old.id
                action = "history"
                affected.append(old.id)
            else:
                action = "conflicted"
                affected.append(old.id)
        self._insert(conn, candidate, norm, zone, superseded_by, now)
        self._embed(conn, candidate.id, text)
        self._settle_conflicts(conn, workspace_id, contact_id, key)
        stored = self._get(conn, workspace_id, candidate.id)
        if action in ("created", "superseded", "conflicted"):
            events.emit_in(
                conn,
                workspace_id,
                "memory.superseded" if action == "superseded" else "memory.created",
                {
                    "item_id": candidate.id,
                    "contact_id": contact_id,
                    "kind": kind.value,
                    "key": key,
                    "text": text,
                    "supersedes": affected if action == "superseded" else [],
                    "conflicted": action == "conflicted",
                },
                now,
            )
        return Written(stored, action, affected)

    def _check_evidence(
        self,
        conn: Connection,
        workspace_id: str,
        contact_id: str | None,
        source: Source,
        evidence: Sequence[Evidence],
    ) -> list[Evidence]:
        """Quotes must come from this contact's own (customer) turns; stated items need one."""
        if source is Source.stated and not evidence:
            raise errors.Invalid(
                "a stated item needs a quote from the customer's own words",
                code="evidence_required",
            )
        checked = []
        for e in evidence:
            row = conn.execute(
                sa.select(turns.c.role, turns.c.at, turns.c.text, conversations.c.contact_id)
                .join(conversations, conversations.c.id == turns.c.conversation_id)
                .where(turns.c.id == e.turn_id, turns.c.workspace_id == workspace_id)
            ).first()
            if row is None or row.contact_id != contact_id:
                raise errors.Invalid(
                    "evidence must quote a turn of this contact's conversations",
                    code="evidence_not_found",
                )
            if row.role != "customer":
                raise errors.Refused(
                    "only the customer's own words count as evidence", code="evidence_not_customer"
                )
            quote = " ".join(str(e.quote or "").split())[:500]
            if not quote:
                raise errors.Invalid("evidence needs a quote", code="evidence_required")
            line = Line(e.turn_id, "customer", row.text or "", row.at)
            found = harness.QuoteChecker([line]).find(quote, min_words=1)
            if row.text is None or found is None:
                raise errors.Refused(
                    "a quote must be the customer's own words in the turn it cites",
                    code="quote_not_in_turn",
                )
            checked.append(Evidence(e.turn_id, quote, row.at))
        return checked

    @staticmethod
    def _order(old: Any, new: Item, said_at: datetime) -> str:
        """How a new value relates to an active one with the same key (the domain's rule)."""
        old_turns = {e["turn_id"] for e in old.evidence}
        return supersession(Source(old.source), old_turns, old.last_mentioned_at, new, said_at)

    def _active(
        self, conn: Connection, ws: str, contact_id: str | None, key: str | None, norm: str
    ) -> list[Any]:
        where = [
            memory_items.c.workspace_id == ws,
            memory_items.c.lifecycle == Lifecycle.active.value,
            memory_items.c.contact_id == contact_id
            if contact_id
            else memory_items.c.contact_id.is_(None),
        ]
        match = memory_items.c.normalized == norm
        if key:
            match = sa.or_(match, memory_items.c.key == key)
        return list(conn.execute(sa.select(memory_items).where(*where, match)).all())

    def _repeat(
        self, conn: Connection, row: Any, evidence: list[Evidence], at: datetime
    ) -> Written:
        known = {(e["turn_id"], e["quote"]) for e in row.evidence}
        merged = list(row.evidence) + [
            e for e in _evidence_json(evidence) if (e["turn_id"], e["quote"]) not in known
        ]
        conn.execute(
            memory_items.update()
            .where(memory_items.c.id == row.id)
            .values(last_mentioned_at=max(at, row.last_mentioned_at), evidence=merged[-20:])
        )
        return Written(self._get(conn, row.workspace_id, row.id), "repeated", [row.id])

    def _insert(
        self,
        conn: Connection,
        item: Item,
        norm: str,
        zone: ZoneInfo,
        superseded_by: str | None,
        now: datetime,
    ) -> None:
        conn.execute(
            memory_items.insert().values(
                id=item.id,
                workspace_id=item.workspace_id,
                contact_id=item.contact_id,
                conversation_id=item.conversation_id,
                kind=item.kind.value,
                scope=item.scope.value,
                text=item.text,
                normalized=norm,
                key=item.key,
                source=item.source.value,
                evidence=_evidence_json(item.evidence),
                entities=item.entities,
                labels=item.labels,
                recorded_at=item.recorded_at,
                last_mentioned_at=item.last_mentioned_at,
                occurs_on=item.occurs_on,
                occurs_at=occurs_moment(item.occurs_on, zone) if item.occurs_on else None,
                occurs_phrase=item.occurs_phrase,
                lifecycle=(Lifecycle.superseded if superseded_by else Lifecycle.active).value,
                conflicted=False,
                superseded_by=superseded_by,
                superseded_at=now if superseded_by else None,
                superseded_why="an older statement, recorded after a newer one"
                if superseded_by
                else None,
                edited=False,
                extractor=item.extractor,
                prompt_version=item.prompt_version,
            )
        )

    @staticmethod
    def _supersede(conn: Connection, old_id: str, new_id_: str, now: datetime, why: str) -> None:
        conn.execute(
            memory_items.update()
            .where(memory_items.c.id == old_id)
            .values(
                lifecycle=Lifecycle.superseded.value,
                superseded_by=new_id_,
                superseded_at=now,
                superseded_why=why[:300],
                conflicted=False,
            )
        )

    @staticmethod
    def _settle_conflicts(
        conn: Connection, ws: str, contact_id: str | None, key: str | None
    ) -> None:
        """Active items sharing a key are conflicted exactly when there is more than one."""
        if not key:
            return
        scope = (
            memory_items.c.contact_id == contact_id
            if contact_id
            else (memory_items.c.contact_id.is_(None))
        )
        live = sa.and_(
            memory_items.c.workspace_id == ws,
            scope,
            memory_items.c.key == key,
            memory_items.c.lifecycle == Lifecycle.active.value,
        )
        count = conn.execute(sa.select(sa.func.count()).where(live)).scalar_one()
        conn.execute(memory_items.update().where(live).values(conflicted=count > 1))

    # -- reading -------------------------------------------------------------------------
    def _get(self, conn: Connection, workspace_id: str, item_id: str) -> Item:
        return item_from_row(rows.require(conn, memory_items, workspace_id, item_id, "memory_item"))

    def get(self, workspace_id: str, item_id: str) -> Served:
        with self.rt.db.read() as conn:
            item = self._get(conn, workspace_id, item_id)
            zone = self.zone(conn, workspace_id)
        return self.serve(item, zone)

    def serve(self, item: Item, zone: ZoneInfo) -> Served:
        now = self.rt.clock.now()
        return Served(item, trust(item, now, self.stale_after), temporal(item, now, zone))

    def items(
        self,
        workspace_id: str,
        contact_id: str,
        *,
        include: Iterable[str] = (),
        kind: str | None = None,
        trust_filter: str | None = None,
    ) -> list[Served]:
        lifecycles = {Lifecycle.active.value} | {
            rows.enum_value(Lifecycle, i, "include").value for i in include
        }
        if kind is not None:
            rows.enum_value(Kind, kind, "kind")
        if trust_filter is not None:
            rows.enum_value(Trust, trust_filter, "trust")
        with self.rt.db.read() as conn:
            rows.require(conn, contacts, workspace_id, contact_id, "contact")
            zone = self.zone(conn, workspace_id)
            q = sa.select(memory_items).where(
                memory_items.c.workspace_id == workspace_id,
                memory_items.c.contact_id == contact_id,
                memory_items.c.lifecycle.in_(lifecycles),
            )
            if kind:
                q = q.where(memory_items.c.kind == kind)
            found = [item_from_row(r) for r in sorted(conn.execute(q), key=lambda r: r.seq)]
        served = [self.serve(i, zone) for i in found]
        return [s for s in served if trust_filter is None or s.trust == trust_filter]

    # -- operator operations -------------------------------------------------------------
    def edit(
        self,
        workspace_id: str,
        item_id: str,
        *,
        text: str | None = None,
        occurs_on: Any = ...,
        actor: str = "operator",
    ) -> Served:
        """Change the text and/or occurs_on (None clears it); marks the item edited."""
        with self.rt.db.write() as conn:
            row = rows.require(conn, memory_items, workspace_id, item_id, "memory_item")
            if row.lifecycle != Lifecycle.active.value:
                raise errors.Conflict("only an active item can be edited", code="not_active")
            values: dict[str, Any] = {"edited": True}
            if text is not None:
                cleaned = check_text(text, row.key, by_staff=True)
                values.update(text=cleaned, normalized=normalize(cleaned))
                self._embed(conn, item_id, cleaned)
            if occurs_on is not ...:
                iso = check_occurs_on(occurs_on)
                zone = self.zone(conn, workspace_id)
                values.update(occurs_on=iso, occurs_at=occurs_moment(iso, zone) if iso else None)
            conn.execute(memory_items.update().where(memory_items.c.id == item_id).values(**values))
        return self.get(workspace_id, item_id)

    def archive(self, workspace_id: str, item_id: str) -> Served:
        """Archive (never delete). Idempotent."""
        with self.rt.db.write() as conn:
            row = rows.require(conn, memory_items, workspace_id, item_id, "memory_item")
            if row.lifecycle == Lifecycle.active.value:
                conn.execute(
                    memory_items.update()
                    .where(memory_items.c.id == item_id)
                    .values(
                        lifecycle=Lifecycle.archived.value,
                        archived_at=self.rt.clock.now(),
                        conflicted=False,
                    )
                )
                self._settle_conflicts(conn, workspace_id, row.contact_id, row.key)
                events.emit_in(
                    conn,
                    workspace_id,
                    "memory.archived",
                    {"item_id": item_id, "contact_id": row.contact_id, "key": row.key},
                    self.rt.clock.now(),
                )
        return self.get(workspace_id, item_id)

    def relations(self, workspace_id: str, contact_id: str) -> dict[str, Any]:
        """A graph: items and entities as nodes; supersedes, same key, mentions as edges."""
        served = self.items(workspace_id, contact_id, include=("superseded", "archived"))
        nodes: list[dict[str, Any]] = []
        edges: list[dict[str, str]] = []
        by_key: dict[str, list[str]] = {}
        entities: dict[str, str] = {}
        for s in served:
            i = s.item
            nodes.append(
                {
                    "id": i.id,
                    "type": "item",
                    "kind": i.kind.value,
                    "label": i.text,
                    "trust": s.trust.value,
                }
            )
            if i.superseded_by:
                edges.append({"from": i.superseded_by, "to": i.id, "type": "supersedes"})
            if i.key:
                by_key.setdefault(i.key, []).append(i.id)
            for name in i.entities:
                ent = entities.setdefault(name.casefold(), f"ent:{len(entities) + 1}")
                if not any(n["id"] == ent for n in nodes):
                    nodes.append(
                        {
                            "id": ent,
                            "type": "entity",
                            "kind": "entity",
                            "label": name,
                            "trust": None,
                        }
                    )
                edges.append({"from": i.id, "to": ent, "type": "mentions"})
        for key, ids in by_key.items():
            edges += [
                {"from": a, "to": b, "type": "same_key", "key": key}
                for a, b in itertools.pairwise(ids)
            ]
        return {"nodes": nodes, "edges": edges}
