"""The TypeScript client (clients/typescript): its types come from the current OpenAPI
document, it builds with tsc, and its own tests pass against a real ``memwise serve``."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import ADMIN, Server

ROOT = Path(__file__).parent.parent.parent
PACKAGE = ROOT / "clients" / "typescript"


def test_the_generated_types_are_from_the_current_openapi_document() -> None:
    document = (ROOT / "docs" / "openapi.json").read_bytes()
    schema = (PACKAGE / "src" / "schema.ts").read_text()
    found = re.search(r"openapi sha256: ([0-9a-f]{64})", schema)
    assert found, "src/schema.ts lost its header: run `npm run generate` in clients/typescript"
    assert found.group(1) == hashlib.sha256(document).hexdigest(), (
        "docs/openapi.json changed since the TypeScript types were generated: "
        "run `npm run generate` in clients/typescript"
    )


def _npm() -> str:
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        if os.environ.get("CI"):
            pytest.fail("Node.js is required in CI (Debian's nodejs and npm)")
        pytest.skip("Node.js is not installed (Debian: apt-get install nodejs npm)")
    return npm


def _run(args: list[str], env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        args, cwd=PACKAGE, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{output[-6000:]}"
    return output


def test_the_typescript_client_against_a_real_server(server: Server) -> None:
    npm = _npm()
    _run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"])
    env = {**os.environ, "MEMWISE_URL": server.url, "MEMWISE_ADMIN_TOKEN": ADMIN}
    output = _run([npm, "test"], env)
    passed = re.search(r"# pass (\d+)", output)
    assert passed and int(passed.group(1)) >= 7, output[-3000:]
    assert re.search(r"# fail 0\b", output), output[-3000:]

    # the door page's example, as written: inside the package, so its name resolves
    page = (ROOT / "docs" / "doors" / "typescript-client.md").read_text()
    example = re.search(r"```js\n(.*?)```", page, re.S)
    assert example is not None
    script = PACKAGE / "test" / ".page-example.mjs"
    script.write_text(example.group(1))
    try:
        shown = _run([shutil.which("node") or "node", str(script)], env)
    finally:
        script.unlink()
    for expected in ("applied [ 'Is vegetarian'", "Lives in Leeds", "created", "crm-7781", "404"):
        assert expected in shown, shown
