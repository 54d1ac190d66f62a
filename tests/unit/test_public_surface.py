"""The curated ``memwise`` namespace: what it exports, and that each name is what it says."""

from __future__ import annotations

import dataclasses
import enum
import subprocess
import sys

import memwise

EXPECTED = {
    # the library (as the environment configures it, or each part given), the values it takes
    "connect", "Memwise", "NewTurn", "NewItem", "Evidence", "Limits", "Message", "Clock",
    "FixedClock", "SystemClock", "Principal", "AccountPolicy", "Settings", "errors",
    "__version__",
    # the results it returns
    "Workspace", "Agent", "Contact", "User", "Conversation", "Turn", "Item", "Written",
    "Served", "Reply", "Remembered", "HistoryHit", "KnowledgeHit", "RecordHit",
    # their enumerations
    "Kind", "Trust", "Role", "Plan", "Channel", "ConversationStatus",
    # the typed ids results carry
    "WorkspaceId", "AgentId", "UserId", "ContactId", "ConversationId", "TurnId", "ItemId",
}  # fmt: skip
IDS = {"WorkspaceId", "AgentId", "UserId", "ContactId", "ConversationId", "TurnId", "ItemId"}


def test_the_namespace_exports_exactly_the_curated_names() -> None:
    assert set(memwise.__all__) == EXPECTED
    assert sorted(dir(memwise)) == sorted(EXPECTED)


def test_every_exported_name_resolves_to_a_class_or_module_of_that_name() -> None:
    for name in IDS:  # NewTypes of str: the same value at run time, told apart when checked
        assert getattr(memwise, name).__supertype__ is str and getattr(memwise, name)("x") == "x"
    assert callable(memwise.connect) and memwise.connect.__name__ == "connect"
    for name in EXPECTED - IDS - {"errors", "__version__", "connect"}:
        value = getattr(memwise, name)
        assert isinstance(value, type), name
        assert value.__name__ == ("Hit" if name == "KnowledgeHit" else name)


def test_results_are_dataclasses_and_statuses_enumerations() -> None:
    results = ["Workspace", "Agent", "Contact", "Conversation", "Turn", "Item", "Written"]
    results += ["Served", "Reply", "Remembered", "HistoryHit", "KnowledgeHit", "RecordHit"]
    for name in results:
        assert dataclasses.is_dataclass(getattr(memwise, name)), name
    for name in ("Kind", "Trust", "Role", "Plan", "Channel", "ConversationStatus"):
        assert issubclass(getattr(memwise, name), enum.StrEnum), name


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        memwise.Nothing  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "Nothing" in str(exc)
    else:
        raise AssertionError("memwise.Nothing resolved")


def test_importing_memwise_loads_no_services_until_a_name_is_used() -> None:
    code = "import sys, memwise; print(any(m.startswith('memwise._services') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_clients_methods_have_their_real_signatures() -> None:
    import inspect

    from memwise.client import AsyncClient, Client

    for cls in (Client, AsyncClient):
        for name, member in vars(cls).items():
            if name.startswith("_") or not callable(member):
                continue
            params = inspect.signature(member).parameters.values()
            kinds = {p.kind for p in params}
            assert inspect.Parameter.VAR_POSITIONAL not in kinds, (cls.__name__, name)
            assert next(iter(params)).name == "self", (cls.__name__, name)
            assert member.__qualname__ == f"{cls.__name__}.{name}"  # as a method is named
