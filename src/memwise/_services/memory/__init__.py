"""Memory: see docs/architecture.md."""
