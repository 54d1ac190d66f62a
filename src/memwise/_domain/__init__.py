"""Plain data and pure rules. Imports nothing of memwise but errors."""
