"""Platform: see docs/architecture.md."""
