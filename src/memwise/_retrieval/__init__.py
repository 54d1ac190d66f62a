"""Retrieval: lexical scoring, vectors, fusion."""
