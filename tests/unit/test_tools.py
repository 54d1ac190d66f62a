"""The tool registry: every tool declared once, fully described, the same for every door."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

from memwise._services.assistant import tools

SRC = Path(__file__).resolve().parents[2] / "src" / "memwise"


def test_every_argument_of_every_tool_is_described() -> None:
    for tool in tools.TOOLS:
        assert tool.description.strip(), tool.name
        for door in tool.doors:
            props = tool.schema(door).get("properties", {})
            for name, prop in props.items():
                assert prop.get("description"), (tool.name, name)


def test_names_are_unique_and_the_model_never_sees_bound_arguments() -> None:
    assert len(tools.BY_NAME) == len(tools.TOOLS)
    for tool in tools.TOOLS:
        shown = tool.schema(tools.Door.model).get("properties", {})
        assert not set(tool.bound) & set(shown), tool.name
        full = tool.schema(tools.Door.mcp).get("properties", {})
        assert set(tool.bound) <= set(full), tool.name


def test_a_customer_conversation_is_offered_no_staff_tools() -> None:
    customer = SimpleNamespace(id="cnv_1", contact_id="con_1", user_id=None)
    staff = SimpleNamespace(id="cnv_2", contact_id=None, user_id="usr_1")
    offered = {s["name"] for s in tools.specs(customer)}
    assert offered == {"lookup_account", "search_knowledge", "recall", "create_ticket"}
    staff_offered = {s["name"] for s in tools.specs(staff)}
    assert {"remember_rule", "forget_rule", "list_rules"} <= staff_offered
    assert "recall" not in staff_offered  # no contact to recall in a staff conversation


def test_limits_are_one_rule_for_every_door() -> None:
    search = tools.BY_NAME["search_knowledge"]
    for door in (tools.Door.model, tools.Door.mcp):
        limit = search.schema(door)["properties"]["limit"]
        assert limit["default"] == 5 and limit["maximum"] == tools.MAX_LIMIT


def test_tools_are_defined_only_in_the_registry() -> None:
    """No door declares a tool by hand: no MCP decorators, no function-spec literals."""
    by_hand = []
    for path in sorted(SRC.rglob("*.py")):
        if path.name == "tools.py" and path.parent.name == "assistant":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                if {"name", "parameters"} <= keys:
                    by_hand.append(f"{path}: a tool spec by hand")
            decorator = isinstance(node, ast.Attribute) and node.attr == "tool"
            if decorator and isinstance(node.value, ast.Name) and node.value.id == "server":
                by_hand.append(f"{path}: an MCP decorator")
    assert by_hand == []
