"""`memwise telegram` as a user runs it, against a fake Bot API on loopback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from memwise.client import Client
from memwise.testing import FakeTelegramServer
from tests.e2e.conftest import ADMIN, Server


def test_the_command_answers_on_telegram(server: Server) -> None:
    with Client(server.url, ADMIN) as admin:
        key = admin.create_workspace("Tele Co").api_key
    assert key
    with Client(server.url, key) as mw:
        agent = mw.create_agent("Bot")
        mw.add_document("Hours", "We are open Monday to Friday from 9 to 17.", kind="policy")
    fake = FakeTelegramServer()
    exe = Path(sys.executable).parent / "memwise"
    env = {**os.environ, "MEMWISE_API_KEY": key, "MEMWISE_TELEGRAM_TOKEN": "1:T"}
    args = ["telegram", "--agent", agent.id, "--api-url", fake.url]
    proc = subprocess.Popen(
        [str(exe), *args, "--database-url", server.database_url],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        fake.say(555, "When are you open on Monday?")
        (reply,) = fake.wait_for_sent(1, timeout=30)
        assert "Monday to Friday" in reply["text"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        fake.close()
    with Client(server.url, key) as mw:
        (conv,) = mw.conversations().items
        assert conv.channel == "telegram"
        assert [t.role for t in mw.turns(conv.id).items] == ["customer", "assistant"]
