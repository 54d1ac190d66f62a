"""Stores own their SQL: each module holds one part's queries and row mapping, takes the
caller's connection (the unit of work the service opened) and knows no policy. Services
decide when and why; stores say how, on both backends."""
