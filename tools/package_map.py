"""The package map in docs/architecture.md: every module of memwise with the first sentence
of its docstring, by folder (no sizes: the map changes when a module comes, goes or says
something new, not with every edit).

    python -m tools.package_map            # print the map
    python -m tools.package_map --write    # replace the map in docs/architecture.md

``tests/unit/test_package_map.py`` fails when the map in the document is not what this
prints, so a new module must say what it is for.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "memwise"
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- package map: python -m tools.package_map --write -->"
END = "<!-- end of the package map -->"


def purpose(path: Path) -> str:
    """The first sentence of a module's docstring, on one line ('—' when it has none)."""
    doc = ast.get_docstring(ast.parse(path.read_text("utf-8"))) or ""
    text = " ".join(doc.split())
    if not text:
        return "—"
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def render() -> str:
    folders: dict[str, list[Path]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if "migrations" in rel.parts[:-1] and rel.parts[-2] == "versions":
            continue  # the Alembic revisions: one per schema change, listed by alembic itself
        folder = "/".join(rel.parts[:-1]) or "."
        folders.setdefault(folder, []).append(path)
    out = [BEGIN, ""]
    out.append(f"{sum(len(ps) for ps in folders.values())} modules.")
    out.append("")
    for folder, paths in folders.items():
        name = "memwise/" if folder == "." else f"memwise/{folder}/"
        out.append(f"- **`{name}`**")
        for path in paths:
            if path.name == "__init__.py" and purpose(path) == "—":
                continue
            out.append(f"  - `{path.name}` — {purpose(path)}")
    out += ["", END]
    return "\n".join(out)


def current(document: str) -> str:
    start, stop = document.find(BEGIN), document.find(END)
    if start < 0 or stop < 0:
        raise SystemExit(f"{DOC} has no package map between {BEGIN!r} and {END!r}")
    return document[start : stop + len(END)]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m tools.package_map", description=__doc__)
    ap.add_argument("--write", action="store_true", help="replace the map in the document")
    args = ap.parse_args(argv)
    if not args.write:
        sys.stdout.write(render() + "\n")
        return
    document = DOC.read_text("utf-8")
    DOC.write_text(document.replace(current(document), render()), "utf-8")


if __name__ == "__main__":
    main()
