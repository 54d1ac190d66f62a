"""MCP as a client reaches it: streamable HTTP at /mcp/ on `memwise serve`, and `memwise mcp`."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from memwise.client import Client as Http
from tests.e2e.conftest import ADMIN, Server


def workspace(server: Server) -> tuple[str, str]:
    with Http(server.url, ADMIN) as admin:
        key = admin.create_workspace("Doors Co").api_key
    assert key
    with Http(server.url, key) as mw:
        user = mw.create_user("Sam", role="operator")
        own = mw.create_api_key("owner", user_id=user.id).api_key  # Sam's: his notebook is his
    assert own
    return own, user.id


async def remember_and_list(client: Client, user_id: str) -> tuple[Any, Any]:
    added = await client.call_tool("remember_rule", {"user_id": user_id, "text": "Use metric."})
    listed = await client.call_tool("list_rules", {"user_id": user_id})
    return added, listed


def test_streamable_http_needs_the_bearer_key(server: Server) -> None:
    key, user_id = workspace(server)

    async def scenario(token: str) -> tuple[Any, Any]:
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx2.AsyncClient(headers=headers) as http:
            transport = streamable_http_client(f"{server.url}/mcp/", http_client=http)
            async with Client(transport) as client:
                return await remember_and_list(client, user_id)

    added, listed = asyncio.run(scenario(key))
    assert not added.is_error and added.structured_content["duplicate"] is False
    assert [r["text"] for r in listed.structured_content["rules"]] == ["Use metric."]

    with pytest.raises(BaseException):  # noqa: B017  refused at connect, before any tool
        asyncio.run(scenario("mw_wrong"))
    bare = httpx2.post(f"{server.url}/mcp/", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert bare.status_code == 401 and bare.json()["error"]["code"] == "unauthorized"
    with Http(server.url, key) as mw:
        assert len(mw.notebook(user_id).items) == 1  # the refused connection wrote nothing
        assert any(e.tool == "mcp.remember_rule" for e in mw.audit().items)


def test_stdio_command_serves_the_same_tools(server: Server) -> None:
    key, user_id = workspace(server)
    exe = Path(sys.executable).parent / "memwise"
    params = StdioServerParameters(
        command=str(exe),
        args=["mcp", "--database-url", server.database_url],
        env={**os.environ, "MEMWISE_API_KEY": key},
    )

    async def scenario() -> tuple[set[str], Any, Any]:
        async with Client(params) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            added, listed = await remember_and_list(client, user_id)
            return tools, added, listed

    tools, added, listed = asyncio.run(scenario())
    assert {"recall", "record_turn", "end_conversation"} <= tools
    assert not added.is_error
    assert [r["text"] for r in listed.structured_content["rules"]] == ["Use metric."]
