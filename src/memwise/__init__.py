"""memwise: the memory layer of a business's AI assistant.

The names below load on first use, so ``import memwise.client`` (the HTTP client) does not
pull in the database layer, numpy or the services.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_LAZY = {
    "Clock": "memwise.clock",
    "FixedClock": "memwise.clock",
    "SystemClock": "memwise.clock",
    "Limits": "memwise.policies.limits",
    "Memwise": "memwise.services.facade",
    "Message": "memwise.policies.window",
    "NewTurn": "memwise.services.conversation.record",
    "NewItem": "memwise.services.memory.memory",
    "Evidence": "memwise.domain.memory",
    "Principal": "memwise.domain.access",
    "AccountPolicy": "memwise.accounts.policy",
    "errors": "memwise.errors",
}

__all__ = [
    "AccountPolicy",
    "Clock",
    "Evidence",
    "FixedClock",
    "Limits",
    "Memwise",
    "Message",
    "NewItem",
    "NewTurn",
    "Principal",
    "SystemClock",
    "__version__",
    "errors",
]

if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from memwise import errors
    from memwise.accounts.policy import AccountPolicy
    from memwise.clock import Clock, FixedClock, SystemClock
    from memwise.domain.access import Principal
    from memwise.domain.memory import Evidence
    from memwise.policies.limits import Limits
    from memwise.policies.window import Message
    from memwise.services.conversation.record import NewTurn
    from memwise.services.facade import Memwise
    from memwise.services.memory.memory import NewItem


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'memwise' has no attribute {name!r}")
    found = import_module(module)
    value = found if name == "errors" else getattr(found, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
