"""A Python client for the memwise HTTP API, sync and async, over httpx.

    from memwise.client import Client

    with Client("http://127.0.0.1:8080", api_key) as mw:
        conv = mw.start_conversation(agent_id, "web", contact_id=contact_id)
        reply = mw.chat(conv.id, "Where is my order 1042?")
        print(reply.reply, [s.title for s in reply.sources])

Every method returns a typed result (:mod:`memwise.client.models`); an error answer raises
:class:`memwise.errors.ApiError` with the server's ``status``, ``code``, ``message`` and
``details``; it is also the :mod:`memwise.errors` class the answer stands for (a 404 is a
``NotFound``, a 422 an ``Invalid`` …), so ``except errors.NotFound`` works here as it does
with the library.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

import httpx

from memwise import errors
from memwise.client import calls
from memwise.client.calls import Call
from memwise.errors import ApiError

P = ParamSpec("P")
T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["ApiError", "AsyncClient", "Call", "Client"]


def _read(call: Call[T], response: httpx.Response) -> T:
    if response.status_code >= 400:
        try:
            error = response.json()["error"]
            code, message, details = error["code"], error["message"], error.get("details")
            kind = error.get("kind")
        except (ValueError, KeyError, TypeError):  # not the API's error shape (a proxy, say)
            code, message, details, kind = "http_error", response.text[:300], None, None
        raise errors.from_answer(response.status_code, code, message, details, kind)
    return call.read(response.json())


def _request(call: Call[Any]) -> dict[str, Any]:
    return {"method": call.method, "url": call.path, "json": call.json, "params": call.params}


def _headers(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _sync(build: Callable[P, Call[T]]) -> Callable[Concatenate[Client, P], T]:
    def method(self: Client, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return self.send(build(*args, **kwargs))

    return _described(method, build)


def _described(method: F, build: Callable[..., Any]) -> F:
    """``method`` named, documented and signed as ``build`` with ``self`` first and the
    call's result as its return: ``help()``, editors and ``inspect`` see the real
    parameters, not ``*args, **kwargs``."""
    method.__name__ = method.__qualname__ = build.__name__
    method.__doc__ = build.__doc__
    setattr(method, "__wrapped__", build)  # noqa: B010 (a function attribute mypy does not know)
    signature = inspect.signature(build)
    self_ = inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)
    result = signature.return_annotation
    if isinstance(result, str) and result.startswith("Call[") and result.endswith("]"):
        result = result[len("Call[") : -1]  # the annotation as written: the Call's result
    signed = signature.replace(
        parameters=[self_, *signature.parameters.values()], return_annotation=result
    )
    setattr(method, "__signature__", signed)  # noqa: B010
    return method


def _async(
    build: Callable[P, Call[T]],
) -> Callable[Concatenate[AsyncClient, P], Coroutine[Any, Any, T]]:
    async def method(self: AsyncClient, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self.send(build(*args, **kwargs))

    return _described(method, build)


class Client:
    """Synchronous client. ``token``: a workspace API key, a visitor token or the admin token."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._http = httpx.Client(
            base_url=base_url, headers=_headers(token), timeout=timeout, transport=transport
        )

    def send(self, call: Call[T]) -> T:
        """Send one call (``memwise.client.calls``) and read its typed result."""
        return _read(call, self._http.request(**_request(call)))

    def close(self) -> None:
        """Close the connections."""
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    health = _sync(calls.health)
    create_workspace = _sync(calls.create_workspace)
    create_agent = _sync(calls.create_agent)
    update_agent = _sync(calls.update_agent)
    get_agent = _sync(calls.get_agent)
    setup = _sync(calls.setup)
    setup_business = _sync(calls.setup_business)
    setup_knowledge = _sync(calls.setup_knowledge)
    setup_approve = _sync(calls.setup_approve)
    setup_helps = _sync(calls.setup_helps)
    preview = _sync(calls.preview)
    teach_preview = _sync(calls.teach_preview)
    agent_rules = _sync(calls.agent_rules)
    propose_rules = _sync(calls.propose_rules)
    standards = _sync(calls.standards)
    approve_rules = _sync(calls.approve_rules)
    reject_rules = _sync(calls.reject_rules)
    rollback_rules = _sync(calls.rollback_rules)
    doors = _sync(calls.doors)
    switch_door = _sync(calls.switch_door)
    create_user = _sync(calls.create_user)
    create_api_key = _sync(calls.create_api_key)
    create_contact = _sync(calls.create_contact)
    get_contact = _sync(calls.get_contact)
    find_contacts = _sync(calls.find_contacts)
    start_conversation = _sync(calls.start_conversation)
    get_conversation = _sync(calls.get_conversation)
    conversations = _sync(calls.conversations)
    add_turn = _sync(calls.add_turn)
    add_turns = _sync(calls.add_turns)
    turns = _sync(calls.turns)
    end_conversation = _sync(calls.end_conversation)
    reset_conversation = _sync(calls.reset_conversation)
    search_record = _sync(calls.search_record)
    context = _sync(calls.context)
    chat = _sync(calls.chat)
    notebook = _sync(calls.notebook)
    remember_rule = _sync(calls.remember_rule)
    forget_rule = _sync(calls.forget_rule)
    forget_rules_matching = _sync(calls.forget_rules_matching)
    memory = _sync(calls.memory)
    memories = _sync(calls.memories)
    summaries = _sync(calls.summaries)
    conversation_summary = _sync(calls.conversation_summary)
    get_memory = _sync(calls.get_memory)
    memory_history = _sync(calls.memory_history)
    delete_memory = _sync(calls.delete_memory)
    edit_memory = _sync(calls.edit_memory)
    archive_memory = _sync(calls.archive_memory)
    recall = _sync(calls.recall)
    recall_record = _sync(calls.recall_record)
    remember = _sync(calls.remember)
    patterns = _sync(calls.patterns)
    export_contact = _sync(calls.export_contact)
    delete_contact = _sync(calls.delete_contact)
    run_jobs = _sync(calls.run_jobs)
    add_document = _sync(calls.add_document)
    search_knowledge = _sync(calls.search_knowledge)
    unanswered = _sync(calls.unanswered)
    draft_lesson = _sync(calls.draft_lesson)
    approve_lesson = _sync(calls.approve_lesson)
    tickets = _sync(calls.tickets)
    audit = _sync(calls.audit)
    lookup_account = _sync(calls.lookup_account)


class AsyncClient:
    """Asynchronous client with the same methods as :class:`Client`, each awaited."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._http = httpx.AsyncClient(
            base_url=base_url, headers=_headers(token), timeout=timeout, transport=transport
        )

    async def send(self, call: Call[T]) -> T:
        """Send one call (``memwise.client.calls``) and read its typed result."""
        return _read(call, await self._http.request(**_request(call)))

    async def aclose(self) -> None:
        """Close the connections."""
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    health = _async(calls.health)
    create_workspace = _async(calls.create_workspace)
    create_agent = _async(calls.create_agent)
    update_agent = _async(calls.update_agent)
    get_agent = _async(calls.get_agent)
    setup = _async(calls.setup)
    setup_business = _async(calls.setup_business)
    setup_knowledge = _async(calls.setup_knowledge)
    setup_approve = _async(calls.setup_approve)
    setup_helps = _async(calls.setup_helps)
    preview = _async(calls.preview)
    teach_preview = _async(calls.teach_preview)
    agent_rules = _async(calls.agent_rules)
    propose_rules = _async(calls.propose_rules)
    standards = _async(calls.standards)
    approve_rules = _async(calls.approve_rules)
    reject_rules = _async(calls.reject_rules)
    rollback_rules = _async(calls.rollback_rules)
    doors = _async(calls.doors)
    switch_door = _async(calls.switch_door)
    create_user = _async(calls.create_user)
    create_api_key = _async(calls.create_api_key)
    create_contact = _async(calls.create_contact)
    get_contact = _async(calls.get_contact)
    find_contacts = _async(calls.find_contacts)
    start_conversation = _async(calls.start_conversation)
    get_conversation = _async(calls.get_conversation)
    conversations = _async(calls.conversations)
    add_turn = _async(calls.add_turn)
    add_turns = _async(calls.add_turns)
    turns = _async(calls.turns)
    end_conversation = _async(calls.end_conversation)
    reset_conversation = _async(calls.reset_conversation)
    search_record = _async(calls.search_record)
    context = _async(calls.context)
    chat = _async(calls.chat)
    notebook = _async(calls.notebook)
    remember_rule = _async(calls.remember_rule)
    forget_rule = _async(calls.forget_rule)
    forget_rules_matching = _async(calls.forget_rules_matching)
    memory = _async(calls.memory)
    memories = _async(calls.memories)
    summaries = _async(calls.summaries)
    conversation_summary = _async(calls.conversation_summary)
    get_memory = _async(calls.get_memory)
    memory_history = _async(calls.memory_history)
    delete_memory = _async(calls.delete_memory)
    edit_memory = _async(calls.edit_memory)
    archive_memory = _async(calls.archive_memory)
    recall = _async(calls.recall)
    recall_record = _async(calls.recall_record)
    remember = _async(calls.remember)
    patterns = _async(calls.patterns)
    export_contact = _async(calls.export_contact)
    delete_contact = _async(calls.delete_contact)
    run_jobs = _async(calls.run_jobs)
    add_document = _async(calls.add_document)
    search_knowledge = _async(calls.search_knowledge)
    unanswered = _async(calls.unanswered)
    draft_lesson = _async(calls.draft_lesson)
    approve_lesson = _async(calls.approve_lesson)
    tickets = _async(calls.tickets)
    audit = _async(calls.audit)
    lookup_account = _async(calls.lookup_account)


for _owner in (Client, AsyncClient):  # each made method is its class's ("Client.recall")
    for _name, _value in vars(_owner).items():
        if callable(_value) and hasattr(_value, "__wrapped__"):
            _value.__qualname__ = f"{_owner.__name__}.{_name}"
