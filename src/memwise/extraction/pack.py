"""Business domain packs: what is worth extracting for a kind of business (YAML, shipped)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import yaml

from memwise import errors


@dataclass(frozen=True)
class EventSpec:
    type: str
    triggers: list[str]
    labels: list[str]


@dataclass(frozen=True)
class Pack:
    name: str
    description: str
    kinds: list[str]
    keys: dict[str, str]
    entities: list[str]
    events: list[EventSpec]
    vocabulary: dict[str, list[str]] = field(default_factory=dict)

    def as_prompt(self) -> str:
        lines = [
            f"Business domain: {self.name} — {self.description}",
            "Kinds: " + ", ".join(self.kinds),
            "Keys (reuse one when a statement is about the same slot):",
        ]
        lines += [f"- {k}: {v}" for k, v in self.keys.items()]
        lines.append("Entities worth naming: " + ", ".join(self.entities))
        lines.append(
            "Events with labels: "
            + "; ".join(f"{e.type} ({', '.join(e.labels)})" for e in self.events)
        )
        return "\n".join(lines)


def names() -> list[str]:
    root = resources.files(__package__).joinpath("packs")
    return sorted(p.name.removesuffix(".yaml") for p in root.iterdir() if p.name.endswith(".yaml"))


@cache
def load(name: str) -> Pack:
    """The pack called ``name`` (a business domain); Invalid if there is none."""
    if name not in names():
        raise errors.Invalid(
            f"unknown business domain {name!r}: choose one of {', '.join(names())}",
            code="unknown_domain",
        )
    text = resources.files(__package__).joinpath("packs", f"{name}.yaml").read_text("utf-8")
    raw: dict[str, Any] = yaml.safe_load(text)
    return Pack(
        name=raw["name"],
        description=raw["description"],
        kinds=list(raw["kinds"]),
        keys=dict(raw["keys"]),
        entities=list(raw.get("entities", [])),
        events=[
            EventSpec(t, list(e.get("triggers", [])), list(e.get("labels", [])))
            for t, e in (raw.get("events") or {}).items()
        ],
        vocabulary={k: list(v) for k, v in (raw.get("vocabulary") or {}).items()},
    )
