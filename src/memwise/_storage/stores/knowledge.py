"""Knowledge's SQL: document versions and their receipts, exact identifiers, and the chunks
search reads (lexical candidates come from the backend, vectors from here or pgvector)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._domain.knowledge import Document, DocumentReceipt, DocumentStatus
from memwise._ids import WorkspaceId
from memwise._storage.schema import (
    document_receipts,
    knowledge_chunks,
    knowledge_documents,
    knowledge_identifiers,
)
from memwise._storage.stores import lacking_vectors
from memwise._text import scripts


def document_from_row(r: Any) -> Document:
    return Document(
        r.id,
        r.doc_key,
        r.kind,
        r.title,
        r.body,
        r.source_url,
        r.version,
        list(r.identifiers or []),
        DocumentStatus(r.status),
        r.superseded_by,
        r.created_at,
    )


def insert_document(conn: Connection, **values: Any) -> None:
    conn.execute(knowledge_documents.insert().values(**values))


def version_taken(
    conn: Connection, workspace_id: WorkspaceId, doc_key: str, version: str
) -> str | None:
    """The status of this version if it is current or waiting for approval."""
    taken: str | None = conn.execute(
        sa.select(knowledge_documents.c.status).where(
            knowledge_documents.c.workspace_id == workspace_id,
            knowledge_documents.c.doc_key == doc_key,
            knowledge_documents.c.version == version,
            knowledge_documents.c.status.in_(("current", "draft")),
        )
    ).scalar()
    return taken


def current_version(conn: Connection, workspace_id: WorkspaceId, doc_key: str) -> Any | None:
    return conn.execute(
        sa.select(knowledge_documents).where(
            knowledge_documents.c.workspace_id == workspace_id,
            knowledge_documents.c.doc_key == doc_key,
            knowledge_documents.c.status == "current",
        )
    ).first()


def set_status(conn: Connection, document_id: str, status: str, **values: Any) -> None:
    conn.execute(
        knowledge_documents.update()
        .where(knowledge_documents.c.id == document_id)
        .values(status=status, **values)
    )


def retire_chunks(conn: Connection, owner_id: str) -> None:
    """The owner's passages are no longer served (a superseded version, a withdrawn lesson)."""
    conn.execute(
        knowledge_chunks.update()
        .where(knowledge_chunks.c.owner_id == owner_id)
        .values(current=False)
    )


def add_identifiers(conn: Connection, rows: Sequence[dict[str, Any]]) -> None:
    if rows:
        conn.execute(knowledge_identifiers.insert(), list(rows))


def add_chunks(conn: Connection, rows: Sequence[dict[str, Any]]) -> None:
    if rows:
        keyed = [{**r, "grams": scripts.grams(f"{r['title']}\n{r['text']}")} for r in rows]
        conn.execute(knowledge_chunks.insert(), keyed)


def add_receipt(conn: Connection, workspace_id: WorkspaceId, receipt: DocumentReceipt) -> None:
    conn.execute(document_receipts.insert().values(workspace_id=workspace_id, **vars(receipt)))


def receipts(
    conn: Connection, workspace_id: WorkspaceId, document_id: str | None = None
) -> list[DocumentReceipt]:
    q = sa.select(document_receipts).where(document_receipts.c.workspace_id == workspace_id)
    if document_id:
        q = q.where(document_receipts.c.document_id == document_id)
    return [
        DocumentReceipt(
            r.id, r.document_id, r.approved_by, r.at, r.action, r.title, r.version, r.content_hash
        )
        for r in conn.execute(q.order_by(document_receipts.c.at, document_receipts.c.id))
    ]


def documents(
    conn: Connection, workspace_id: WorkspaceId, *, status: str | None, include_superseded: bool
) -> list[Document]:
    q = sa.select(knowledge_documents).where(knowledge_documents.c.workspace_id == workspace_id)
    if status is not None:
        q = q.where(knowledge_documents.c.status == status)
    elif not include_superseded:
        q = q.where(knowledge_documents.c.status == "current")
    return [
        document_from_row(r) for r in conn.execute(q.order_by(knowledge_documents.c.created_at))
    ]


def by_identifier(conn: Connection, workspace_id: WorkspaceId, key: str) -> list[Document]:
    found = conn.execute(
        sa.select(knowledge_documents)
        .join(
            knowledge_identifiers, knowledge_identifiers.c.document_id == knowledge_documents.c.id
        )
        .where(
            knowledge_identifiers.c.workspace_id == workspace_id,
            knowledge_identifiers.c.normalized == key,
            knowledge_documents.c.status == "current",
        )
    ).all()
    return [document_from_row(r) for r in found]


_CHUNKS = sa.select(knowledge_chunks).where(
    knowledge_chunks.c.seq.in_(sa.bindparam("seqs", expanding=True))
)


def chunks(conn: Connection, seqs: Sequence[int]) -> dict[int, Any]:
    return {r.seq: r for r in conn.execute(_CHUNKS, {"seqs": list(seqs)})}


def vectors_mark(conn: Connection, workspace_id: WorkspaceId, embedder: str) -> tuple[Any, ...]:
    """(newest seq, count) of the current vectors of one embedder: changes when they do."""
    return tuple(
        conn.execute(
            sa.select(sa.func.max(knowledge_chunks.c.seq), sa.func.count()).where(
                knowledge_chunks.c.workspace_id == workspace_id,
                knowledge_chunks.c.current.is_(True),
                knowledge_chunks.c.embedder == embedder,
            )
        ).one()
    )


def vectors(conn: Connection, workspace_id: WorkspaceId, embedder: str) -> list[Any]:
    return list(
        conn.execute(
            sa.select(knowledge_chunks.c.seq, knowledge_chunks.c.embedding).where(
                knowledge_chunks.c.workspace_id == workspace_id,
                knowledge_chunks.c.current.is_(True),
                knowledge_chunks.c.embedder == embedder,
            )
        ).all()
    )


def unembedded_chunks(
    conn: Connection, embedder: str, limit: int, workspace_id: WorkspaceId | None = None
) -> list[Any]:
    """Current chunks without a vector of ``embedder`` (none yet, or another embedder's),
    oldest first, at most ``limit`` (``ix_knowledge_chunks_embedder``)."""
    c = knowledge_chunks.c
    where: list[Any] = [c.current == sa.true()]  # equality: the index's first column
    where += [] if workspace_id is None else [c.workspace_id == workspace_id]
    columns = [c.id, c.part, c.title, c.text]
    return lacking_vectors.rows(conn, knowledge_chunks, columns, embedder, limit, *where)


def set_chunk_vectors(conn: Connection, embedder: str, vectors: dict[str, bytes]) -> None:
    """Keep each chunk's vector (by chunk id) as ``embedder``'s."""
    if vectors:
        conn.execute(
            knowledge_chunks.update()
            .where(knowledge_chunks.c.id == sa.bindparam("chunk"))
            .values(embedder=embedder, embedding=sa.bindparam("vector")),
            [{"chunk": k, "vector": v} for k, v in vectors.items()],
        )
