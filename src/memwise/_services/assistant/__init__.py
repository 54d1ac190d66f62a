"""Assistant: see docs/architecture.md."""
