"""Fakes for tests, shipped so that users can test their own integration the same way.

``FakeModelServer`` is a real HTTP server on loopback speaking the OpenAI chat-completions
and Anthropic messages protocols; it answers with queued responses (a JSON payload, an HTTP
error, a malformed body or a delay) and records every request it received.
``ScriptedExtractor`` proposes what a test tells it to: a careless or malicious model
without a server, for testing what the harness and the write boundary keep.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from memwise._extraction.types import Existing, Extraction, Line, Proposal


@dataclass
class Reply:
    payload: Any = None  # the structured output (a dict) or the raw text content
    status: int = 200
    delay: float = 0.0
    raw_body: str | None = None  # sent as is (for malformed responses)
    tool_calls: list[dict[str, Any]] | None = None
    error: str = "fake error"  # the message of a reply that is not a 200


class _Loopback:
    """A threaded HTTP server on a free loopback port."""

    httpd: ThreadingHTTPServer

    def listen(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@dataclass
class HostileServer(_Loopback):
    """An outside service at its worst, for testing the bounds on outside calls: ``drip``
    answers one byte every ``pause`` seconds, ``flood`` answers megabytes without end,
    ``list`` answers a JSON list where an object is expected."""

    mode: str = "drip"
    pause: float = 0.2

    def __post_init__(self) -> None:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length") or 0))
                self.send_response(200)
                if server.mode == "list":
                    body = b'["not", "an", "object"]'
                    self.send_header("content-length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                self.end_headers()
                try:
                    for _ in range(10_000):
                        if server.mode == "drip":
                            self.wfile.write(b"x")
                            self.wfile.flush()
                            time.sleep(server.pause)
                        else:
                            self.wfile.write(b"y" * 65536)
                except OSError:
                    pass  # the caller hung up: what it should do

        self.listen(Handler)


@dataclass
class FakeModelServer(_Loopback):
    replies: deque[Reply] = field(default_factory=deque)
    requests: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append({"path": self.path, "body": body})
                if self.path.endswith("/embeddings"):
                    self._send(200, json.dumps(server._embeddings(body)))
                    return
                reply = server.replies.popleft() if server.replies else Reply(status=500)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.status != 200:
                    self._send(
                        reply.status,
                        json.dumps({"error": {"message": reply.error, "type": "fake"}}),
                    )
                    return
                if reply.raw_body is not None:
                    self._send(200, reply.raw_body)
                    return
                if self.path.endswith("/messages"):
                    self._send(200, json.dumps(server._anthropic(reply, body)))
                else:
                    self._send(200, json.dumps(server._openai(reply, body)))

            def _send(self, status: int, text: str) -> None:
                data = text.encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                if status == 429:
                    self.send_header("retry-after", "0")
                self.end_headers()
                self.wfile.write(data)

        self.listen(Handler)

    def enqueue(self, *replies: Reply | dict[str, Any] | str) -> None:
        for r in replies:
            self.replies.append(r if isinstance(r, Reply) else Reply(payload=r))

    @staticmethod
    def _embeddings(body: dict[str, Any]) -> dict[str, Any]:
        """Deterministic vectors: words hashed into 64 dimensions (shared words, close vectors)."""
        texts = body.get("input") or []
        texts = [texts] if isinstance(texts, str) else texts
        data = []
        for i, text in enumerate(texts):
            vec = [0.0] * 64
            for word in str(text).lower().split():
                vec[int(hashlib.md5(word.strip(".,?!").encode()).hexdigest(), 16) % 64] += 1.0
            data.append({"object": "embedding", "index": i, "embedding": vec})
        return {
            "object": "list",
            "data": data,
            "model": body.get("model", "fake"),
            "usage": {"prompt_tokens": 1, "total_tokens": 1},
        }

    @staticmethod
    def _openai(reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
        content = reply.payload if isinstance(reply.payload, str) else json.dumps(reply.payload)
        message: dict[str, Any] = {
            "role": "assistant",
            "content": None if reply.tool_calls else content,
        }
        finish = "stop"
        if reply.tool_calls:
            message["tool_calls"] = [
                {
                    "id": f"call_{i}",
                    "type": "function",
                    "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])},
                }
                for i, c in enumerate(reply.tool_calls)
            ]
            finish = "tool_calls"
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        }

    @staticmethod
    def _anthropic(reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
        if reply.tool_calls or isinstance(reply.payload, dict):
            calls = reply.tool_calls or [{"name": "record_memory", "arguments": reply.payload}]
            content = [
                {"type": "tool_use", "id": f"toolu_{i}", "name": c["name"], "input": c["arguments"]}
                for i, c in enumerate(calls)
            ]
            stop = "tool_use"
        else:
            content = [{"type": "text", "text": str(reply.payload)}]
            stop = "end_turn"
        return {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "fake"),
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 10},
        }


@dataclass
class FakeTelegramServer(_Loopback):
    """A loopback stand-in for Telegram's Bot API (the part a polling bot uses).

    Queue what people write with :meth:`say`; a bot polling ``getUpdates`` receives it, and
    every ``sendMessage`` it makes lands in :attr:`sent`. Point python-telegram-bot at
    :attr:`url` (``memwise telegram --api-url``).
    """

    updates: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        server = self
        self._changed = threading.Condition()
        self._next_update = 1
        self._next_message = 1

        class Handler(BaseHTTPRequestHandler):
            disable_nagle_algorithm = True

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length).decode()
                method = self.path.rsplit("/", 1)[-1]
                params = _bot_params(raw, self.headers.get("content-type", ""))
                server.calls.append(method)
                result = server._answer(method, params)
                data = json.dumps({"ok": True, "result": result}).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST

        self.listen(Handler)

    def say(
        self,
        chat_id: int,
        text: str,
        *,
        user_id: int | None = None,
        first_name: str = "Jo",
        sent_at: float | None = None,
    ) -> None:
        """A person writes ``text`` in ``chat_id`` (at ``sent_at``, a Unix time; default now)."""
        entities = []
        if text.startswith("/"):
            length = len(text.split()[0])
            entities.append({"type": "bot_command", "offset": 0, "length": length})
        sender = {"id": user_id or chat_id, "is_bot": False, "first_name": first_name}
        with self._changed:
            message = {
                "message_id": self._next_message,
                "date": int(sent_at if sent_at is not None else time.time()),
                "chat": {"id": chat_id, "type": "private", "first_name": first_name},
                "from": sender,
                "text": text,
                "entities": entities,
            }
            self.updates.append({"update_id": self._next_update, "message": message})
            self._next_update += 1
            self._next_message += 1
            self._changed.notify_all()

    def wait_for_sent(self, count: int, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Block until the bot has sent ``count`` messages in all; returns them."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self.sent) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"the bot sent {len(self.sent)} of {count} messages")
                self._changed.wait(left)
            return list(self.sent)

    def _answer(self, method: str, params: dict[str, Any]) -> Any:
        if method == "getMe":
            return {"id": 4242, "is_bot": True, "first_name": "memwise", "username": "memwise_bot"}
        if method == "getUpdates":
            offset = int(params.get("offset") or 0)
            wait = min(float(params.get("timeout") or 0), 1.0)
            with self._changed:
                ready = [u for u in self.updates if u["update_id"] >= offset]
                if not ready and wait:
                    self._changed.wait(wait)
                    ready = [u for u in self.updates if u["update_id"] >= offset]
            return ready
        if method == "sendMessage":
            with self._changed:
                message = {
                    "message_id": self._next_message,
                    "date": int(time.time()),
                    "chat": {"id": int(params["chat_id"]), "type": "private"},
                    "from": {"id": 4242, "is_bot": True, "first_name": "memwise"},
                    "text": str(params.get("text", "")),
                }
                self._next_message += 1
                self.sent.append(message)
                self._changed.notify_all()
            return message
        return True  # deleteWebhook, setMyCommands, close …


def _bot_params(raw: str, content_type: str) -> dict[str, Any]:
    """A Bot API call's parameters, whether sent as JSON or as a form."""
    from urllib.parse import parse_qsl

    if not raw:
        return {}
    if "json" in content_type:
        value = json.loads(raw)
        return value if isinstance(value, dict) else {}
    params: dict[str, Any] = {}
    for name, value in parse_qsl(raw):
        try:  # objects and lists travel as JSON text; scalars as they are
            params[name] = json.loads(value) if value[:1] in "{[" else value
        except ValueError:
            params[name] = value
    return params


class ScriptedExtractor:
    """An extractor that proposes what it is told to, quotes and all (a careless or
    malicious model): ``proposals``, a function of the transcript that gives them, or a
    whole ``Extraction`` (events and a summary too, as any extractor may return them)."""

    name = "scripted"
    prompt_version = "scripted-1"

    def __init__(
        self,
        proposals: Sequence[Proposal]
        | Callable[[Sequence[Line]], Sequence[Proposal]]
        | Extraction = (),
    ) -> None:
        self.proposals = proposals

    def extract(
        self, transcript: Sequence[Line], existing: Sequence[Existing], pack: Any
    ) -> Extraction:
        if isinstance(self.proposals, Extraction):
            return self.proposals
        made = self.proposals(transcript) if callable(self.proposals) else self.proposals
        return Extraction(items=list(made))
