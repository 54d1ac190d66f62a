"""Storage: one schema, two backends (SQLite, PostgreSQL). Backend differences live here only."""

from memwise.storage.engine import Database, open_database

__all__ = ["Database", "open_database"]
