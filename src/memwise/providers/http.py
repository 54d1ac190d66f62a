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
from collections.abc import Coroutine, Mapping
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
