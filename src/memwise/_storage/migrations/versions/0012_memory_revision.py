"""memory item revisions: a contact's items are cached until one changes

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("memory_items") as batch:
        batch.add_column(sa.Column("revision", sa.BigInteger(), nullable=False, server_default="0"))
    op.create_index(
        "ix_memory_items_version",
        "memory_items",
        ["workspace_id", "contact_id", "seq", "revision"],
    )


def downgrade() -> None:
    op.drop_index("ix_memory_items_version", table_name="memory_items")
    with op.batch_alter_table("memory_items") as batch:
        batch.drop_column("revision")
