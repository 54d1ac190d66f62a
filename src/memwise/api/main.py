"""Entry point for uvicorn: ``uvicorn --factory memwise.api.main:app``."""

from __future__ import annotations

from fastapi import FastAPI

from memwise.api.app import create_app
from memwise.config import Settings


def app() -> FastAPI:
    return create_app(Settings())
