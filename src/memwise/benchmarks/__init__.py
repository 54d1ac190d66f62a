"""Benchmarks that ship with memwise (``memwise bench``). They read public evaluation data
from a path the user gives; no data set is part of memwise."""
