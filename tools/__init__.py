"""Tools that measure and train memwise: not part of the package (nothing in memwise imports
them). Run from the repository root, e.g. ``python -m tools.locomo PATH``."""
