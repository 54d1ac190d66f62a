"""turn token vectors: a turn's word-piece vectors for late interaction in record recall

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # nullable, no default: no table is rewritten on either backend
    op.add_column("turns", sa.Column("token_vectors", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("turns") as batch:
        batch.drop_column("token_vectors")
