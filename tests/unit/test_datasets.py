"""tools/datasets.toml registers every data set, with the checksum it was frozen at."""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = tomllib.loads((ROOT / "tools" / "datasets.toml").read_text("utf-8"))
FIELDS = {"path", "written", "by", "sha256", "measures", "tuned_on"}


def test_every_data_set_is_registered() -> None:
    files = {
        str(p.relative_to(ROOT))
        for folder in ("tests/data", "tools/datasets")
        for p in (ROOT / folder).glob("*.json")
    }
    registered = {entry["path"] for entry in REGISTRY.values()}
    assert files - registered == set(), "add these to tools/datasets.toml"
    assert registered - files == set(), "these registered sets are missing"


def test_each_entry_says_who_wrote_it_what_it_measures_and_what_was_tuned_on_it() -> None:
    for name, entry in REGISTRY.items():
        assert set(entry) >= FIELDS, (name, FIELDS - set(entry))
        assert isinstance(entry["tuned_on"], list), name
        assert entry["by"].strip() and entry["measures"].strip(), name


def test_each_set_is_what_it_was_frozen_at() -> None:
    changed = {
        name: entry["path"]
        for name, entry in REGISTRY.items()
        if hashlib.sha256((ROOT / entry["path"]).read_bytes()).hexdigest() != entry["sha256"]
    }
    assert changed == {}, "a frozen set changed: a changed set is a new set (a new name)"
