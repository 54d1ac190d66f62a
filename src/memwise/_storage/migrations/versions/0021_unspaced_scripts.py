"""Search in scripts written without spaces: turns and knowledge chunks keep the pairs of
letters of their Chinese, Japanese, Thai … text (``grams``), and the full-text indexes read
them beside the words (SQLite: a third column of the FTS5 tables; PostgreSQL: the ``simple``
configuration's lexemes joined to the English ones). Existing rows are filled in batches.

Revision ID: 0021
Revises: 0020
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from memwise._text import scripts

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

BATCH = 2_000


def _fill(table: str, text_sql: str) -> None:
    """Compute ``grams`` for every row (a pass over the table, a batch at a time)."""
    bind = op.get_bind()
    last = 0
    while True:
        rows = bind.execute(
            sa.text(
                f"SELECT seq, {text_sql} AS body FROM {table} WHERE seq > :last "
                "ORDER BY seq LIMIT :n"
            ),
            {"last": last, "n": BATCH},
        ).all()
        if not rows:
            return
        found = [{"s": r.seq, "g": g} for r in rows if (g := scripts.grams(r.body))]
        if found:
            bind.execute(sa.text(f"UPDATE {table} SET grams = :g WHERE seq = :s"), found)
        last = rows[-1].seq


def _sqlite_indexes(with_grams: bool) -> None:
    extra, new_extra, old_extra = (
        (", grams", ", new.grams", ", old.grams") if with_grams else ("", "", "")
    )
    for name in ("turns_fts_ai", "turns_fts_ad", "knowledge_fts_ai", "knowledge_fts_ad"):
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
    op.execute("DROP TABLE IF EXISTS turns_fts")
    op.execute("DROP TABLE IF EXISTS knowledge_fts")
    op.execute(
        f"CREATE VIRTUAL TABLE turns_fts USING fts5(text{extra}, content='turns', "
        "content_rowid='seq', tokenize='porter unicode61')"
    )
    op.execute(
        "CREATE TRIGGER turns_fts_ai AFTER INSERT ON turns WHEN new.text IS NOT NULL BEGIN "
        f"INSERT INTO turns_fts(rowid, text{extra}) VALUES (new.seq, new.text{new_extra}); END"
    )
    op.execute(
        "CREATE TRIGGER turns_fts_ad AFTER DELETE ON turns WHEN old.text IS NOT NULL BEGIN "
        f"INSERT INTO turns_fts(turns_fts, rowid, text{extra}) "
        f"VALUES ('delete', old.seq, old.text{old_extra}); END"
    )
    op.execute(
        f"CREATE VIRTUAL TABLE knowledge_fts USING fts5(title, text{extra}, "
        "content='knowledge_chunks', content_rowid='seq', tokenize='porter unicode61')"
    )
    op.execute(
        "CREATE TRIGGER knowledge_fts_ai AFTER INSERT ON knowledge_chunks BEGIN "
        f"INSERT INTO knowledge_fts(rowid, title, text{extra}) "
        f"VALUES (new.seq, new.title, new.text{new_extra}); END"
    )
    op.execute(
        "CREATE TRIGGER knowledge_fts_ad AFTER DELETE ON knowledge_chunks BEGIN "
        f"INSERT INTO knowledge_fts(knowledge_fts, rowid, title, text{extra}) "
        f"VALUES ('delete', old.seq, old.title, old.text{old_extra}); END"
    )
    op.execute("INSERT INTO turns_fts(turns_fts) VALUES ('rebuild')")
    op.execute("INSERT INTO knowledge_fts(knowledge_fts) VALUES ('rebuild')")


def _postgres_indexes(with_grams: bool) -> None:
    grams = " || to_tsvector('simple', coalesce(grams, ''))" if with_grams else ""
    op.execute("ALTER TABLE turns DROP COLUMN IF EXISTS text_tsv")
    op.execute(
        "ALTER TABLE turns ADD COLUMN text_tsv tsvector GENERATED ALWAYS AS "
        f"(to_tsvector('english', coalesce(text, '')){grams}) STORED"
    )
    op.execute("CREATE INDEX ix_turns_text_tsv ON turns USING gin (text_tsv)")
    op.execute("ALTER TABLE knowledge_chunks DROP COLUMN IF EXISTS text_tsv")
    op.execute(
        "ALTER TABLE knowledge_chunks ADD COLUMN text_tsv tsvector GENERATED ALWAYS AS "
        "(setweight(to_tsvector('english', coalesce(title, '')), 'A') || "
        f"to_tsvector('english', coalesce(text, '')){grams}) STORED"
    )
    op.execute("CREATE INDEX ix_knowledge_chunks_tsv ON knowledge_chunks USING gin (text_tsv)")


def upgrade() -> None:
    op.add_column("turns", sa.Column("grams", sa.Text, nullable=True))
    op.add_column("knowledge_chunks", sa.Column("grams", sa.Text, nullable=True))
    _fill("turns", "text")
    _fill(
        "knowledge_chunks", "title || char(10) || text" if _sqlite() else "title || E'\\n' || text"
    )
    if _sqlite():
        _sqlite_indexes(with_grams=True)
    else:
        _postgres_indexes(with_grams=True)


def downgrade() -> None:
    if _sqlite():
        _sqlite_indexes(with_grams=False)
    else:
        _postgres_indexes(with_grams=False)
    op.drop_column("knowledge_chunks", "grams")  # ALTER TABLE … DROP COLUMN: the
    op.drop_column("turns", "grams")  # tables (and their other triggers) stay as they are


def _sqlite() -> bool:
    return op.get_bind().dialect.name == "sqlite"
