"""Entry point for uvicorn: ``uvicorn --factory memwise._server.main:app``."""

from __future__ import annotations

from fastapi import FastAPI

from memwise._bootstrap import settle
from memwise._config import Settings
from memwise._observability import configure_logging
from memwise._server.app import create_app


def app() -> FastAPI:
    settings = Settings()
    configure_logging(settings.log_format)
    if settings.packs_dir:
        from memwise._extraction import pack

        pack.use_dir(settings.packs_dir)
    built = create_app(settings)
    settle()  # a long-lived process: what start-up made stays out of every collection
    return built
