"""key holders: an API key may act for one staff user (whose notebook it may then write)

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # nullable, no default: no table is rewritten on either backend
    op.add_column("api_keys", sa.Column("user_id", sa.String(40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("api_keys") as batch:
        batch.drop_column("user_id")
