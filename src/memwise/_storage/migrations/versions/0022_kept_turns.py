"""Kept turns: an ended conversation's turns as record recall reads them (terms counted,
vectors and word-piece ids side by side), kept by the worker so that a contact's first
recall joins them instead of reading every turn again; and each conversation's count of
turns with text and the newest of them (``said``, ``said_seq``), which tell whether what
was kept is whole without reading the turns (filled here from the turns, in one pass).
Nothing else to fill: a recall keeps what it reads of an ended conversation.

Revision ID: 0022
Revises: 0021
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from memwise._storage.types import UTCDateTime

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "conversations", sa.Column("said", sa.Integer(), nullable=False, server_default="0")
    )
    op.add_column("conversations", sa.Column("said_seq", sa.BigInteger(), nullable=True))
    op.execute(
        "UPDATE conversations SET "
        "said = (SELECT count(*) FROM turns WHERE turns.conversation_id = conversations.id "
        "AND turns.text IS NOT NULL), "
        "said_seq = (SELECT max(seq) FROM turns WHERE turns.conversation_id = conversations.id "
        "AND turns.text IS NOT NULL)"
    )
    op.create_table(
        "kept_turns",
        sa.Column(
            "conversation_id",
            sa.String(40),
            sa.ForeignKey("conversations.id"),
            primary_key=True,
        ),
        sa.Column("workspace_id", sa.String(40), sa.ForeignKey("workspaces.id"), nullable=False),
        sa.Column("format", sa.Integer(), nullable=False),
        sa.Column("embedder", sa.String(100), nullable=True),
        sa.Column("upto_seq", sa.BigInteger(), nullable=False),
        sa.Column("turns", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("made_at", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_kept_turns_workspace_id", "kept_turns", ["workspace_id"])
    if op.get_bind().dialect.name == "postgresql":  # floats and int8 codes: compressing
        # them costs time on every read and saves little (new values; old ones stay as they are)
        op.execute("ALTER TABLE kept_turns ALTER COLUMN data SET STORAGE EXTERNAL")
        op.execute("ALTER TABLE turns ALTER COLUMN token_vectors SET STORAGE EXTERNAL")


def downgrade() -> None:
    op.drop_column("conversations", "said_seq")
    op.drop_column("conversations", "said")
    op.drop_index("ix_kept_turns_workspace_id", "kept_turns")
    op.drop_table("kept_turns")
