"""The teaching step's SQL: lessons and their versions, receipts, and the questions
knowledge could not answer (unanswered items)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._domain.knowledge import Lesson, LessonStatus, Receipt, Unanswered, UnansweredStatus
from memwise._ids import WorkspaceId
from memwise._storage.schema import lessons, receipts, unanswered


def lesson_from_row(r: Any) -> Lesson:
    return Lesson(
        r.id,
        r.lesson_key,
        r.version,
        r.question,
        r.answer,
        LessonStatus(r.status),
        r.unanswered_id,
        r.created_by,
        r.created_at,
        r.approved_by,
        r.approved_at,
        r.content_hash,
    )


def unanswered_from_row(r: Any) -> Unanswered:
    return Unanswered(
        r.id,
        r.question,
        r._mapping["count"],
        UnansweredStatus(r.status),
        r.conversation_id,
        r.contact_id,
        r.first_asked_at,
        r.last_asked_at,
        r.lesson_id,
    )


def receipt_from_row(r: Any) -> Receipt:
    return Receipt(
        r.id,
        r.lesson_id,
        r.approved_by,
        r.at,
        r.action,
        r.question,
        r.answer,
        r.unanswered_id,
        r.content_hash,
    )


# -- lessons -------------------------------------------------------------------------------
def next_version(conn: Connection, lesson_key: str) -> int:
    newest = conn.execute(
        sa.select(sa.func.max(lessons.c.version)).where(lessons.c.lesson_key == lesson_key)
    ).scalar()
    return 1 + int(newest or 0)


def insert_lesson(conn: Connection, **values: Any) -> Lesson:
    conn.execute(lessons.insert().values(**values))
    return lesson_from_row(
        conn.execute(sa.select(lessons).where(lessons.c.id == values["id"])).one()
    )


def published_versions(conn: Connection, lesson_key: str) -> list[str]:
    return list(
        conn.execute(
            sa.select(lessons.c.id).where(
                lessons.c.lesson_key == lesson_key, lessons.c.status == "published"
            )
        ).scalars()
    )


def set_lesson(conn: Connection, lesson_id: str, **values: Any) -> None:
    conn.execute(lessons.update().where(lessons.c.id == lesson_id).values(**values))


def lessons_of(conn: Connection, workspace_id: WorkspaceId, status: str | None) -> list[Lesson]:
    q = sa.select(lessons).where(lessons.c.workspace_id == workspace_id)
    if status:
        q = q.where(lessons.c.status == status)
    return [lesson_from_row(r) for r in conn.execute(q.order_by(lessons.c.created_at))]


# -- receipts ------------------------------------------------------------------------------
def add_receipt(conn: Connection, workspace_id: WorkspaceId, receipt: Receipt) -> None:
    conn.execute(receipts.insert().values(workspace_id=workspace_id, **vars(receipt)))


def receipts_of(
    conn: Connection, workspace_id: WorkspaceId, lesson_id: str | None
) -> list[Receipt]:
    q = sa.select(receipts).where(receipts.c.workspace_id == workspace_id)
    if lesson_id:
        q = q.where(receipts.c.lesson_id == lesson_id)
    return [receipt_from_row(r) for r in conn.execute(q.order_by(receipts.c.at))]


# -- unanswered items ----------------------------------------------------------------------
def open_items(conn: Connection, workspace_id: WorkspaceId) -> list[Any]:
    return list(
        conn.execute(
            sa.select(unanswered).where(
                unanswered.c.workspace_id == workspace_id, unanswered.c.status == "open"
            )
        )
    )


def item(conn: Connection, item_id: str) -> Unanswered:
    return unanswered_from_row(
        conn.execute(sa.select(unanswered).where(unanswered.c.id == item_id)).one()
    )


def asked_again(conn: Connection, row: Any, at: Any) -> None:
    conn.execute(
        unanswered.update()
        .where(unanswered.c.id == row.id)
        .values(count=row._mapping["count"] + 1, last_asked_at=at)
    )


def insert_item(conn: Connection, **values: Any) -> None:
    conn.execute(unanswered.insert().values(**values))


def close_item(conn: Connection, item_id: str, lesson_id: str) -> None:
    conn.execute(
        unanswered.update()
        .where(unanswered.c.id == item_id)
        .values(status="closed", lesson_id=lesson_id)
    )


def items_of(conn: Connection, workspace_id: WorkspaceId, status: str | None) -> list[Unanswered]:
    q = sa.select(unanswered).where(unanswered.c.workspace_id == workspace_id)
    if status:
        q = q.where(unanswered.c.status == status)
    return [
        unanswered_from_row(r)
        for r in conn.execute(
            q.order_by(unanswered.c.count.desc(), unanswered.c.last_asked_at.desc())
        )
    ]
