"""memwise errors → HTTP, in one place, always in one error shape (docs/http.md)."""

from __future__ import annotations

import json
import logging
import traceback
import uuid
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memwise import errors

STATUS: dict[type[errors.MemwiseError], int] = {
    errors.NotFound: 404,
    errors.Conflict: 409,
    errors.Invalid: 422,
    errors.LimitExceeded: 409,
    errors.Unauthorized: 401,
    errors.Forbidden: 403,
    errors.Unavailable: 503,
}


class RateLimited(errors.LimitExceeded):
    """Too many requests: slow down and try again shortly."""

    code = "rate_limited"


class TooLarge(errors.Invalid):
    """The request body is too large."""

    code = "request_too_large"


class NotText(errors.Invalid):
    """The request holds NUL (or half a surrogate pair), which cannot be stored as text."""

    code = "control_characters"


SPECIAL = {RateLimited: 429, TooLarge: 413}


def body(
    code: str, message: str, details: dict[str, Any] | None = None, kind: str | None = None
) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message, "details": details or {}}
    if kind is not None:
        error["kind"] = kind  # the memwise.errors class, for clients (memwise.errors.from_answer)
    return {"error": error}


def kind_of(exc: errors.MemwiseError) -> str:
    """The nearest public class of the error tree, by its own code (``refused``, ``not_found``
    …): what a client raises, whatever the specific ``code``."""
    for kind in type(exc).__mro__:
        if kind in errors.KINDS.values():
            return str(kind.__dict__["code"])
    return "error"


def status_of(exc: errors.MemwiseError) -> int:
    for kind in type(exc).__mro__:
        if kind in SPECIAL:
            return SPECIAL[kind]
        if kind in STATUS:
            return STATUS[kind]
    return 400


def respond(exc: errors.MemwiseError) -> JSONResponse:
    return JSONResponse(
        body(exc.code, exc.message, _jsonable(exc.details), kind_of(exc)), status_of(exc)
    )


def _jsonable(details: dict[str, Any]) -> dict[str, Any]:
    return {
        k: v if isinstance(v, str | int | float | bool | list | dict) or v is None else str(v)
        for k, v in details.items()
    }


def install(app: FastAPI) -> None:
    @app.exception_handler(errors.MemwiseError)
    async def _memwise(_: Request, exc: errors.MemwiseError) -> JSONResponse:
        return respond(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [
            {"at": ".".join(str(p) for p in e.get("loc", ())), "problem": e.get("msg", "")}
            for e in exc.errors()
        ]
        if any(e.get("type") == "json_invalid" for e in exc.errors()):
            return JSONResponse(body("invalid_json", "the body is not valid JSON"), 400)
        sent = request.headers.get("content-type", "").split(";")[0].strip().lower()
        whole_body = [e for e in exc.errors() if tuple(e.get("loc", ())) == ("body",)]
        if whole_body and not sent.endswith("json"):
            return JSONResponse(
                body(
                    "json_body_required",
                    "send the body as JSON, with the header 'Content-Type: application/json'",
                ),
                422,
            )
        first = problems[0] if problems else {"at": "", "problem": "invalid"}
        return JSONResponse(
            body("validation_error", f"{first['at']}: {first['problem']}", {"problems": problems}),
            422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse(body(code, str(exc.detail)), exc.status_code)


log = logging.getLogger("memwise._api")


class ErrorIds:
    """An unexpected error becomes a 500 with an error id; the log gets the id, the route and
    the stack, never the exception's message or SQL parameters (they may hold customer text)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        except Exception as exc:
            error_id = uuid.uuid4().hex[:16]
            stack = "".join(traceback.format_tb(exc.__traceback__))
            log.error(
                "error %s on %s %s: %s\n%s",
                error_id,
                scope.get("method"),
                scope.get("path"),
                type(exc).__name__,
                stack,
            )
            if started:
                return
            payload = body(
                "internal_error",
                f"something went wrong on our side (error id {error_id})",
                {"error_id": error_id},
            )
            await send(
                {
                    "type": "http.response.start",
                    "status": 500,
                    "headers": [(b"content-type", b"application/json")],
                }
            )
            await send({"type": "http.response.body", "body": json.dumps(payload).encode()})
