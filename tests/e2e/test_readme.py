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


def test_the_http_quick_start_runs(tmp_path: Path) -> None:
    """The README's HTTP quick start, as written, on a port of its own."""
    import socket

    block = re.search(
        r"## HTTP quick start from zero\n\n```bash\n(.*?)```", README.read_text(), re.S
    )
    assert block is not None
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    venv = str(Path(sys.executable).parent.parent)
    script = block.group(1).replace("8000", str(port)).replace(".venv", venv)
    script = "set -e\n" + script + "\nkill %1\n"
    out = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert '"status":"applied"' in out.stdout and "Is vegetarian" in out.stdout
    assert "the customer said: Prefers to be contacted by email." in out.stdout
