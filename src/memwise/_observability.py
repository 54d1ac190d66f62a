"""Metrics, traces and the request id: what an operator watches memwise with.

- Prometheus metrics (``prometheus-client``) on one registry, served at ``/metrics``:
  requests by route and status with latency histograms, recall and context latency, jobs by
  kind and state (read at scrape time), extraction outcomes (kept, discarded, refused by
  reason) and model calls with their errors.
- OpenTelemetry spans for a request, context assembly, recall, model calls and jobs, when the
  ``otel`` extra (the OpenTelemetry SDK) is installed and configured; no-ops otherwise.
- A request id per HTTP request (``X-Request-ID``, kept from the caller when it sends one)
  that every log line of the request carries; ``MEMWISE_LOG_FORMAT=json`` logs JSON lines.

Nothing here does I/O on import; the services record into it, the HTTP layer serves it.
"""

from __future__ import annotations

import contextvars
import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)
_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

REQUESTS = Counter(
    "memwise_http_requests_total",
    "HTTP requests by route template, method and status",
    ["route", "method", "status"],
    registry=REGISTRY,
)
REQUEST_SECONDS = Histogram(
    "memwise_http_request_seconds",
    "HTTP request latency by route template",
    ["route", "method"],
    buckets=_BUCKETS,
    registry=REGISTRY,
)
RECALL_SECONDS = Histogram(
    "memwise_recall_seconds", "Contact memory recall latency", buckets=_BUCKETS, registry=REGISTRY
)
CONTEXT_SECONDS = Histogram(
    "memwise_context_seconds", "Context assembly latency", buckets=_BUCKETS, registry=REGISTRY
)
EXTRACTION = Counter(
    "memwise_extraction_items_total",
    "Proposed memory items by outcome: kept, discarded (no quote of the customer's own or "
    "not grounded), refused (by the write boundary's code)",
    ["outcome", "reason"],
    registry=REGISTRY,
)
MODEL_CALLS = Counter(
    "memwise_model_calls_total",
    "Calls to the configured model by purpose (extract, chat) and outcome (ok, error)",
    ["purpose", "outcome"],
    registry=REGISTRY,
)
JOB_RUNS = Counter(
    "memwise_job_runs_total", "Jobs run by kind and outcome", ["kind", "outcome"], registry=REGISTRY
)

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "memwise_request_id", default=None
)

try:  # the otel extra: spans go wherever the application configured OpenTelemetry
    from opentelemetry import trace as _trace

    _TRACER: Any = _trace.get_tracer("memwise")
except ImportError:  # pragma: no cover - the extra is absent
    _TRACER = None


@contextmanager
def span(name: str, **attributes: Any) -> Iterator[None]:
    """An OpenTelemetry span when the extra is installed; nothing otherwise."""
    if _TRACER is None:
        yield
        return
    with _TRACER.start_as_current_span(name) as current:
        for key, value in attributes.items():
            if value is not None:
                current.set_attribute(f"memwise.{key}", str(value))
        yield


@contextmanager
def timed(histogram: Histogram) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        histogram.observe(time.perf_counter() - start)


def extraction_outcome(kept: int, discarded: int, refused: dict[str, int]) -> None:
    if kept:
        EXTRACTION.labels("kept", "").inc(kept)
    if discarded:
        EXTRACTION.labels("discarded", "unverified_or_ungrounded").inc(discarded)
    for code, n in refused.items():
        EXTRACTION.labels("refused", code).inc(n)


class JSONFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message and the request id."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = request_id.get()
        if rid:
            line["request_id"] = rid
        return json.dumps(line, ensure_ascii=False)


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get() or "-"
        return True


def configure_logging(fmt: str = "text", level: str = "INFO") -> None:
    """memwise's own loggers: JSON lines or text, each with the request id."""
    handler = logging.StreamHandler()
    handler.addFilter(RequestIdFilter())
    if fmt == "json":
        handler.setFormatter(JSONFormatter())
    else:
        handler.setFormatter(
            logging.Formatter("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")
        )
    logger = logging.getLogger("memwise")
    logger.handlers = [handler]
    logger.setLevel(level.upper())
    logger.propagate = False
