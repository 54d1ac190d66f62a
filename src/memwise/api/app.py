"""The FastAPI application: ``create_app(settings)``."""

from __future__ import annotations

from fastapi import FastAPI

from memwise import __version__
from memwise.api import errors as api_errors
from memwise.api.limits import BodyLimit, RateLimiter
from memwise.api.routes import (
    accounts,
    admin,
    assistant,
    conversations,
    jobs,
    knowledge,
    memory,
    notebook,
    setup,
)
from memwise.clock import WorkspaceClocks
from memwise.config import Settings
from memwise.services.facade import Memwise


def create_app(settings: Settings, mw: Memwise | None = None) -> FastAPI:
    """Build the app. With ``mw`` given the caller owns it; otherwise it is opened here."""
    if mw is None:
        clock = WorkspaceClocks() if settings.test_clock else None
        mw = Memwise.open(
            settings.database_url,
            clock=clock,
            limits=settings.limits,
            extractor=settings.make_extractor(),
        )
    app = FastAPI(
        title="memwise",
        version=__version__,
        description="The memory layer of a business's AI assistant.",
    )
    app.state.mw = mw
    app.state.settings = settings
    app.state.rate_limiter = RateLimiter(settings.rate_limit_per_minute)
    api_errors.install(app)
    for module in (
        setup,
        conversations,
        notebook,
        memory,
        jobs,
        knowledge,
        accounts,
        assistant,
        admin,
    ):
        app.include_router(module.router)
    app.add_middleware(BodyLimit, max_bytes=settings.max_request_bytes)
    return app
