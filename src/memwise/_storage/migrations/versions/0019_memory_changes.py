"""memory_changes: one memory's life (created, superseded, edited, archived; who, when, why)

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from memwise._storage.types import BigIntPK, UTCDateTime

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "memory_changes",
        sa.Column("seq", BigIntPK, autoincrement=True, nullable=False),
        sa.Column("id", sa.String(40), nullable=False),
        sa.Column("workspace_id", sa.String(40), nullable=False),
        sa.Column("contact_id", sa.String(40), nullable=True),
        sa.Column("item_id", sa.String(40), nullable=False),
        sa.Column("at", UTCDateTime(), nullable=False),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("why", sa.String(300), nullable=True),
        sa.Column("text", sa.String(1000), nullable=True),
        sa.Column("before", sa.String(1000), nullable=True),
        sa.Column("other_item_id", sa.String(40), nullable=True),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_memory_changes_workspace_id_workspaces"),
        ),
        sa.PrimaryKeyConstraint("seq", name=op.f("pk_memory_changes")),
        sa.UniqueConstraint("id", name=op.f("uq_memory_changes_id")),
    )
    op.create_index(
        op.f("ix_memory_changes_workspace_id"), "memory_changes", ["workspace_id"], unique=False
    )
    op.create_index("ix_memory_changes_item", "memory_changes", ["workspace_id", "item_id", "seq"])
    op.create_index("ix_memory_changes_contact", "memory_changes", ["workspace_id", "contact_id"])


def downgrade() -> None:
    op.drop_table("memory_changes")
