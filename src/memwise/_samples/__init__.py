"""Sample data for ``memwise demo``."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def conversations() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("conversations.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data
