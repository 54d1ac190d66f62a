"""written rules (versioned), the setup builder's state, the doors an agent has on, and
an index for items that fall due (an upcoming move settles into where they live), and
(SQLite) the knowledge index's vocabulary, to find a question's rarest words

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from memwise._storage.types import JSONType, UTCDateTime

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("agents") as batch:
        batch.add_column(sa.Column("doors", JSONType, nullable=True))
    op.create_index(
        "ix_memory_items_due", "memory_items", ["key", "lifecycle", "occurs_at"], unique=False
    )
    if op.get_bind().dialect.name == "sqlite":  # how many chunks hold a word: its rarity
        op.execute("CREATE VIRTUAL TABLE knowledge_vocab USING fts5vocab(knowledge_fts, row)")
    op.create_table(
        "rule_versions",
        sa.Column("id", sa.String(40), nullable=False),
        sa.Column("workspace_id", sa.String(40), nullable=False),
        sa.Column("scope", sa.String(40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("persona", JSONType, nullable=True),
        sa.Column("rules", JSONType, nullable=False),
        sa.Column("note", sa.String(500), nullable=True),
        sa.Column("diff", sa.Text(), nullable=False),
        sa.Column("proposed_by", sa.String(200), nullable=False),
        sa.Column("proposed_at", UTCDateTime(), nullable=False),
        sa.Column("decided_by", sa.String(200), nullable=True),
        sa.Column("decided_at", UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_rule_versions_workspace_id_workspaces"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rule_versions")),
        sa.UniqueConstraint(
            "workspace_id",
            "scope",
            "version",
            name=op.f("uq_rule_versions_workspace_id_scope_version"),
        ),
    )
    op.create_index(
        op.f("ix_rule_versions_workspace_id"), "rule_versions", ["workspace_id"], unique=False
    )
    op.create_table(
        "setups",
        sa.Column("workspace_id", sa.String(40), nullable=False),
        sa.Column("agent_id", sa.String(40), nullable=True),
        sa.Column("plan_requested", sa.String(20), nullable=True),
        sa.Column("channels", JSONType, nullable=False),
        sa.Column("preview_contact_id", sa.String(40), nullable=True),
        sa.Column("preview_conversation_id", sa.String(40), nullable=True),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["workspace_id"], ["workspaces.id"], name=op.f("fk_setups_workspace_id_workspaces")
        ),
        sa.ForeignKeyConstraint(
            ["agent_id"], ["agents.id"], name=op.f("fk_setups_agent_id_agents")
        ),
        sa.PrimaryKeyConstraint("workspace_id", name=op.f("pk_setups")),
    )


def downgrade() -> None:
    op.drop_table("setups")
    op.drop_index(op.f("ix_rule_versions_workspace_id"), table_name="rule_versions")
    op.drop_table("rule_versions")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TABLE IF EXISTS knowledge_vocab")
    op.drop_index("ix_memory_items_due", table_name="memory_items")
    with op.batch_alter_table("agents") as batch:
        batch.drop_column("doors")
