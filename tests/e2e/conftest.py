"""A real ``memwise serve`` process on a free loopback port, one per test process.

Starting a server (imports, models) takes seconds, so the tests of one process share it;
each test makes its own workspace (its own key, data, test clock and limits), which is the
isolation a server gives its tenants. A test that needs a server to itself starts one with
``start_server``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

ADMIN = "e2e-admin-token"


@dataclass
class Server:
    url: str
    database_url: str


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[Server]:
    """The test process's server (see the module's docstring)."""
    yield from start_server(tmp_path_factory.mktemp("serve"), sqlite_template)


def start_server(folder: Path, template: Path | None = None) -> Iterator[Server]:
    """``memwise serve`` on a database in ``folder`` (a copy of the migrated ``template``)."""
    port = free_port()
    if template is not None:
        shutil.copy(template, folder / "serve.db")
    db = f"sqlite:///{folder / 'serve.db'}"
    exe = Path(sys.executable).parent / "memwise"
    env = {**os.environ, "MEMWISE_ADMIN_TOKEN": ADMIN}
    proc = subprocess.Popen(
        [str(exe), "serve", "--port", str(port), "--database-url", db, "--test-clock"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/v1/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                out = proc.stdout.read().decode() if proc.stdout else ""
                raise RuntimeError(f"memwise serve did not start:\n{out}")
            time.sleep(0.1)
        yield Server(url, db)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
