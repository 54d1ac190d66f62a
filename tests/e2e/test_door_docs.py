"""Every door page's example runs as written against a real server (docs/doors/*.md)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import ADMIN, Server

DOORS = Path(__file__).parent.parent.parent / "docs" / "doors"
EXPECT = {
    "python-client.md": ["sources: ['Returns']", "404 "],
    "mcp.md": ["'search_knowledge'", "['Quote prices without VAT.']"],
    "telegram.md": ["Monday to Friday", "clean page"],
    "webhooks.md": ["201 False", "True True", "False\n['sender']\n401"],
    "widget.md": ["widget.js", 'data-token="vt_'],
    "frameworks.md": ["Prefers to be contacted by email. verified", "<customer_memory>"],
}


@pytest.mark.parametrize("page", sorted(EXPECT))
def test_the_page_example_runs(page: str, server: Server, tmp_path: Path) -> None:
    code = re.search(r"```python\n(.*?)```", (DOORS / page).read_text(), re.S)
    assert code is not None
    env = {
        **os.environ,
        "MEMWISE_URL": server.url,
        "MEMWISE_ADMIN_TOKEN": ADMIN,
        "MEMWISE_DATABASE_URL": server.database_url,
    }
    out = subprocess.run(
        [sys.executable, "-c", code.group(1)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    for expected in EXPECT[page]:
        assert expected in out.stdout, out.stdout


def test_every_door_page_is_listed() -> None:
    index = (DOORS / "README.md").read_text()
    for page in EXPECT:
        assert f"]({page})" in index
