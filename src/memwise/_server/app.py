"""The FastAPI application: ``create_app(settings)``."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from memwise import __version__, errors
from memwise._api import metrics as metrics_routes
from memwise._api.routes import (
    accounts,
    admin,
    assistant,
    builder,
    conversations,
    events,
    jobs,
    knowledge,
    memory,
    notebook,
    setup,
    webhooks,
)
from memwise._bootstrap import open_memwise
from memwise._config import Settings
from memwise._services.facade import Memwise
from memwise._web import errors as api_errors
from memwise._web import threads
from memwise._web.address import client_address
from memwise._web.limits import AuthThrottle, BodyLimit, RateLimiter, SecurityHeaders

log = logging.getLogger("memwise._api")

# Matched in this order, route by route (about 1.5 µs a route): the paths of every turn
# first — /v1/context was reached after ~120 others, 0.2 ms a request. No two routers
# share a path (a test checks), so the order decides nothing else.
ROUTERS = (
    assistant,
    conversations,
    memory,
    knowledge,
    accounts,
    notebook,
    webhooks,
    setup,
    builder,
    jobs,
    events,
    admin,
)


def create_app(settings: Settings, mw: Memwise | None = None) -> FastAPI:
    """Build the app. With ``mw`` given the caller owns it; otherwise it is opened here."""
    sessions: list[Any] = []

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        threads.configure(settings.threads())
        async with AsyncExitStack() as stack:
            for manager in sessions:
                await stack.enter_async_context(manager.run())
            embedded = EmbeddedWorker(app.state.mw, settings.worker_poll_s)
            app.state.worker = embedded
            if settings.embedded_worker:
                embedded.start()
            try:
                yield
            finally:
                embedded.stop()

    app = FastAPI(
        lifespan=lifespan,
        title="memwise",
        version=__version__,
        description="The memory layer of a business's AI assistant.",
        docs_url=None,  # served below from the package's own Swagger UI: it works offline
    )
    app.state.mw = mw or open_memwise(settings)
    app.state.settings = settings
    app.state.rate_limiter = RateLimiter(
        settings.rate_limit_per_minute, app.state.mw.buckets, "requests"
    )
    app.state.auth_throttle = AuthThrottle(settings.auth_failures_per_minute, app.state.mw.buckets)
    api_errors.install(app)
    for module in ROUTERS:
        app.include_router(module.router)
    app.include_router(metrics_routes.router)
    mount_console(app)
    mount_docs(app)
    mount_mcp(app, sessions)
    app.add_middleware(BodyLimit, max_bytes=settings.max_request_bytes)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(api_errors.ErrorIds)
    app.add_middleware(metrics_routes.Observed)
    if settings.cors_origins:  # outermost: error answers (413, 422, 429, 500) carry it too
        app.add_middleware(
            CORSMiddleware,
            allow_origins=[o.strip() for o in settings.cors_origins.split(",") if o.strip()],
            allow_methods=["GET", "POST", "PATCH", "PUT", "DELETE"],
            allow_headers=["Authorization", "Content-Type"],
        )
    return app


def mount_docs(app: FastAPI) -> None:
    """The API docs page at /docs, with Swagger UI's files (a version that reads OpenAPI 3.1)
    from the fastapi-offline package: no CDN, so the page works without the internet."""
    from pathlib import Path

    import fastapi_offline
    from fastapi.openapi.docs import get_swagger_ui_html

    assets = Path(fastapi_offline.__file__).parent / "static"
    app.mount("/docs/static", StaticFiles(directory=assets), name="docs")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Any:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="memwise — API",
            swagger_js_url="/docs/static/swagger-ui-bundle.js",
            swagger_css_url="/docs/static/swagger-ui.css",
            swagger_favicon_url="/docs/static/favicon.png",
        )


class EmbeddedWorker:
    """The job worker in a background thread of the server (``memwise serve``'s default on
    the embedded database): one command extracts, expires idle windows and runs the sweeps."""

    def __init__(self, mw: Memwise, poll_s: float) -> None:
        self.worker = mw.worker(name=f"serve:{os.getpid()}")
        self.poll_s = poll_s
        self.running = False
        self.last_error: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.running = True
        self._thread = threading.Thread(target=self._loop, name="memwise-worker", daemon=True)
        self._thread.start()
        log.info("the worker runs in this process, polling every %gs", self.poll_s)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                ran = self.worker.run_once(max_jobs=1)  # a stop is seen between jobs
                self.last_error = self.worker.errors[-1] if self.worker.errors else None
            except Exception as exc:  # the database went away a moment: try again later
                self.last_error = f"{type(exc).__name__}"
                log.error("the embedded worker's run failed: %s", type(exc).__name__)
                ran = None
            if not ran:
                self._stop.wait(self.poll_s)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        self.running = False


def mount_mcp(app: FastAPI, sessions: list[Any]) -> None:
    """The MCP tools over streamable HTTP at /mcp, when the ``mcp`` extra is installed; a
    clear 501 with the install hint when it is not. A connection needs a valid workspace key
    before any MCP message is read."""
    try:
        from memwise._doors.mcp_server import build_server
    except ImportError:  # the optional extra is absent
        app.mount("/mcp", _mcp_missing)
        return
    server = build_server(app.state.mw, per_minute=app.state.settings.rate_limit_per_minute)
    inner = server.streamable_http_app(streamable_http_path="/", stateless_http=True)
    app.mount("/mcp", KeyRequired(inner, app))
    sessions.append(server.session_manager)
    log.info("MCP tools mounted at /mcp/")


class KeyRequired:
    """Authentication at connect: a request to /mcp without a valid workspace key is a 401
    before the MCP server sees it (each tool call checks the key again)."""

    def __init__(self, app: Any, host: FastAPI) -> None:
        self.app = app
        self.host = host

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        scheme, _, token = headers.get("authorization", "").partition(" ")
        token = token.strip()
        mw = self.host.state.mw
        given = scheme.lower() == "bearer" and bool(token)
        ok = given and not token.startswith("vt_")
        if ok:
            ok = await run_in_threadpool(mw.tenancy.authenticate_key, token) is not None
        if not ok:  # counted and throttled like every door's bad keys (a valid key passes)
            throttle = self.host.state.auth_throttle
            address = client_address(Request(scope))
            try:
                await run_in_threadpool(throttle.refuse_if_blocked, address)
                await run_in_threadpool(throttle.failed, address, token[:10])
            except errors.LimitExceeded as exc:
                await JSONResponse(api_errors.body(exc.code, exc.message), status_code=429)(
                    scope, receive, send
                )
                return
            message = (
                "that workspace key is not valid"
                if given
                else "MCP needs 'Authorization: Bearer <workspace key>'"
            )
            await JSONResponse(api_errors.body("unauthorized", message), status_code=401)(
                scope, receive, send
            )
            return
        await self.app(scope, receive, send)


async def _mcp_missing(scope: Any, receive: Any, send: Any) -> None:
    if scope["type"] == "http":
        await JSONResponse(
            api_errors.body(
                "mcp_not_installed",
                "the MCP tools need the mcp extra: pip install 'memwise[mcp]'",
            ),
            status_code=501,
        )(scope, receive, send)


def mount_console(app: FastAPI) -> None:
    """The operator console at /console and the widget script at /widget.js."""
    from memwise._console import routes, setup_pages  # noqa: F401 (its pages register)

    static = routes.HERE / "static"
    app.include_router(routes.router)
    app.mount("/console/static", StaticFiles(directory=str(static)), name="console-static")

    @app.get("/widget.js", include_in_schema=False)
    def widget() -> FileResponse:
        return FileResponse(static / "widget.js", media_type="text/javascript")

    @app.get("/console", include_in_schema=False)
    def console() -> RedirectResponse:
        return RedirectResponse("/console/", status_code=307)
