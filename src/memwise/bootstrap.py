"""The composition root: the library as the settings configure it.

Every door that serves or works for a deployment — the HTTP server, the worker, the
importer, the MCP server, Telegram — opens memwise here, so each is built with the same
models, extractor, summariser, embedder and policies. Settings are read elsewhere
(``memwise.config``); this is the one place they are turned into a running ``Memwise``.
"""

from __future__ import annotations

import gc

from memwise.clock import WorkspaceClocks
from memwise.config import Settings
from memwise.services.facade import Memwise


def open_memwise(settings: Settings, *, migrate: bool = True) -> Memwise:
    """The library as ``settings`` configure it (models, embedder, test clock, metering)."""
    return Memwise.open(
        settings.database_url,
        clock=WorkspaceClocks() if settings.test_clock else None,
        limits=settings.limits,
        migrate=migrate,
        extractor=settings.make_extractor(),
        summariser=settings.make_summariser(),
        embedder=settings.make_embedder(),
        chat_model=settings.make_chat_model(),
        verifier=settings.make_verifier(),
        account_policy=settings.account_policy(),
        metering=settings.metering,
    )


def settle() -> None:
    """Keep what start-up made (modules, settings, models' wrappers: ~10^5 objects that
    live as long as the process) out of the garbage collector's way. Each full collection
    walks every tracked object and lands on whichever request allocates next: 30–70 ms on
    a contact's first record recall here (bench/recall_cold.py). Collected once first, so
    no garbage is kept with them. For long-lived processes (the server, the worker), once
    they are open."""
    gc.collect()
    gc.freeze()
