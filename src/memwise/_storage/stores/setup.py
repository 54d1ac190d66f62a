"""The setup builder's SQL: one row per workspace, and the counts its checklist reads."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._ids import ConversationId, WorkspaceId
from memwise._storage.schema import knowledge_documents, lessons, setups, turns, unanswered


def get(conn: Connection, workspace_id: WorkspaceId) -> Any | None:
    return conn.execute(sa.select(setups).where(setups.c.workspace_id == workspace_id)).first()


def put(conn: Connection, workspace_id: WorkspaceId, **values: Any) -> None:
    """Create the workspace's row or change the named columns of it."""
    if get(conn, workspace_id) is None:
        values.setdefault("channels", [])
        conn.execute(setups.insert().values(workspace_id=workspace_id, **values))
    else:
        conn.execute(setups.update().where(setups.c.workspace_id == workspace_id).values(**values))


def knowledge_counts(conn: Connection, workspace_id: WorkspaceId) -> dict[str, int]:
    """Published and draft documents and lessons: what step 2 has."""
    docs: dict[str, int] = dict(
        conn.execute(
            sa.select(knowledge_documents.c.status, sa.func.count())
            .where(knowledge_documents.c.workspace_id == workspace_id)
            .group_by(knowledge_documents.c.status)
        ).all()
    )
    taught: dict[str, int] = dict(
        conn.execute(
            sa.select(lessons.c.status, sa.func.count())
            .where(lessons.c.workspace_id == workspace_id)
            .group_by(lessons.c.status)
        ).all()
    )
    return {
        "documents": int(docs.get("current", 0)),
        "document_drafts": int(docs.get("draft", 0)),
        "lessons": int(taught.get("published", 0)),
        "lesson_drafts": int(taught.get("draft", 0)),
    }


def preview_counts(
    conn: Connection, workspace_id: WorkspaceId, conversation_id: ConversationId | None
) -> dict[str, int]:
    """How many questions the preview was asked, how many it handed off, and how many of
    those a published lesson answers now."""
    if conversation_id is None:
        return {"asked": 0, "handed_off": 0, "taught": 0}
    asked = conn.execute(
        sa.select(sa.func.count()).where(
            turns.c.workspace_id == workspace_id,
            turns.c.conversation_id == conversation_id,
            turns.c.role == "customer",
        )
    ).scalar()
    handed = conn.execute(
        sa.select(sa.func.count()).where(
            unanswered.c.workspace_id == workspace_id,
            unanswered.c.conversation_id == conversation_id,
        )
    ).scalar()
    taught = conn.execute(
        sa.select(sa.func.count())
        .select_from(unanswered.join(lessons, lessons.c.id == unanswered.c.lesson_id))
        .where(
            unanswered.c.workspace_id == workspace_id,
            unanswered.c.conversation_id == conversation_id,
            lessons.c.status == "published",
        )
    ).scalar()
    return {"asked": int(asked or 0), "handed_off": int(handed or 0), "taught": int(taught or 0)}


def handed_off(
    conn: Connection, workspace_id: WorkspaceId, conversation_id: ConversationId
) -> list[Any]:
    """The preview's unanswered questions, first asked first, each with the published lesson
    that answers it now (None when none does, or it was withdrawn)."""
    served = lessons.c.status == "published"
    return list(
        conn.execute(
            sa.select(
                unanswered.c.id,
                unanswered.c.question,
                sa.case((served, lessons.c.id), else_=None).label("lesson_id"),
            )
            .select_from(unanswered.outerjoin(lessons, lessons.c.id == unanswered.c.lesson_id))
            .where(
                unanswered.c.workspace_id == workspace_id,
                unanswered.c.conversation_id == conversation_id,
            )
            .order_by(unanswered.c.first_asked_at)
        ).all()
    )
