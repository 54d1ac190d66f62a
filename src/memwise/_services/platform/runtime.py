"""What every service needs: the database, the clock, the limits and the event bus."""

from __future__ import annotations

from dataclasses import dataclass, field

from memwise._clock import Clock, SystemClock
from memwise._policies.limits import Limits
from memwise._services.platform.bus import Bus
from memwise._storage.engine import Database


@dataclass
class Runtime:
    db: Database
    clock: Clock = field(default_factory=SystemClock)
    limits: Limits = field(default_factory=Limits)
    embedder_id: str | None = None  # the configured embedder's, when there is one
    # plans and monthly allowances apply (MEMWISE_METERING, for hosted operators); off by
    # default: a self-hosted server meters nothing, and usage is still counted
    metering: bool = False
    bus: Bus = field(default_factory=Bus)  # events inside a unit of work (platform/bus.py)
