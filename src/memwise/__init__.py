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
one by ``WorkspaceId("ws_…")``, nothing at run time). Every other module is an
implementation detail that may move between releases.

The names below load on first use, so ``import memwise.client`` (the HTTP client) does not
pull in the database layer, numpy or the services.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_LAZY = {  # name → the module it is defined in (KnowledgeHit is knowledge's Hit)
    "AccountPolicy": "memwise.accounts.policy",
    "Agent": "memwise.domain.tenancy",
    "AgentId": "memwise.ids",
    "Channel": "memwise.domain.tenancy",
    "Clock": "memwise.clock",
    "Contact": "memwise.domain.tenancy",
    "ContactId": "memwise.ids",
    "Conversation": "memwise.domain.tenancy",
    "ConversationId": "memwise.ids",
    "ConversationStatus": "memwise.domain.tenancy",
    "connect": "memwise.bootstrap",
    "errors": "memwise.errors",
    "Evidence": "memwise.domain.memory",
    "FixedClock": "memwise.clock",
    "HistoryHit": "memwise.services.memory.history",
    "Item": "memwise.domain.memory",
    "ItemId": "memwise.ids",
    "Kind": "memwise.domain.memory",
    "KnowledgeHit": "memwise.services.knowledge.knowledge",
    "Limits": "memwise.policies.limits",
    "Memwise": "memwise.services.facade",
    "Message": "memwise.policies.window",
    "NewItem": "memwise.services.memory.memory",
    "NewTurn": "memwise.services.conversation.record",
    "Plan": "memwise.domain.tenancy",
    "Principal": "memwise.domain.access",
    "RecordHit": "memwise.domain.record",
    "Remembered": "memwise.services.facade",
    "Reply": "memwise.services.assistant.assistant",
    "Role": "memwise.domain.tenancy",
    "Served": "memwise.domain.memory",
    "SystemClock": "memwise.clock",
    "Trust": "memwise.domain.memory",
    "Turn": "memwise.domain.record",
    "TurnId": "memwise.ids",
    "User": "memwise.domain.tenancy",
    "UserId": "memwise.ids",
    "Workspace": "memwise.domain.tenancy",
    "WorkspaceId": "memwise.ids",
    "Written": "memwise.domain.memory",
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
    from memwise.accounts.policy import AccountPolicy
    from memwise.bootstrap import connect
    from memwise.clock import Clock, FixedClock, SystemClock
    from memwise.domain.access import Principal
    from memwise.domain.memory import Evidence, Item, Kind, Served, Trust, Written
    from memwise.domain.record import RecordHit, Turn
    from memwise.domain.tenancy import (
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
    from memwise.ids import AgentId, ContactId, ConversationId, ItemId, TurnId, UserId, WorkspaceId
    from memwise.policies.limits import Limits
    from memwise.policies.window import Message
    from memwise.services.assistant.assistant import Reply
    from memwise.services.conversation.record import NewTurn
    from memwise.services.facade import Memwise, Remembered
    from memwise.services.knowledge.knowledge import Hit as KnowledgeHit
    from memwise.services.memory.history import HistoryHit
    from memwise.services.memory.memory import NewItem


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
