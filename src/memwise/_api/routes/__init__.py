"""The API's routes, one module per part. Every operation declares its response model
(``memwise.client.models``: the same types the Python client returns), so the OpenAPI
document describes every answer."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.routing import APIRoute


class Route(APIRoute):
    """An answer is checked against its model and written as the service shaped it: only
    the fields it set (no defaults added), extra fields kept."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["response_model_exclude_unset"] = True
        super().__init__(*args, **kwargs)


def router(prefix: str = "/v1") -> APIRouter:
    return APIRouter(prefix=prefix, route_class=Route)
