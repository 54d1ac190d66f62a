"""Session summaries replace the continuity notes: each "Asked about: …" note becomes its
conversation's summary (kind summary, key summary.<conversation>), its one sentence the
question it copied, marked as migrated so a rebuild writes the whole summary.

Revision ID: 0020
Revises: 0019
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from memwise._storage.types import JSONType

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

items = sa.table(
    "memory_items",
    sa.column("id", sa.String),
    sa.column("kind", sa.String),
    sa.column("scope", sa.String),
    sa.column("key", sa.String),
    sa.column("text", sa.String),
    sa.column("evidence", JSONType),
    sa.column("labels", JSONType),
    sa.column("conversation_id", sa.String),
)
conversations = sa.table(
    "conversations", sa.column("id", sa.String), sa.column("channel", sa.String)
)


def _sentence(text: str) -> str:
    asked = text.removeprefix("Asked about:").strip()
    return f"Asked: {asked}" if asked != text else text


def upgrade() -> None:
    conn = op.get_bind()
    notes = conn.execute(
        sa.select(items, conversations.c.channel)
        .outerjoin(conversations, conversations.c.id == items.c.conversation_id)
        .where(items.c.key.like("continuity.%"), items.c.kind == "note")
    ).all()
    for note in notes:
        evidence = list(note.evidence or [])
        first = evidence[0] if evidence else {}
        text = _sentence(note.text)
        sentence = {
            "part": "wanted",
            "text": text,
            "turn_id": first.get("turn_id"),
            "role": "customer",
            "quote": first.get("quote"),
            "occurs_on": None,
        }
        summary = {"sentences": [sentence], "channel": note.channel, "method": "migrated"}
        conn.execute(
            items.update()
            .where(items.c.id == note.id)
            .values(
                kind="summary",
                scope="session" if note.conversation_id else note.scope,
                key="summary." + note.key.removeprefix("continuity."),
                text=text,
                labels={**(note.labels or {}), "summary": summary},
            )
        )


def downgrade() -> None:
    """Every summary becomes a note again (its parts kept in its labels): nothing is lost."""
    conn = op.get_bind()
    for row in conn.execute(
        sa.select(items).where(items.c.kind == "summary", items.c.key.like("summary.%"))
    ).all():
        conn.execute(
            items.update()
            .where(items.c.id == row.id)
            .values(kind="note", key="continuity." + row.key.removeprefix("summary."))
        )
