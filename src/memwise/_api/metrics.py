"""The HTTP side of observability: per-request metrics, span and request id; ``/metrics``."""

from __future__ import annotations

import hmac
import time
import uuid
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import GaugeMetricFamily
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memwise import _observability as observability
from memwise import errors
from memwise._services.platform.jobs import Jobs

router = APIRouter()
# The methods a label may name: anything else a client sends is "other", so a client cannot
# grow the metrics (or the scrape) by inventing methods.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def method_label(method: object) -> str:
    """The request's method as a metrics label, from a fixed set."""
    return str(method) if method in METHODS else "other"


class Observed:
    """Every HTTP request: a request id (kept from ``X-Request-ID`` when sent), a span, and
    its count and latency under its route template (never the raw path: ids stay out)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        given = headers.get(b"x-request-id", b"").decode("latin-1")[:64]
        rid = given if given.replace("-", "").isalnum() else uuid.uuid4().hex[:16]
        token = observability.request_id.set(rid)
        status = 500
        start = time.perf_counter()

        async def tagged(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                message["headers"] = [*message.get("headers", []), (b"x-request-id", rid.encode())]
            await send(message)

        method = method_label(scope.get("method"))
        try:
            with observability.span("http.request", method=method, request_id=rid):
                await self.app(scope, receive, tagged)
        finally:
            route = scope.get("route")
            name = getattr(route, "path", None) or _mount(scope)
            observability.REQUESTS.labels(name, method, str(status)).inc()
            observability.REQUEST_SECONDS.labels(name, method).observe(time.perf_counter() - start)
            observability.request_id.reset(token)


def _mount(scope: Scope) -> str:
    path = str(scope.get("path", ""))
    for prefix in ("/mcp", "/console/static", "/console"):
        if path.startswith(prefix):
            return prefix
    return "unmatched"


class JobsCollector:
    """Jobs by kind and state, read from the database at scrape time."""

    def __init__(self, jobs: Jobs) -> None:
        self.jobs = jobs

    def collect(self) -> Any:
        family = GaugeMetricFamily(
            "memwise_jobs", "Jobs by kind and state", labels=["kind", "state"]
        )
        for kind, state, n in self.jobs.by_kind():
            family.add_metric([kind, state], n)
        yield family


@router.get("/metrics", include_in_schema=False)
def metrics(request: Request) -> Response:
    """Prometheus text format. With MEMWISE_METRICS_TOKEN set, it needs that bearer token."""
    expected = request.app.state.settings.metrics_token
    if expected:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(
            token.strip().encode(), expected.encode()
        ):
            raise errors.Unauthorized("send 'Authorization: Bearer <metrics token>'")
    collector = JobsCollector(request.app.state.mw.jobs)
    body = generate_latest(observability.REGISTRY)
    try:
        from prometheus_client import CollectorRegistry

        jobs_registry = CollectorRegistry()
        jobs_registry.register(collector)
        body += generate_latest(jobs_registry)
    except Exception:  # the database is away: the process metrics still answer
        pass
    return Response(body, media_type=CONTENT_TYPE_LATEST)
