"""The learning loop's SQL: the question book, what has been folded into it, frozen test
sets and evaluation runs."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._domain.knowledge import EvalRun, TestSet
from memwise._ids import WorkspaceId
from memwise._storage.schema import (
    conversations,
    eval_runs,
    folded,
    question_book,
    test_set_items,
    test_sets,
    tickets,
    turns,
    unanswered,
    workspaces,
)
from memwise._storage.stores.tenancy import require

CALL_CHANNELS = ("voice", "phone")


def questions_from(conn: Connection, ws: WorkspaceId, source: str) -> list[tuple[str, str]]:
    """(ref, question) pairs a source offers; refs make folding idempotent."""
    if source == "tickets":
        return [
            (f"ticket:{r.id}", r.body or r.subject)
            for r in conn.execute(
                sa.select(tickets.c.id, tickets.c.subject, tickets.c.body).where(
                    tickets.c.workspace_id == ws
                )
            )
        ]
    if source == "unanswered":
        return [
            (f"unanswered:{r.id}", r.question)
            for r in conn.execute(
                sa.select(unanswered.c.id, unanswered.c.question).where(
                    unanswered.c.workspace_id == ws
                )
            )
        ]
    return [
        (f"turn:{r.id}", r.text)
        for r in conn.execute(  # calls: customers' questions
            sa.select(turns.c.id, turns.c.text)
            .join(conversations, conversations.c.id == turns.c.conversation_id)
            .where(
                turns.c.workspace_id == ws,
                conversations.c.channel.in_(CALL_CHANNELS),
                turns.c.role == "customer",
                turns.c.text.is_not(None),
            )
        )
        if r.text and r.text.strip().endswith("?")
    ]


def has_rows(conn: Connection, ws: WorkspaceId, source: str) -> bool:
    """Whether a source has anything to fold."""
    if source == "tickets":
        q = sa.select(tickets.c.id).where(tickets.c.workspace_id == ws)
    elif source == "unanswered":
        q = sa.select(unanswered.c.id).where(unanswered.c.workspace_id == ws)
    else:
        q = sa.select(conversations.c.id).where(
            conversations.c.workspace_id == ws, conversations.c.channel.in_(CALL_CHANNELS)
        )
    return conn.execute(q.limit(1)).first() is not None


def workspace_ids(conn: Connection, only: str | None = None) -> list[WorkspaceId]:
    q = sa.select(workspaces.c.id)
    if only:
        q = q.where(workspaces.c.id == only)
    return [WorkspaceId(str(w)) for w in conn.execute(q).scalars()]


# -- the question book ----------------------------------------------------------------------
def folded_refs(conn: Connection, ws: WorkspaceId) -> set[str]:
    return set(conn.execute(sa.select(folded.c.ref).where(folded.c.workspace_id == ws)).scalars())


def mark_folded(conn: Connection, ws: WorkspaceId, ref: str) -> None:
    conn.execute(folded.insert().values(workspace_id=ws, ref=ref))


def book(conn: Connection, ws: WorkspaceId, *, most_asked_first: bool = True) -> list[Any]:
    """The book's entries, most asked first (or as stored: folding matches a question to
    the first entry it finds, in the order entries were added)."""
    q = sa.select(question_book).where(question_book.c.workspace_id == ws)
    if most_asked_first:
        q = q.order_by(question_book.c.count.desc(), question_book.c.first_seen)
    return list(conn.execute(q))


def _entry(conn: Connection, entry_id: str) -> Any:
    return conn.execute(sa.select(question_book).where(question_book.c.id == entry_id)).one()


def insert_entry(conn: Connection, **values: Any) -> Any:
    conn.execute(question_book.insert().values(**values))
    return _entry(conn, values["id"])


def update_entry(conn: Connection, entry_id: str, **values: Any) -> Any:
    conn.execute(question_book.update().where(question_book.c.id == entry_id).values(**values))
    return _entry(conn, entry_id)


# -- frozen test sets and runs --------------------------------------------------------------
def insert_test_set(
    conn: Connection,
    ws: WorkspaceId,
    set_id: str,
    name: str,
    actor: str,
    at: datetime,
    items: Sequence[dict[str, Any]],
) -> None:
    """A new version of the named set (one past the highest) with its questions."""
    version = 1 + (
        conn.execute(
            sa.select(sa.func.max(test_sets.c.version)).where(
                test_sets.c.workspace_id == ws, test_sets.c.name == name
            )
        ).scalar()
        or 0
    )
    conn.execute(
        test_sets.insert().values(
            id=set_id, workspace_id=ws, name=name, version=version, created_by=actor, created_at=at
        )
    )
    conn.execute(test_set_items.insert(), [{"set_id": set_id, **i} for i in items])


def test_set(conn: Connection, ws: WorkspaceId, set_id: str) -> TestSet:
    s = require(conn, test_sets, ws, set_id, "test_set")
    items = [
        dict(r._mapping)
        for r in conn.execute(
            sa.select(
                test_set_items.c.position,
                test_set_items.c.question,
                test_set_items.c.expected_text,
                test_set_items.c.expected_source_id,
            )
            .where(test_set_items.c.set_id == set_id)
            .order_by(test_set_items.c.position)
        )
    ]
    return TestSet(s.id, s.name, s.version, items, s.created_at)


def test_sets_of(conn: Connection, ws: WorkspaceId) -> list[TestSet]:
    """Every set (without its questions), by name, newest version first."""
    found = conn.execute(
        sa.select(test_sets)
        .where(test_sets.c.workspace_id == ws)
        .order_by(test_sets.c.name, test_sets.c.version.desc())
    )
    return [TestSet(r.id, r.name, r.version, [], r.created_at) for r in found]


def insert_run(conn: Connection, **values: Any) -> None:
    conn.execute(eval_runs.insert().values(**values))


def runs_of(conn: Connection, ws: WorkspaceId, set_id: str | None) -> list[EvalRun]:
    """Runs, oldest first, without their per-question results."""
    q = sa.select(
        eval_runs.c.id, eval_runs.c.set_id, eval_runs.c.created_at, eval_runs.c.summary
    ).where(eval_runs.c.workspace_id == ws)
    if set_id:
        q = q.where(eval_runs.c.set_id == set_id)
    found = conn.execute(q.order_by(eval_runs.c.created_at, eval_runs.c.id))
    return [EvalRun(r.id, r.set_id, r.created_at, r.summary, []) for r in found]


def run(conn: Connection, ws: WorkspaceId, run_id: str) -> EvalRun:
    r = require(conn, eval_runs, ws, run_id, "eval_run")
    return EvalRun(r.id, r.set_id, r.created_at, r.summary, r.results)
