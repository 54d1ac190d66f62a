"""The text layer: how memwise reads language, at the bottom of the package (it imports
nothing of memwise but the error tree). See docs/architecture.md, "Reading language"."""
