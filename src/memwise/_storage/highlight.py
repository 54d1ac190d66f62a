"""Highlight markers: backends mark hits with control characters; we turn them into <mark>."""

from __future__ import annotations

import html

START, STOP = "\x02", "\x03"


def to_html(snippet: str) -> str:
    return html.escape(snippet).replace(START, "<mark>").replace(STOP, "</mark>")
