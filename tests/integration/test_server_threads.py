"""The server's threads: request work in a few, waiting on a model or an account source in
threads of its own, so that slow providers never hold the requests that need neither."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from memwise._config import WAITING_THREADS, WORKING_THREADS, Settings
from tests.integration.conftest import Api


def test_the_default_is_a_few_threads_and_many_with_a_remote_embedder() -> None:
    assert Settings().threads() == WORKING_THREADS
    assert Settings(embedder="openai").threads() == WAITING_THREADS
    assert Settings(server_threads=7, embedder="openai").threads() == 7


def test_slow_chats_never_hold_the_working_threads(api: Api, monkeypatch: Any) -> None:
    """More chats than working threads wait on a model that does not answer; the context
    and the record are still served, and every chat answers once the model does."""
    _, key = api.workspace()
    conv = api.web_conversation(key)["id"]
    model_answers = threading.Event()
    waiting = threading.Semaphore(0)
    answer = api.mw.chat

    def slow_chat(*args: Any, **kwargs: Any) -> Any:
        waiting.release()
        assert model_answers.wait(30), "the model never answered"
        return answer(*args, **kwargs)

    monkeypatch.setattr(api.mw, "chat", slow_chat)
    chats = 2 * WORKING_THREADS
    with ThreadPoolExecutor(chats + 1) as pool:
        pending = [
            pool.submit(
                api.call,
                "POST",
                "/v1/chat",
                key,
                json={"conversation_id": conv, "text": f"Question {n}?"},
            )
            for n in range(chats)
        ]
        for _ in range(chats):  # every chat is waiting on the model now
            assert waiting.acquire(timeout=30)
        try:
            served = pool.submit(
                api.call,
                "POST",
                "/v1/context",
                key,
                json={"conversation_id": conv, "request": "hi"},
            ).result(timeout=30)
            assert served.status_code == 200, served.text
            page = pool.submit(api.call, "GET", f"/v1/conversations/{conv}", key).result(30)
            assert page.status_code == 200
        finally:
            model_answers.set()
        assert [p.result(timeout=30).status_code for p in pending] == [200] * chats


def test_server_threads_are_bounded() -> None:
    assert Settings(server_threads=1).threads() == 1
    for bad in (-1, 257):
        with pytest.raises(ValueError):
            Settings(server_threads=bad)
