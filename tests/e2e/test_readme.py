"""The README's library example runs exactly as written (docs that cannot go stale)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).parent.parent.parent / "README.md"


def test_readme_opens_with_the_two_commands() -> None:
    text = README.read_text()
    first = re.search(r"```bash\n(.*?)```", text, re.S)
    assert first is not None
    commands = [ln for ln in first.group(1).splitlines() if ln.strip()]
    assert len(commands) == 2
    assert commands[0].endswith("memwise demo") and commands[1].endswith("scripts/test")
    ci = (README.parent / ".ci" / "run").read_text()
    assert commands[1] in ci  # CI runs the README's test command, exactly


def test_the_library_example_runs(tmp_path: Path) -> None:
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S)
    assert code is not None
    out = subprocess.run(
        [sys.executable, "-c", code.group(1)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "the customer said: Prefers to be contacted by email." in out.stdout
