"""knowledge vectors in pgvector when the server has it

Revision ID: 0007
Revises: 0006

On PostgreSQL servers that offer the ``vector`` extension, knowledge chunks also keep their
embedding as a pgvector value and similarity search runs in SQL. Elsewhere (SQLite, or a
PostgreSQL without the extension) vectors stay bytea and are searched exactly in numpy.
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    available = bind.exec_driver_sql(
        "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'"
    ).first()
    if available is None:
        return
    op.execute("CREATE EXTENSION IF NOT EXISTS vector")
    op.execute("ALTER TABLE knowledge_chunks ADD COLUMN IF NOT EXISTS embedding_vec vector")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE knowledge_chunks DROP COLUMN IF EXISTS embedding_vec")
