"""Window policies: which limits apply to an agent on a channel, and the web window."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ValidationError

from memwise import errors
from memwise._policies.limits import GenericWindow, Limits, TelegramWindow, WebWindow

KIND_BY_CHANNEL = {"web": "web", "telegram": "telegram"}  # everything else: generic
WINDOW_MODELS: dict[str, type[BaseModel]] = {
    "web": WebWindow,
    "telegram": TelegramWindow,
    "generic": GenericWindow,
}


@dataclass(frozen=True)
class Message:
    role: str
    text: str
    at: datetime | None = None


def kind_of(channel: str) -> str:
    return KIND_BY_CHANNEL.get(channel, "generic")


def check_overrides(overrides: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Validate an agent's window overrides: ``{"web": {"max_messages": 10}, …}``."""
    if not overrides:
        return None
    if not isinstance(overrides, Mapping):
        raise errors.Invalid("window overrides must be an object", code="invalid_window")
    clean: dict[str, Any] = {}
    for kind, values in overrides.items():
        model = WINDOW_MODELS.get(kind)
        if model is None:
            raise errors.Invalid(
                f"unknown window {kind!r}: use web, telegram or generic", code="invalid_window"
            )
        try:
            clean[kind] = model.model_validate(values).model_dump(exclude_defaults=False)
        except ValidationError as exc:
            raise errors.Invalid(
                f"window {kind}: {exc.errors()[0]['msg']}", code="invalid_window"
            ) from exc
        clean[kind] = {k: clean[kind][k] for k in values}
    return clean


def effective(limits: Limits, overrides: Mapping[str, Any] | None) -> Limits:
    """The limits in force for one agent: the defaults with its overrides laid on top."""
    if not overrides:
        return limits
    update = {}
    for kind, values in overrides.items():
        if kind in WINDOW_MODELS and isinstance(values, Mapping):
            current = getattr(limits, kind)
            try:  # stored values are checked again: out-of-range data falls back to defaults
                update[kind] = WINDOW_MODELS[kind].model_validate(
                    {**current.model_dump(), **values}
                )
            except ValidationError:
                update[kind] = current
    return limits.model_copy(update=update)


def client_window(messages: Iterable[Message], keep: int) -> list[Message]:
    """The last ``keep`` non-empty messages the client sent (empty entries fall away)."""
    kept = [m for m in messages if m.text and m.text.strip()]
    return kept[-keep:] if keep > 0 else []


def client_window_size(limits: Limits, kind: str) -> int:
    """web: the last 20 messages; telegram: 8 earlier messages plus the current one."""
    if kind == "telegram":
        return limits.telegram.earlier_messages + 1
    return limits.web.max_messages


@dataclass(frozen=True)
class WindowView:
    """What survived the window's limits: a summary of older turns and recent turns verbatim."""

    kind: str
    summary: str | None
    messages: list[Message]
