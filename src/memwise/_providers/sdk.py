"""The official model SDKs (optional extras), imported only when a model is configured."""

from __future__ import annotations

import importlib
from typing import Any

import httpx

from memwise import errors
from memwise._providers import http


def sdk_client(sdk: str, base_url: str | None, api_key: str | None, **options: Any) -> Any:
    """The SDK's client: ``openai.OpenAI`` or ``anthropic.Anthropic``."""
    try:
        module = importlib.import_module(sdk)
    except ImportError as exc:
        raise errors.Unavailable(
            f"install memwise[{sdk}] to use {sdk} models", code="extra_not_installed"
        ) from exc
    kind = getattr(module, "OpenAI" if sdk == "openai" else "Anthropic")
    if sdk == "openai" and "http_client" not in options:  # every answer bounded in time, size
        timeout = float(options.get("timeout") or 60.0)
        options["http_client"] = httpx.Client(
            timeout=timeout,
            transport=http.BoundedTransport(deadline_s=timeout, max_bytes=MODEL_ANSWER_BYTES),
        )
    return kind(base_url=base_url, api_key=api_key or "not-needed", **options)


MODEL_ANSWER_BYTES = 4_000_000  # a model's whole answer (a long extraction is ~100 kB)
