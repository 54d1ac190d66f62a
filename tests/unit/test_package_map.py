"""docs/architecture.md's package map is what tools/package_map.py prints today."""

from __future__ import annotations

from tools import package_map


def test_the_package_map_in_the_architecture_document_is_current() -> None:
    document = package_map.DOC.read_text("utf-8")
    assert package_map.current(document) == package_map.render(), (
        "the package map is stale: python -m tools.package_map --write"
    )


def test_every_module_says_what_it_is_for() -> None:
    unnamed = [line for line in package_map.render().splitlines() if line.endswith("— —")]
    assert unnamed == []
