"""turn vectors: a turn's embedding kept with it, made by the worker when its conversation ends

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMN on both backends: nullable, no default, so no table is rewritten
    op.add_column("turns", sa.Column("embedder", sa.String(100), nullable=True))
    op.add_column("turns", sa.Column("embedding", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("turns") as batch:
        batch.drop_column("embedding")
        batch.drop_column("embedder")
