"""The HTTP client is light: importing it loads neither the database layer nor numpy."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("sqlalchemy", "numpy", "fastapi", "memwise._services", "memwise._storage")


def test_the_client_imports_without_the_server_side() -> None:
    probe = (
        "import json, sys; import memwise.client; from memwise import __version__; "
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = json.loads(out.stdout)
    assert not [m for m in loaded if m.startswith(HEAVY)], [
        m for m in loaded if m.startswith(HEAVY)
    ]
