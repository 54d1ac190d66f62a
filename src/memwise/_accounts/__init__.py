"""The live account record: read fresh through an adapter, bound to one account, never stored."""
