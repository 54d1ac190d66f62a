"""The command line as a user runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _memwise(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "memwise"
    return subprocess.run(
        [str(exe), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "160"},
    )


def test_demo_prints_the_record_and_a_search(tmp_path: Path) -> None:
    out = _memwise("demo", "-q", "refund", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "The record" in out.stdout and "Sofia Marino" in out.stdout
    assert "Record search: 'refund' (2 hits)" in out.stdout
    assert (tmp_path / "memwise-demo.db").exists()


def test_bad_database_url_is_a_clear_error(tmp_path: Path) -> None:
    out = _memwise("migrate", "--database-url", "mysql://nobody", cwd=tmp_path)
    assert out.returncode == 2
    assert "bad_database_url" in out.stderr and "Traceback" not in out.stderr
