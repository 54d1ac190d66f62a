"""Business domain packs: what is worth extracting for a kind of business (YAML, shipped)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

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


_DIRS: list[Path] = []  # custom pack folders (MEMWISE_PACKS_DIR, or use_dir)
KINDS = ("preference", "fact", "event", "task", "note")
_WORD = re.compile(r"^[a-z][a-z0-9_]*$")
_NAME = re.compile(r"^[a-z][a-z0-9-]{1,63}$")


class EventFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    triggers: list[str] = Field(min_length=1, max_length=50)
    labels: list[str] = Field(default_factory=list, max_length=20)


class PackFile(BaseModel):
    """The YAML format of a business domain pack (docs/extraction.md, "Business domains")."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=_NAME.pattern)
    description: str = Field(min_length=3, max_length=300)
    kinds: list[Literal["preference", "fact", "event", "task", "note"]] = Field(min_length=1)
    keys: dict[str, str] = Field(min_length=1, max_length=200)
    entities: list[str] = Field(default_factory=list, max_length=50)
    events: dict[str, EventFile] = Field(default_factory=dict, max_length=30)
    vocabulary: dict[str, list[str]] = Field(default_factory=dict, max_length=50)

    @field_validator("keys")
    @classmethod
    def _keys(cls, keys: dict[str, str]) -> dict[str, str]:
        for key, what in keys.items():
            if not all(_WORD.match(part) for part in key.split(".")):
                raise ValueError(f"key {key!r} must be dotted lowercase words, e.g. 'dietary'")
            if not str(what).strip():
                raise ValueError(f"key {key!r} needs a description")
        return keys

    @field_validator("events")
    @classmethod
    def _events(cls, events: dict[str, EventFile]) -> dict[str, EventFile]:
        for name in events:
            if not _WORD.match(name):
                raise ValueError(f"event {name!r} must be one lowercase word, e.g. 'booking'")
        return events

    def pack(self) -> Pack:
        return Pack(
            name=self.name,
            description=self.description,
            kinds=list(self.kinds),
            keys=dict(self.keys),
            entities=list(self.entities),
            events=[EventSpec(t, list(e.triggers), list(e.labels)) for t, e in self.events.items()],
            vocabulary={k: list(v) for k, v in self.vocabulary.items()},
        )


def validate_text(text: str, where: str = "the pack") -> Pack:
    """A pack from its YAML text, or Invalid naming every problem with its place."""
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise errors.Invalid(f"{where} is not valid YAML: {exc}", code="invalid_pack") from exc
    if not isinstance(raw, dict):
        raise errors.Invalid(f"{where} must be a YAML mapping", code="invalid_pack")
    try:
        return PackFile.model_validate(raw).pack()
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors()
        ]
        raise errors.Invalid(
            f"{where} has {len(problems)} problem(s): " + "; ".join(problems),
            code="invalid_pack",
            problems=problems,
        ) from exc


def use_dir(path: str | Path) -> None:
    """Also load packs from this folder (``NAME.yaml``); a custom pack may not shadow a
    built-in one."""
    folder = Path(path)
    if not folder.is_dir():
        raise errors.Invalid(f"no such folder for packs: {folder}", code="invalid_pack_dir")
    if folder not in _DIRS:
        _DIRS.append(folder)
    load.cache_clear()


def _builtin() -> list[str]:
    root = resources.files(__package__).joinpath("packs")
    return sorted(p.name.removesuffix(".yaml") for p in root.iterdir() if p.name.endswith(".yaml"))


def names() -> list[str]:
    custom = {f.stem for d in _DIRS for f in d.glob("*.yaml")}
    return sorted(set(_builtin()) | custom)


@cache
def load(name: str) -> Pack:
    """The pack called ``name`` (a business domain); Invalid if there is none."""
    if name not in names():
        raise errors.Invalid(
            f"unknown business domain {name!r}: choose one of {', '.join(names())}",
            code="unknown_domain",
        )
    if name in _builtin():
        text = resources.files(__package__).joinpath("packs", f"{name}.yaml").read_text("utf-8")
        return validate_text(text, f"the {name} pack")
    path = next(d / f"{name}.yaml" for d in _DIRS if (d / f"{name}.yaml").exists())
    found = validate_text(path.read_text("utf-8"), str(path))
    if found.name != name:
        raise errors.Invalid(
            f"{path}: its name is {found.name!r}, its file says {name!r}", code="invalid_pack"
        )
    return found
