"""Model mode: the same context and tools drive a tool-calling chat model.

The tools are the registry's (``memwise._services.assistant.tools``): the model is offered
the ones its conversation allows (no notebook in a customer's conversation) with the
conversation's own contact, user and id bound. Reads run at once; a write that changes
something for the customer (create_ticket) is proposed and held as the pending confirmation
beside the window — executed only when the user confirms on the next turn. Every call is
audited once as ``model.<tool>``; tool results reach the model as data blocks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from memwise import _observability as observability
from memwise import errors
from memwise._domain.access import Principal
from memwise._ids import ConversationId, WorkspaceId
from memwise._policies.window import Message
from memwise._services.assistant import ports, tools
from memwise._services.assistant.assistant import Assistant, Reply
from memwise._services.platform.audit import Status

YES = re.compile(
    r"^\s*(?:yes|yep|yeah|ok(?:ay)?|sure|confirm(?:ed)?|do it|go ahead|please do)\b", re.I
)
MAX_ROUNDS = 5

# complete(messages, tools) -> {"content": str | None, "tool_calls": [{"id", "name", "arguments"}]}
# (a ``memwise._providers.chat.ChatModel`` is one)
Complete = Callable[[list[dict[str, Any]], list[dict[str, Any]]], dict[str, Any]]


class ModelAssistant:
    def __init__(
        self,
        parts: ports.ToolParts,
        assistant: Assistant,
        windows: ports.WindowsPort,
        complete: Complete,
    ) -> None:
        self.parts = parts  # what its tool calls reach (record and audit among them)
        self.assistant, self.windows = assistant, windows
        self.complete = complete

    def chat(
        self,
        ws: WorkspaceId,
        conversation_id: ConversationId,
        text: str,
        *,
        messages: list[Message] | None = None,
        page: dict[str, str] | None = None,
        actor: str = "assistant",
        by: Principal | None = None,
    ) -> Reply:
        if not isinstance(text, str) or not text.strip():
            raise errors.Invalid("a message needs some words", code="empty_message")
        conv = self.parts.record.get(ws, conversation_id)
        staff = conv.user_id is not None
        pending = self.windows.pending(ws, conversation_id)
        self.parts.record.append(ws, conversation_id, "user" if staff else "customer", text)
        if pending is not None:
            self.windows.set_pending(ws, conversation_id, None)
            if YES.match(text):
                reply = self._execute_pending(ws, conv, pending, by)
                self.parts.record.append(ws, conversation_id, "assistant", reply.reply)
                return reply
            self.parts.audit.record(
                ws,
                actor="model",
                tool=f"model.{pending.get('tool', 'create_ticket')}",
                args=tools.audited(pending.get("arguments", {}), None),
                status=Status.refused,
                result="the user did not confirm",
                contact_id=conv.contact_id,
                conversation_id=conv.id,
            )
        ctx = self.assistant.context(ws, conversation_id, text, messages=messages, page=page)
        convo: list[dict[str, Any]] = list(ctx.messages)
        offered = tools.specs(conv)
        sources: list[dict[str, Any]] = []
        proposed: dict[str, Any] | None = None
        content = ""
        for _ in range(MAX_ROUNDS):
            try:
                with observability.span("memwise.model.chat"):
                    out = self.complete(convo, offered)
                observability.MODEL_CALLS.labels("chat", "ok").inc()
            except Exception as exc:  # the model could not be asked: say so, never a 500
                observability.MODEL_CALLS.labels("chat", "error").inc()
                raise errors.Unavailable(
                    "the assistant's model could not be reached; the message is recorded",
                    code="model_unavailable",
                    reason=type(exc).__name__,
                ) from exc
            calls = out.get("tool_calls") or []
            if not calls:
                content = out.get("content") or ""
                break
            convo.append(
                {
                    "role": "assistant",
                    "content": out.get("content"),
                    "tool_calls": [
                        {
                            "id": c["id"],
                            "type": "function",
                            "function": {
                                "name": c["name"],
                                "arguments": json.dumps(c["arguments"]),
                            },
                        }
                        for c in calls
                    ],
                }
            )
            for call in calls:
                result, found, held = self._run(ws, conv, call, by)
                sources += found
                proposed = held or proposed
                convo.append(
                    {
                        "role": "tool",
                        "tool_call_id": call["id"],
                        "content": tools.wrap(call["name"], result),
                    }
                )
        else:
            content = "I couldn't finish that just now. Please try again."
        if proposed is not None:
            self.windows.set_pending(ws, conversation_id, proposed)
            content = content or (f"Shall I {proposed['summary']}? Please confirm.")
        reply = Reply(
            content or "I don't know that yet.",
            sources,
            handoff=False,
            pending_confirmation=proposed,
            route=ctx.route,
        )
        self.parts.record.append(ws, conversation_id, "assistant", reply.reply)
        return reply

    def _run(
        self, ws: WorkspaceId, conv: Any, call: dict[str, Any], by: Principal | None = None
    ) -> tuple[str, list[dict[str, Any]], dict[str, Any] | None]:
        at = tools.Call(self.parts, ws, tools.Door.model, "model", by, conversation=conv)
        try:
            done = tools.execute(str(call["name"]), dict(call.get("arguments") or {}), at)
        except errors.MemwiseError as exc:
            said = "refused" if isinstance(exc, errors.Invalid | errors.Forbidden) else "failed"
            return f"{said}: {exc.message}", [], None
        if isinstance(done, tools.Proposal):
            held = {"tool": done.tool, "arguments": done.arguments, "summary": done.summary}
            return "proposed: ask the user to confirm before it is created", [], held
        return done.text, done.sources, None

    def _execute_pending(
        self, ws: WorkspaceId, conv: Any, pending: dict[str, Any], by: Principal | None = None
    ) -> Reply:
        at = tools.Call(self.parts, ws, tools.Door.model, "model", by, conversation=conv)
        name = str(pending.get("tool") or "create_ticket")
        try:
            done = tools.execute(name, dict(pending.get("arguments") or {}), at, confirmed=True)
        except errors.MemwiseError:
            return Reply("I couldn't pass it on just now; please try again shortly.")
        assert isinstance(done, tools.Result)
        ticket = done.data
        said = (
            "Done — it's with the support team."
            if ticket.get("status") == "accepted"
            else "I couldn't pass it on just now; please try again shortly."
        )
        return Reply(
            said, ticket={"id": ticket.get("id"), "status": ticket.get("status")}, route="handoff"
        )
