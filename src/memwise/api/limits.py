"""Request body limit (413) and per-token rate limiting (429)."""

from __future__ import annotations

import threading
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memwise.api.errors import RateLimited, TooLarge, body


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

    async def _refuse(self, send: Send) -> None:
        import json

        payload = json.dumps(body(TooLarge.code, f"the body is over {self.max_bytes} bytes"))
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": payload.encode()})


class RateLimiter:
    """A token bucket per caller: ``per_minute`` requests, refilled continuously."""

    def __init__(self, per_minute: int) -> None:
        self.capacity = float(max(1, per_minute))
        self.rate = self.capacity / 60.0
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def check(self, key: str, now: float | None = None) -> None:
        t = time.monotonic() if now is None else now
        with self._lock:
            tokens, last = self._buckets.get(key, (self.capacity, t))
            tokens = min(self.capacity, tokens + (t - last) * self.rate)
            if tokens < 1:
                self._buckets[key] = (tokens, t)
                raise RateLimited(details_hint(self.rate, tokens))
            self._buckets[key] = (tokens - 1, t)


def details_hint(rate: float, tokens: float) -> Any:
    wait = (1 - tokens) / rate
    return f"too many requests: try again in {wait:.1f} s"
