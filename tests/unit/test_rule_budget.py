"""The rule modules are frozen: each stays within the line budget docs/rules.md writes down."""

from __future__ import annotations

import re
from pathlib import Path

import memwise

ROOT = Path(memwise.__file__).parent
DOC = Path(__file__).parents[2] / "docs" / "rules.md"


def budgets() -> dict[str, int]:
    rows = re.findall(r"^\| `([\w/]+\.py)` \| [^|]+ \| (\d+) \|$", DOC.read_text(), re.M)
    return {module: int(lines) for module, lines in rows}


def test_every_rule_module_stays_within_its_budget() -> None:
    found = budgets()
    assert len(found) >= 14, "docs/rules.md lists the rule modules and their budgets"
    over = {
        module: (n, limit)
        for module, limit in found.items()
        if (n := len((ROOT / module).read_text().splitlines())) > limit
    }
    assert not over, f"over budget (lines, budget): {over} — see docs/rules.md"
