"""Storage: one schema, two backends (SQLite, PostgreSQL). Backend differences live here only."""

from memwise._storage.engine import Database, open_database

__all__ = ["Database", "open_database"]
