"""The edge: request body limit (413), text-only input (422), rate limiting (429)."""

from __future__ import annotations

import json
import re
import threading
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memwise._domain.record import NOT_TEXT
from memwise._services.platform.buckets import Buckets
from memwise._web.errors import NotText, RateLimited, TooLarge, body

# NUL, which no database stores as text: raw, as a JSON escape (an even run of backslashes
# before it is no escape) or %-encoded. Other stray controls are text to clean, not to refuse
# (memwise._domain.record.clean): real chat logs hold them.
_RAW = re.compile(NOT_TEXT.pattern.encode())  # the domain's rule, on bytes
_JSON_ESCAPE = re.compile(rb"(?:^|[^\\])(?:\\\\)*\\u0000")
_PERCENT = re.compile(rb"%00")
# A UTF-16 surrogate half without its partner cannot be stored as text anywhere.
_LONE_SURROGATE = re.compile(
    rb"(?:^|[^\\])(?:\\\\)*(?:\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2})"
)
MAX_BUCKETS = 100_000
_CHECKED_TYPES = (b"application/json", b"application/x-www-form-urlencoded", b"text/")


def not_text(data: bytes, *, json_body: bool = False, encoded: bool = False) -> bool:
    """Whether ``data`` carries NUL (or a lone surrogate half), which cannot be stored."""
    if _RAW.search(data):
        return True
    if json_body and b"\\u00" in data and _JSON_ESCAPE.search(data):
        return True
    if json_body and b"\\u" in data and _LONE_SURROGATE.search(data):
        return True
    return encoded and b"%" in data and _PERCENT.search(data) is not None


class BodyLimit:
    """Refuse bodies over ``max_bytes`` whether or not Content-Length tells the truth."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        path = str(scope.get("path", "")).encode("utf-8", "surrogateescape")
        if not_text(path) or not_text(scope.get("query_string") or b"", encoded=True):
            await self._refuse(send, NotText())
            return
        kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        if not kind.startswith(b"multipart/"):  # the console refuses multipart forms
            # Text bodies are read here first (they are bounded), checked whole, then handed
            # on: a NUL in a JSON string or a form field is a 422 before any route sees it.
            chunks: list[bytes] = []
            seen = 0
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return  # the client went away
                chunk = message.get("body", b"")
                seen += len(chunk)
                if seen > self.max_bytes:
                    await self._refuse(send)
                    return
                chunks.append(chunk)
                if not message.get("more_body", False):
                    break
            data = b"".join(chunks)
            form = kind == b"application/x-www-form-urlencoded"
            known = kind.startswith(_CHECKED_TYPES) and kind != b"text/plain"
            if not_text(data, json_body=not form, encoded=form or not known):
                await self._refuse(send, NotText())
                return
            replayed = False

            async def replay() -> Message:
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": data, "more_body": False}
                return await receive()

            await self.app(scope, replay, send)
            return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise TooLarge(f"the body is over {self.max_bytes} bytes")
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except TooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Send, exc: NotText | None = None) -> None:
        if exc is None:
            status = 413
            payload = json.dumps(body(TooLarge.code, f"the body is over {self.max_bytes} bytes"))
        else:
            status, payload = 422, json.dumps(body(exc.code, exc.message))
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": payload.encode()})


class RateLimiter:
    """A token bucket per caller: ``per_minute`` requests, refilled continuously. With
    ``shared`` buckets on PostgreSQL the bucket is the deployment's (every process takes from
    the same one, in the database); otherwise this process's own. Its calls may read the
    database: doors make them off the event loop."""

    def __init__(self, per_minute: int, shared: Buckets | None = None, name: str = "") -> None:
        self.capacity = float(max(1, per_minute))
        self.rate = self.capacity / 60.0
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()
        self.shared = shared if shared is not None and shared.shared else None
        self.name = name

    def empty(self, key: str, now: float | None = None) -> bool:
        """Whether ``key`` has no request left right now (nothing is taken)."""
        if self.shared is not None and now is None:
            return self.shared.empty(f"{self.name}:{key}", self.capacity)
        t = time.monotonic() if now is None else now
        with self._lock:
            if key not in self._buckets:
                return False
            tokens, last = self._buckets[key]
            return min(self.capacity, tokens + (t - last) * self.rate) < 1

    def check(self, key: str, now: float | None = None) -> None:
        if self.shared is not None and now is None:
            if not self.shared.take(f"{self.name}:{key}", self.capacity):
                raise RateLimited(f"too many requests: try again in {1 / self.rate:.1f} s")
            return
        t = time.monotonic() if now is None else now
        with self._lock:
            if len(self._buckets) > MAX_BUCKETS:  # forget callers whose bucket is full again
                full = 60.0
                self._buckets = {k: v for k, v in self._buckets.items() if t - v[1] < full}
            tokens, last = self._buckets.get(key, (self.capacity, t))
            tokens = min(self.capacity, tokens + (t - last) * self.rate)
            if tokens < 1:
                self._buckets[key] = (tokens, t)
                raise RateLimited(details_hint(self.rate, tokens))
            self._buckets[key] = (tokens - 1, t)


def details_hint(rate: float, tokens: float) -> Any:
    wait = (1 - tokens) / rate
    return f"too many requests: try again in {wait:.1f} s"


class AuthThrottle:
    """Failed logins and bad keys: ``per_minute`` failures per client address and per token
    prefix, then 429 for that address (or prefix) until the bucket refills."""

    def __init__(self, per_minute: int, shared: Buckets | None = None) -> None:
        self.addresses = RateLimiter(per_minute, shared, "failed-address")
        self.prefixes = RateLimiter(per_minute, shared, "failed-prefix")

    def refuse_if_blocked(self, address: str) -> None:
        if self.addresses.empty(address):
            raise RateLimited("too many failed attempts from this address: wait a minute")

    def failed(self, address: str, prefix: str) -> None:
        self.addresses.check(address)
        self.prefixes.check(f"prefix:{prefix}")


CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


class SecurityHeaders:
    """nosniff and a referrer policy on every response; the console's pages also get a
    strict Content-Security-Policy (no inline script) and may never be framed; the widget
    script may be loaded by any site (that is its job) but never sniffed."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        console = path.startswith("/console")
        extra = [
            (b"x-content-type-options", b"nosniff"),
            # The console's own forms carry their origin (the login checks it); nothing leaks
            # to other sites.
            (b"referrer-policy", b"same-origin" if console else b"no-referrer"),
        ]
        if console:
            extra += [
                (b"content-security-policy", CSP.encode()),
                (b"x-frame-options", b"DENY"),
                (b"cache-control", b"no-store"),
            ]
        elif path == "/widget.js":
            extra.append((b"cross-origin-resource-policy", b"cross-origin"))

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (k, v) for k, v in extra if k not in have
                ]
            await send(message)

        await self.app(scope, receive, with_headers)
