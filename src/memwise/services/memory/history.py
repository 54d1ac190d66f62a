"""Recall over what a contact said before: the earlier turns that answer a question.

Memory items hold what was worth keeping; the record holds everything. When a question is
about something said in passing ("what was the name of the place we talked about?"), the
answer is in the record. This ranks a contact's past turns for a question with
:class:`memwise.retrieval.turns.TurnIndex` — no model at query time, an embedder if one is
configured. Each contact's index is built once and kept until their record grows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memwise import errors
from memwise.retrieval.embedders import Embedder
from memwise.retrieval.turns import TurnDoc, TurnIndex, TurnRecallConfig
from memwise.services.platform.cache import SizedLRU
from memwise.services.platform.runtime import Runtime
from memwise.storage.stores import record as record_store
from memwise.storage.stores import tenancy as tenancy_store

MAX_TURNS = 20_000  # the newest turns of one contact that recall reads


@dataclass(frozen=True)
class HistoryHit:
    turn_id: str
    conversation_id: str
    role: str
    speaker: str
    text: str
    at: datetime
    score: float


@dataclass(frozen=True)
class _Built:
    version: tuple[int, int]
    index: TurnIndex
    at: list[datetime]
    roles: list[str]


class History:
    def __init__(
        self,
        rt: Runtime,
        embedder: Embedder | None = None,
        config: TurnRecallConfig | None = None,
    ) -> None:
        self.rt = rt
        self.embedder = embedder
        self.config = config or TurnRecallConfig()
        # indexes kept in memory, least recently used first out, bounded by their size
        self._cache: SizedLRU[_Built] = SizedLRU(rt.limits.memory.cache_mb << 20)

    def recall(
        self, workspace_id: str, contact_id: str, question: str, *, k: int = 10
    ) -> list[HistoryHit]:
        """The ``k`` earlier turns of this contact that best answer ``question``."""
        built = self.prepare(workspace_id, contact_id)
        vector = None
        if self.embedder is not None and built.index.vectors is not None:
            vector = self.embedder.embed([question])[0]
        found = built.index.search(question, k=max(1, min(k, 200)), query_vector=vector)
        return [
            HistoryHit(
                turn_id=built.index.docs[i].id,
                conversation_id=built.index.docs[i].conversation_id,
                role=built.roles[i],
                speaker=built.index.docs[i].speaker,
                text=built.index.docs[i].text,
                at=built.at[i],
                score=round(score, 6),
            )
            for i, score in found
        ]

    def forget(self, workspace_id: str, contact_id: str) -> None:
        """Drop the contact's index (after a data request deleted them)."""
        self._cache.pop((workspace_id, contact_id))

    def prepare(self, workspace_id: str, contact_id: str) -> _Built:
        """Build (or reuse) the contact's index — the one-off cost of the first recall."""
        with self.rt.db.read() as conn:
            try:
                contact = tenancy_store.contact_row(conn, workspace_id, contact_id)
            except errors.NotFound:
                self.forget(workspace_id, contact_id)  # deleted, perhaps by another process
                raise
            version = record_store.history_version(conn, workspace_id, contact_id)
            cached = self._cache.get((workspace_id, contact_id))
            if cached is not None and cached.version == version:
                return cached
            names = tenancy_store.speaker_names(conn, workspace_id)
            found = record_store.history_turns(conn, workspace_id, contact_id, MAX_TURNS)
        docs = [
            TurnDoc(
                r.id,
                r.conversation_id,
                self._speaker(r, contact.name, names),
                r.text,
                r.role == "customer",
            )
            for r in found
        ]
        vectors = (
            self.embedder.embed([f"{d.speaker}: {d.text}" for d in docs])
            if self.embedder and docs
            else None
        )
        built = _Built(
            version,
            TurnIndex(docs, vectors, self.config),
            [r.at for r in found],
            [r.role for r in found],
        )
        self._cache.put((workspace_id, contact_id), built, _weight(docs, vectors))
        return built

    @staticmethod
    def _speaker(row: Any, contact: str, names: dict[str, str]) -> str:
        if row.role == "customer":
            return contact
        if row.role == "assistant":
            return names.get(str(row.agent_id), "assistant")
        if row.role == "user":
            return names.get(str(row.user_id), "user")
        return str(row.role)


def _weight(docs: list[TurnDoc], vectors: Any) -> int:
    """About how many bytes a built index holds: a fixed part (its arrays and tables), then
    each turn's text, terms and postings, and its vector. Measured with tracemalloc (36 to
    3,600 synthetic turns, and three LoCoMo conversations): ~100 kB per index plus 2.5–4 kB
    per turn; this estimate errs high (1.0–1.5 times what was measured)."""
    size = 100_000 + sum(3100 + 9 * len(d.text) for d in docs)
    return size + (int(vectors.nbytes) if vectors is not None else 0)
