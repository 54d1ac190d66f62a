"""Knowledge: see docs/architecture.md."""
