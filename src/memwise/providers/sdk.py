"""The official model SDKs (optional extras), imported only when a model is configured."""

from __future__ import annotations

import importlib
from typing import Any

from memwise import errors


def sdk_client(sdk: str, base_url: str | None, api_key: str | None, **options: Any) -> Any:
    """The SDK's client: ``openai.OpenAI`` or ``anthropic.Anthropic``."""
    try:
        module = importlib.import_module(sdk)
    except ImportError as exc:
        raise errors.Unavailable(
            f"install memwise[{sdk}] to use {sdk} models", code="extra_not_installed"
        ) from exc
    kind = getattr(module, "OpenAI" if sdk == "openai" else "Anthropic")
    return kind(base_url=base_url, api_key=api_key or "not-needed", **options)
