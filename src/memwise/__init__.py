"""memwise: the memory layer of a business's AI assistant.

The public surface: ``connect`` (memwise as the environment configures it, the local
embedder on: recall by meaning), ``Memwise`` (the library, each part given), the values
it takes (``NewTurn``, ``NewItem``, ``Evidence``, ``Limits``, clocks, ``Principal``,
``AccountPolicy``), the results it returns (``Workspace``, ``Agent``, ``Contact``,
``User``, ``Conversation``, ``Turn``, ``Item``, ``Written``, ``Served``, ``Reply``,
``Remembered``, ``HistoryHit``, ``KnowledgeHit``, ``RecordHit``), their enumerations, the
typed ids results carry (``WorkspaceId``, ``ContactId``, ``ConversationId`` …) and
``errors``. Every method takes a
workspace as a ``WorkspaceId`` (``Workspace.id`` is one; an id read from elsewhere becomes
one by ``WorkspaceId("ws_…")``, nothing at run time). ``Settings`` is the configuration the
entry points read from ``MEMWISE_*`` variables.

Public modules: ``memwise``, ``memwise.errors``, ``memwise.client`` (the HTTP client and
its framework adapters) and ``memwise.testing`` (fakes for users' own tests). Every other
module's name starts with an underscore: an implementation detail that may move between
releases.

The names below load on first use, so ``import memwise.client`` (the HTTP client) does not
pull in the database layer, numpy or the services.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_LAZY = {  # name → the module it is defined in (KnowledgeHit is knowledge's Hit)
    "AccountPolicy": "memwise._accounts.policy",
    "Agent": "memwise._domain.tenancy",
    "AgentId": "memwise._ids",
    "Channel": "memwise._domain.tenancy",
    "Clock": "memwise._clock",
    "Contact": "memwise._domain.tenancy",
    "ContactId": "memwise._ids",
    "Conversation": "memwise._domain.tenancy",
    "ConversationId": "memwise._ids",
    "ConversationStatus": "memwise._domain.tenancy",
    "connect": "memwise._bootstrap",
    "errors": "memwise.errors",
    "Evidence": "memwise._domain.memory",
    "FixedClock": "memwise._clock",
    "HistoryHit": "memwise._services.memory.history",
    "Item": "memwise._domain.memory",
    "ItemId": "memwise._ids",
    "Kind": "memwise._domain.memory",
    "KnowledgeHit": "memwise._services.knowledge.knowledge",
    "Limits": "memwise._policies.limits",
    "Memwise": "memwise._services.facade",
    "Message": "memwise._policies.window",
    "NewItem": "memwise._services.memory.memory",
    "NewTurn": "memwise._services.conversation.record",
    "Plan": "memwise._domain.tenancy",
    "Principal": "memwise._domain.access",
    "RecordHit": "memwise._domain.record",
    "Remembered": "memwise._services.facade",
    "Reply": "memwise._services.assistant.assistant",
    "Role": "memwise._domain.tenancy",
    "Served": "memwise._domain.memory",
    "Settings": "memwise._config",
    "SystemClock": "memwise._clock",
    "Trust": "memwise._domain.memory",
    "Turn": "memwise._domain.record",
    "TurnId": "memwise._ids",
    "User": "memwise._domain.tenancy",
    "UserId": "memwise._ids",
    "Workspace": "memwise._domain.tenancy",
    "WorkspaceId": "memwise._ids",
    "Written": "memwise._domain.memory",
}

__all__ = [
    "AccountPolicy",
    "Agent",
    "AgentId",
    "Channel",
    "Clock",
    "Contact",
    "ContactId",
    "Conversation",
    "ConversationId",
    "ConversationStatus",
    "Evidence",
    "FixedClock",
    "HistoryHit",
    "Item",
    "ItemId",
    "Kind",
    "KnowledgeHit",
    "Limits",
    "Memwise",
    "Message",
    "NewItem",
    "NewTurn",
    "Plan",
    "Principal",
    "RecordHit",
    "Remembered",
    "Reply",
    "Role",
    "Served",
    "Settings",
    "SystemClock",
    "Trust",
    "Turn",
    "TurnId",
    "User",
    "UserId",
    "Workspace",
    "WorkspaceId",
    "Written",
    "__version__",
    "connect",
    "errors",
]

if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from memwise import errors
    from memwise._accounts.policy import AccountPolicy
    from memwise._bootstrap import connect
    from memwise._clock import Clock, FixedClock, SystemClock
    from memwise._config import Settings
    from memwise._domain.access import Principal
    from memwise._domain.memory import Evidence, Item, Kind, Served, Trust, Written
    from memwise._domain.record import RecordHit, Turn
    from memwise._domain.tenancy import (
        Agent,
        Channel,
        Contact,
        Conversation,
        ConversationStatus,
        Plan,
        Role,
        User,
        Workspace,
    )
    from memwise._ids import AgentId, ContactId, ConversationId, ItemId, TurnId, UserId, WorkspaceId
    from memwise._policies.limits import Limits
    from memwise._policies.window import Message
    from memwise._services.assistant.assistant import Reply
    from memwise._services.conversation.record import NewTurn
    from memwise._services.facade import Memwise, Remembered
    from memwise._services.knowledge.knowledge import Hit as KnowledgeHit
    from memwise._services.memory.history import HistoryHit
    from memwise._services.memory.memory import NewItem


_ALIASES = {"KnowledgeHit": "Hit"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'memwise' has no attribute {name!r}")
    found = import_module(module)
    value = found if name == "errors" else getattr(found, _ALIASES.get(name, name))
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
