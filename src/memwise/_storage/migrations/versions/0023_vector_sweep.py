"""The worker's vector sweep found through an index: memory items and current knowledge
chunks by (embedder, seq), so that a sweep over tables whose rows all hold the configured
embedder's vectors reads an index entry, not every row
(``memwise._storage.stores.lacking_vectors``).

Revision ID: 0023
Revises: 0022
"""

from __future__ import annotations

from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_memory_items_embedder", "memory_items", ["embedder", "seq"])
    op.create_index(
        "ix_knowledge_chunks_embedder", "knowledge_chunks", ["current", "embedder", "seq"]
    )


def downgrade() -> None:
    op.drop_index("ix_knowledge_chunks_embedder", "knowledge_chunks")
    op.drop_index("ix_memory_items_embedder", "memory_items")
