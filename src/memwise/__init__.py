"""memwise: the memory layer of a business's AI assistant."""

from memwise import errors
from memwise.clock import Clock, FixedClock, SystemClock
from memwise.policies.limits import Limits
from memwise.services.facade import Memwise

__version__ = "0.1.0"

__all__ = ["Clock", "FixedClock", "Limits", "Memwise", "SystemClock", "__version__", "errors"]
