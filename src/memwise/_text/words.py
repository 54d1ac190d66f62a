"""Word lists and labelled examples, as data files (``memwise/_text/data/<name>.txt``: one
entry a line, ``#`` for comments), loaded in this one place and remembered."""

from __future__ import annotations

import functools
from importlib import resources


@functools.cache
def load(name: str) -> frozenset[str]:
    """The entries of ``data/<name>.txt``, lower-cased."""
    text = resources.files("memwise._text").joinpath("data", f"{name}.txt").read_text("utf-8")
    return frozenset(
        line.strip().lower()
        for line in text.splitlines()
        if line.strip() and not line.startswith("#")
    )


@functools.cache
def labelled(name: str) -> tuple[tuple[str, str], ...]:
    """The ``label<TAB>text`` lines of ``data/<name>.txt``, in order (examples that meaning
    is read against: summary parts, kinds of fact, what a dated sentence does)."""
    text = resources.files("memwise._text").joinpath("data", f"{name}.txt").read_text("utf-8")
    out = []
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            label, _, example = line.partition("\t")
            out.append((label.strip(), example.strip()))
    return tuple(out)
