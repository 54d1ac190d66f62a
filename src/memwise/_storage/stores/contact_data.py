"""The SQL of a data request: every row held about one contact, read for an export or
deleted in one transaction, and the decision for every other table of the schema."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise._ids import ContactId, WorkspaceId
from memwise._storage.schema import (
    audit_log,
    contact_identities,
    contacts,
    conversations,
    event_labels,
    events,
    folded,
    jobs,
    kept_turns,
    lessons,
    memory_changes,
    memory_items,
    question_book,
    receipts,
    tickets,
    turns,
    unanswered,
)


def _plain(row: Any) -> dict[str, Any]:
    return {
        k: (v.isoformat() if hasattr(v, "isoformat") else v)
        for k, v in row._mapping.items()
        if k not in ("embedding", "token_vectors", "visitor_token_hash", "normalized")
    }


# Further tables keyed by (workspace_id, contact_id) that both export and delete cover.
CONTACT_TABLES: tuple[sa.Table, ...] = (event_labels, events, tickets, unanswered, memory_changes)

# Every table of the schema, by what a data request does with it. The contract suite checks
# that each table is named here, so a new table is a decision, not an omission.
COVERED = frozenset(
    {
        "contacts",
        "contact_identities",
        "conversations",
        "turns",
        "kept_turns",  # recall's reading of the contact's turns: gone with them, not exported
        "memory_items",
        "memory_changes",  # one memory's life: its versions, edits and who made them
        "events",
        "event_labels",
        "tickets",
        "unanswered",
        "audit_log",
        "jobs",  # extraction, event deliveries and every job naming the contact
        "question_book",  # the contact's references; a question only they asked goes
        "folded",
        "lessons",  # knowledge a person taught stays; its link to the contact's question goes
        "receipts",
    }
)
KEPT = {
    "workspaces": "the business",
    "agents": "the business's assistants",
    "users": "staff, not customers",
    "notebook_entries": "a staff user's rules (customer facts are refused there)",
    "api_keys": "credentials, hashed",
    "console_sessions": "staff logins",
    "account_sources": "the workspace's connection settings",
    "knowledge_documents": "reviewed business documents",
    "knowledge_chunks": "reviewed business documents",
    "knowledge_identifiers": "reviewed business documents",
    "document_receipts": "who approved a document",
    "test_sets": "frozen, redacted questions (contact details replaced when folded), unlinked",
    "test_set_items": "frozen, redacted questions (contact details replaced when folded), unlinked",
    "eval_runs": "answers to a test set's questions",
    "usage": "a count of interactions per month",
    "webhook_deliveries": "de-duplication keys, gone after 24 hours",
    "webhook_secrets": "the workspace's channel secrets",
    "event_endpoints": "the workspace's subscriptions",
    "ticket_adapters": "the workspace's helpdesk settings",
    "rule_versions": "the business's written rules (a customer's details are refused there)",
    "setups": "the setup builder's state (the preview contact is a contact of its own)",
    "rate_buckets": "request counts per key, address and key prefix, gone within minutes",
}


def _conversation_ids(conn: Connection, ws: WorkspaceId, contact_id: ContactId) -> list[str]:
    return list(
        conn.execute(
            sa.select(conversations.c.id).where(
                conversations.c.workspace_id == ws, conversations.c.contact_id == contact_id
            )
        ).scalars()
    )


def export_rows(conn: Connection, ws: WorkspaceId, contact_id: ContactId) -> dict[str, Any]:
    """The contact's memory, conversations with their turns, audit entries and the rows of
    every further contact table, JSON-ready."""
    convs = conn.execute(
        sa.select(conversations)
        .where(conversations.c.workspace_id == ws, conversations.c.contact_id == contact_id)
        .order_by(conversations.c.started_at)
    ).all()
    conv_ids = [c.id for c in convs]
    doc: dict[str, Any] = {
        "memory": [
            _plain(r)
            for r in conn.execute(
                sa.select(memory_items)
                .where(memory_items.c.workspace_id == ws, memory_items.c.contact_id == contact_id)
                .order_by(memory_items.c.seq)
            )
        ],
        "conversations": [
            {
                **_plain(c),
                "turns": [
                    _plain(t)
                    for t in conn.execute(
                        sa.select(turns)
                        .where(turns.c.conversation_id == c.id)
                        .order_by(turns.c.seq)
                    )
                ],
            }
            for c in convs
        ],
        "audit": [
            _plain(r)
            for r in conn.execute(
                sa.select(audit_log)
                .where(
                    audit_log.c.workspace_id == ws,
                    sa.or_(
                        audit_log.c.contact_id == contact_id,
                        audit_log.c.conversation_id.in_(conv_ids),
                    ),
                )
                .order_by(audit_log.c.seq)
            )
        ],
    }
    for table in CONTACT_TABLES:
        doc[table.name] = [
            _plain(r)
            for r in conn.execute(
                sa.select(table).where(table.c.workspace_id == ws, table.c.contact_id == contact_id)
            )
        ]
    return doc


def held(conn: Connection, ws: WorkspaceId, contact_id: ContactId) -> dict[str, int]:
    """How many conversations, turns and memory items the contact has."""
    mine = sa.select(conversations.c.id).where(
        conversations.c.workspace_id == ws, conversations.c.contact_id == contact_id
    )
    count = sa.func.count()
    return {
        "conversations": conn.execute(sa.select(count).select_from(mine.subquery())).scalar_one(),
        "turns": conn.execute(
            sa.select(count).where(turns.c.conversation_id.in_(mine))
        ).scalar_one(),
        "memory_items": conn.execute(
            sa.select(count).where(
                memory_items.c.workspace_id == ws, memory_items.c.contact_id == contact_id
            )
        ).scalar_one(),
    }


def _forget_learning_refs(
    conn: Connection, ws: WorkspaceId, contact_id: ContactId, conv_ids: list[str]
) -> int:
    """Drop the question book's references to this contact's tickets, questions and turns
    (the book's redacted text stays only while other sources still ask the same)."""
    refs = {
        f"ticket:{t}"
        for t in conn.execute(
            sa.select(tickets.c.id).where(
                tickets.c.workspace_id == ws, tickets.c.contact_id == contact_id
            )
        ).scalars()
    }
    refs |= {
        f"unanswered:{u}"
        for u in conn.execute(
            sa.select(unanswered.c.id).where(
                unanswered.c.workspace_id == ws, unanswered.c.contact_id == contact_id
            )
        ).scalars()
    }
    refs |= {
        f"turn:{t}"
        for t in conn.execute(
            sa.select(turns.c.id).where(turns.c.conversation_id.in_(conv_ids))
        ).scalars()
    }
    if not refs:
        return 0
    mine = [
        f.ref
        for f in conn.execute(sa.select(folded.c.ref).where(folded.c.workspace_id == ws))
        if f.ref.rsplit(":", 1)[0] in refs or f.ref in refs
    ]
    if mine:
        conn.execute(folded.delete().where(folded.c.workspace_id == ws, folded.c.ref.in_(mine)))
    for entry in conn.execute(
        sa.select(question_book).where(question_book.c.workspace_id == ws)
    ).all():
        kept = [r for r in entry.refs if r not in mine]
        if len(kept) == len(entry.refs):
            continue
        if kept:
            conn.execute(
                question_book.update()
                .where(question_book.c.id == entry.id)
                .values(refs=kept, count=len(kept))
            )
        else:
            conn.execute(question_book.delete().where(question_book.c.id == entry.id))
    return len(mine)


def delete_all(conn: Connection, ws: WorkspaceId, contact_id: ContactId) -> dict[str, int]:
    """Delete the contact and every row about them; how many rows of each kind went."""
    conv_ids = _conversation_ids(conn, ws, contact_id)
    counts: dict[str, int] = {}
    counts["learning_refs"] = _forget_learning_refs(conn, ws, contact_id, conv_ids)
    counts["jobs"] = conn.execute(
        jobs.delete().where(
            jobs.c.workspace_id == ws,
            sa.or_(*[jobs.c.idempotency_key.like(f"%{c}%") for c in [contact_id, *conv_ids]]),
        )
    ).rowcount
    asked = sa.select(unanswered.c.id).where(
        unanswered.c.workspace_id == ws, unanswered.c.contact_id == contact_id
    )
    for taught in (lessons, receipts):
        conn.execute(
            taught.update()
            .where(taught.c.workspace_id == ws, taught.c.unanswered_id.in_(asked))
            .values(unanswered_id=None)
        )
    for table in CONTACT_TABLES:
        counts[table.name] = conn.execute(
            table.delete().where(table.c.workspace_id == ws, table.c.contact_id == contact_id)
        ).rowcount
    counts["memory_items"] = conn.execute(
        memory_items.delete().where(
            memory_items.c.workspace_id == ws, memory_items.c.contact_id == contact_id
        )
    ).rowcount
    counts["audit_entries"] = conn.execute(
        audit_log.delete().where(
            audit_log.c.workspace_id == ws,
            sa.or_(audit_log.c.contact_id == contact_id, audit_log.c.conversation_id.in_(conv_ids)),
        )
    ).rowcount
    conn.execute(kept_turns.delete().where(kept_turns.c.conversation_id.in_(conv_ids)))
    counts["turns"] = conn.execute(
        turns.delete().where(turns.c.conversation_id.in_(conv_ids))
    ).rowcount  # the record's search index follows by trigger / generated column
    counts["conversations"] = conn.execute(
        conversations.delete().where(conversations.c.id.in_(conv_ids))
    ).rowcount
    conn.execute(contact_identities.delete().where(contact_identities.c.contact_id == contact_id))
    conn.execute(contacts.delete().where(contacts.c.id == contact_id))
    return counts
