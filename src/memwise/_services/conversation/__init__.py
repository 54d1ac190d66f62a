"""Conversation: see docs/architecture.md."""
