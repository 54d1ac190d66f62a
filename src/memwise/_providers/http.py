"""Every HTTP call memwise makes to the outside world, bounded: a wall-clock deadline for the
whole exchange and a cap on the bytes read back.

A per-read timeout does not bound an exchange: an endpoint that drips one byte every nine
seconds never trips a ten-second read timeout, and an answer of 400 MB is read whole. Here
the request runs on an event loop under ``asyncio.wait_for`` (cancellation stops it wherever
it waits, headers included), and the body is read in chunks until the cap, then dropped.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Coroutine, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx

from memwise import errors

T = TypeVar("T")
DEADLINE_S = 10.0
MAX_BYTES = 1_000_000


class TooSlow(errors.Unavailable):
    """The outside service did not answer within its deadline."""

    code = "outside_deadline"


class TooLarge(errors.Unavailable):
    """The outside service answered more bytes than memwise reads."""

    code = "outside_too_large"


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes
    headers: dict[str, str]


async def _exchange(
    method: str,
    url: str,
    *,
    content: bytes | None,
    headers: Mapping[str, str],
    extensions: Mapping[str, Any],
    deadline_s: float,
    max_bytes: int,
    transport: httpx.AsyncBaseTransport | None,
) -> Answer:
    timeout = httpx.Timeout(deadline_s)
    async with (
        httpx.AsyncClient(timeout=timeout, follow_redirects=False, transport=transport) as client,
        client.stream(
            method, url, content=content, headers=dict(headers), extensions=dict(extensions)
        ) as r,
    ):
        declared = r.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > max_bytes:
            raise TooLarge(f"the answer is {int(declared):,} bytes; at most {max_bytes:,} are read")
        body = bytearray()
        async for chunk in r.aiter_bytes():
            body += chunk
            if len(body) > max_bytes:
                raise TooLarge(f"the answer is over {max_bytes:,} bytes; the rest was not read")
        return Answer(r.status_code, bytes(body), dict(r.headers))


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to its end from synchronous code, in this thread when it has no running
    event loop, else in a thread of its own (a loop is never blocked by a nested one)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def request(
    method: str,
    url: str,
    *,
    content: bytes | None = None,
    headers: Mapping[str, str] | None = None,
    extensions: Mapping[str, Any] | None = None,
    deadline_s: float = DEADLINE_S,
    max_bytes: int = MAX_BYTES,
    transport: httpx.AsyncBaseTransport | None = None,
) -> Answer:
    """One exchange, done within ``deadline_s`` seconds of wall-clock time and ``max_bytes``
    bytes of answer; ``TooSlow``/``TooLarge`` otherwise, and ``httpx.HTTPError`` as httpx
    raises it. No redirect is followed (the checked address is the one connected)."""

    async def bounded() -> Answer:
        try:
            return await asyncio.wait_for(
                _exchange(
                    method,
                    url,
                    content=content,
                    headers=headers or {},
                    extensions=extensions or {},
                    deadline_s=deadline_s,
                    max_bytes=max_bytes,
                    transport=transport,
                ),
                deadline_s,
            )
        except TimeoutError as exc:
            raise TooSlow(f"no whole answer within {deadline_s:g} s") from exc

    return run(bounded())


class _BoundedStream(httpx.SyncByteStream):
    def __init__(self, inner: httpx.SyncByteStream, deadline: float, max_bytes: int) -> None:
        self.inner, self.deadline, self.max_bytes = inner, deadline, max_bytes

    def __iter__(self) -> Iterator[bytes]:
        read = 0
        for chunk in self.inner:
            read += len(chunk)
            if read > self.max_bytes:
                raise TooLarge(
                    f"the answer is over {self.max_bytes:,} bytes; the rest was not read"
                )
            if time.monotonic() > self.deadline:
                raise TooSlow("the answer did not end within its deadline")
            yield chunk

    def close(self) -> None:
        self.inner.close()


class BoundedTransport(httpx.HTTPTransport):
    """For a library that brings its own synchronous client (the model SDKs take an
    ``http_client``): the answer is cut at ``max_bytes`` and at ``deadline_s`` after the
    request, checked as each chunk arrives; a silent peer is cut by the client's read
    timeout, so an exchange ends within the deadline plus one read timeout."""

    def __init__(self, deadline_s: float, max_bytes: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.deadline_s, self.max_bytes = deadline_s, max_bytes

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        deadline = time.monotonic() + self.deadline_s
        response = super().handle_request(request)
        if time.monotonic() > deadline:
            response.close()
            raise TooSlow(f"no answer within {self.deadline_s:g} s")
        assert isinstance(response.stream, httpx.SyncByteStream)
        response.stream = _BoundedStream(response.stream, deadline, self.max_bytes)
        return response
