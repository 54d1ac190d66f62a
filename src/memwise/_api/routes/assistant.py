"""Per-turn context and chat (preview mode without a model)."""

from __future__ import annotations

from typing import Any

from memwise import Memwise
from memwise._api import routes
from memwise._api.auth import MW, Caller, conversation_scope
from memwise._api.schemas import ChatIn, ContextIn
from memwise._domain.access import Principal
from memwise._policies.window import Message
from memwise._web.threads import waiting
from memwise.client import models as m

router = routes.router("/v1")


def _messages(items: list[Any] | None) -> list[Message] | None:
    return None if items is None else [Message(m.role, m.text) for m in items]


@router.post("/context", response_model=m.ContextAnswer)
def context(body: ContextIn, caller: Caller, mw: MW) -> dict[str, Any]:
    workspace = conversation_scope(caller, body.conversation_id)
    ctx = mw.assistant.context(
        workspace,
        body.conversation_id,
        body.request,
        messages=_messages(body.messages),
        page=body.page.model_dump() if body.page else None,
        by=caller,
    )
    return {
        "messages": ctx.messages,
        "anthropic": ctx.anthropic,
        "sections": ctx.sections,
        "explain": [vars(c) for c in ctx.explain],
        "route": ctx.route,
        "flags": ctx.flags,
        "tools": ctx.tools,
    }


@router.post("/chat", response_model=m.ChatReply)
async def chat(body: ChatIn, caller: Caller, mw: MW) -> dict[str, Any]:
    return await waiting(
        _chat, body, caller, mw, share_of=caller.workspace_id
    )  # a model may answer: seconds of waiting


def _chat(body: ChatIn, caller: Principal, mw: Memwise) -> dict[str, Any]:
    workspace = conversation_scope(caller, body.conversation_id)
    if caller.is_visitor:  # a door switched off takes nothing more from visitors
        mw.record.require_open_door(workspace, body.conversation_id)
    reply = mw.chat(
        workspace,
        body.conversation_id,
        body.text,
        messages=_messages(body.messages),
        page=body.page.model_dump() if body.page else None,
        actor=caller.actor,
        by=caller,
    )
    answer = vars(reply)
    if caller.is_visitor:  # the team's own handle on the question stays with the team
        answer.pop("unanswered_id", None)
    return answer
