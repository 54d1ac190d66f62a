"""Model mode: the same context and tools drive a tool-calling chat model.

Reads (lookup_account, search_knowledge, recall_notes, list_rules) run at once; writes that
change something for the customer (create_ticket) are proposed and held as the pending
confirmation beside the window — executed only when the user confirms on the next turn.
Notebook writes are staff-only; a customer conversation's model is refused them. Every tool
call passes the audit log with its status. Tool results reach the model as data blocks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from memwise import errors, observability
from memwise.context import blocks
from memwise.context.assemble import TOOLS
from memwise.policies.window import Message
from memwise.services import audit
from memwise.services.assistant import Reply

YES = re.compile(
    r"^\s*(?:yes|yep|yeah|ok(?:ay)?|sure|confirm(?:ed)?|do it|go ahead|please do)\b", re.I
)
STAFF_ONLY = {"remember_rule", "forget_rule", "list_rules"}
MAX_ROUNDS = 5

# complete(messages, tools) -> {"content": str | None, "tool_calls": [{"id", "name", "arguments"}]}
Complete = Callable[[list[dict[str, Any]], list[dict[str, Any]]], dict[str, Any]]


def openai_complete(client: Any, model: str) -> Complete:
    def complete(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        r = client.chat.completions.create(
            model=model,
            messages=messages,
            temperature=0,
            tools=[{"type": "function", "function": t} for t in tools],
        )
        m = r.choices[0].message
        calls = [
            {
                "id": c.id,
                "name": c.function.name,
                "arguments": json.loads(c.function.arguments or "{}"),
            }
            for c in (m.tool_calls or [])
        ]
        return {"content": m.content, "tool_calls": calls}

    return complete


class ModelAssistant:
    def __init__(self, mw: Any, complete: Complete) -> None:
        self.mw = mw
        self.complete = complete

    def chat(
        self,
        ws: str,
        conversation_id: str,
        text: str,
        *,
        messages: list[Message] | None = None,
        page: dict[str, str] | None = None,
        actor: str = "assistant",
    ) -> Reply:
        if not isinstance(text, str) or not text.strip():
            raise errors.Invalid("a message needs some words", code="empty_message")
        conv = self.mw.record.get(ws, conversation_id)
        staff = conv.user_id is not None
        pending = self.mw.windows.pending(ws, conversation_id)
        self.mw.record.append(ws, conversation_id, "user" if staff else "customer", text)
        if pending is not None:
            self.mw.windows.set_pending(ws, conversation_id, None)
            if YES.match(text):
                reply = self._execute_pending(ws, conv, pending)
                self.mw.record.append(ws, conversation_id, "assistant", reply.reply)
                return reply
            self._log(
                ws,
                conv,
                "create_ticket",
                pending.get("arguments", {}),
                "refused",
                "the user did not confirm",
            )
        ctx = self.mw.assistant.context(ws, conversation_id, text, messages=messages, page=page)
        convo: list[dict[str, Any]] = list(ctx.messages)
        tools = [t for t in TOOLS if staff or t["name"] not in STAFF_ONLY]
        sources: list[dict[str, Any]] = []
        proposed: dict[str, Any] | None = None
        content = ""
        for _ in range(MAX_ROUNDS):
            try:
                with observability.span("memwise.model.chat"):
                    out = self.complete(convo, tools)
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
                result, found, held = self._run(ws, conv, call, staff)
                sources += found
                proposed = held or proposed
                convo.append(
                    {
                        "role": "tool",
                        "tool_call_id": call["id"],
                        "content": blocks.data_block("tool", result, tool=call["name"]).text,
                    }
                )
        else:
            content = "I couldn't finish that just now. Please try again."
        if proposed is not None:
            self.mw.windows.set_pending(ws, conversation_id, proposed)
            content = content or (f"Shall I {proposed['summary']}? Please confirm.")
        reply = Reply(
            content or "I don't know that yet.",
            sources,
            handoff=False,
            pending_confirmation=proposed,
            route=ctx.route,
        )
        self.mw.record.append(ws, conversation_id, "assistant", reply.reply)
        return reply

    def _run(
        self, ws: str, conv: Any, call: dict[str, Any], staff: bool
    ) -> tuple[str, list[dict[str, Any]], dict[str, Any] | None]:
        name, args = call["name"], dict(call.get("arguments") or {})
        if name in STAFF_ONLY and not staff:
            self._log(ws, conv, name, args, "refused", "notebook tools are for staff users only")
            return "refused: only staff users have a notebook", [], None
        try:
            if name == "lookup_account":
                answer = self.mw.accounts.lookup(
                    ws,
                    conv.id,
                    str(args.get("kind", "order")),
                    args.get("id"),
                    account=args.get("account"),
                    actor="model",
                )
                return (
                    answer.sentence,
                    [
                        {
                            "part": "live_record",
                            "id": args.get("id"),
                            "title": args.get("kind"),
                            "source_url": None,
                        }
                    ],
                    None,
                )
            if name == "search_knowledge":
                hits = self.mw.knowledge.search(ws, str(args.get("query", "")), limit=3)
                self._log(ws, conv, name, args, "read", f"{len(hits)} hits")
                return (
                    "\n".join(f"[{h.title}] {h.excerpt} ({h.source_url or h.part})" for h in hits)
                    or "knowledge is silent on this",
                    [
                        {"part": h.part, "id": h.id, "title": h.title, "source_url": h.source_url}
                        for h in hits
                    ],
                    None,
                )
            if name == "recall_notes":
                if conv.contact_id is None:
                    return "no customer notes in a staff conversation", [], None
                recall = self.mw.recaller.recall(ws, conv.contact_id, str(args.get("query", "")))
                self._log(ws, conv, name, args, "read", f"{len(recall.notes)} notes")
                return (
                    (
                        "\n".join(ln.text for ln in recall.profile + recall.notes)
                        or "nothing on record"
                    ),
                    [],
                    None,
                )
            if name == "remember_rule":
                added = self.mw.notebook.add(
                    ws, conv.user_id, str(args.get("text", "")), actor="model"
                )
                return ("already saved" if added.duplicate else "saved"), [], None
            if name == "forget_rule":
                n = self.mw.notebook.forget_phrase(
                    ws, conv.user_id, str(args.get("phrase", "")), actor="model"
                )
                return f"removed {n}", [], None
            if name == "list_rules":
                entries = self.mw.notebook.entries(ws, conv.user_id)
                self._log(ws, conv, name, args, "read", f"{len(entries)} rules")
                return "\n".join(e.text for e in entries) or "no rules", [], None
            if name == "create_ticket":
                held = {
                    "tool": name,
                    "arguments": args,
                    "summary": f"pass this to the support team ({args.get('subject', '')})",
                }
                self._log(ws, conv, name, args, "proposed", "waiting for the user to confirm")
                return "proposed: ask the user to confirm before it is created", [], held
        except errors.MemwiseError as exc:
            self._log(ws, conv, name, args, "failed", f"{exc.code}: {exc.message}")
            return f"failed: {exc.message}", [], None
        self._log(ws, conv, name, args, "refused", "unknown tool")
        return "refused: unknown tool", [], None

    def _execute_pending(self, ws: str, conv: Any, pending: dict[str, Any]) -> Reply:
        args = pending.get("arguments", {})
        ticket = self.mw.tickets.open(
            ws,
            subject=str(args.get("subject") or "Support request"),
            body=str(args.get("body") or ""),
            contact_id=conv.contact_id,
            conversation_id=conv.id,
            actor="model",
        )
        said = (
            "Done — it's with the support team."
            if ticket.status == "accepted"
            else "I couldn't pass it on just now; please try again shortly."
        )
        return Reply(said, ticket={"id": ticket.id, "status": ticket.status}, route="handoff")

    def _log(
        self, ws: str, conv: Any, tool: str, args: dict[str, Any], status: str, result: str
    ) -> None:
        with self.mw.rt.db.write() as c:
            audit.log(
                c,
                workspace_id=ws,
                at=self.mw.clock.now(),
                actor="model",
                tool=tool,
                args=args,
                status=status,
                result=result,
                contact_id=conv.contact_id,
                conversation_id=conv.id,
            )


def anthropic_complete(client: Any, model: str, max_tokens: int = 1024) -> Complete:
    """The same loop over Anthropic's messages API (OpenAI-style history converted)."""

    def complete(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
        turns: list[dict[str, Any]] = []
        for m in messages:
            if m["role"] == "system":
                continue
            if m["role"] == "tool":
                block: dict[str, Any] = {
                    "type": "tool_result",
                    "tool_use_id": m["tool_call_id"],
                    "content": m["content"],
                }
                role, content = "user", [block]
            elif m.get("tool_calls"):
                role = "assistant"
                content = [{"type": "text", "text": m["content"]}] if m.get("content") else []
                content += [
                    {
                        "type": "tool_use",
                        "id": c["id"],
                        "name": c["function"]["name"],
                        "input": json.loads(c["function"]["arguments"]),
                    }
                    for c in m["tool_calls"]
                ]
            else:
                role = "assistant" if m["role"] == "assistant" else "user"
                content = [{"type": "text", "text": str(m.get("content") or "")}]
            if turns and turns[-1]["role"] == role:
                turns[-1]["content"] += content
            else:
                turns.append({"role": role, "content": list(content)})
        r = client.messages.create(
            model=model,
            max_tokens=max_tokens,
            system=system,
            messages=turns,
            tools=[
                {
                    "name": t["name"],
                    "description": t["description"],
                    "input_schema": t["parameters"],
                }
                for t in tools
            ],
        )
        text = "".join(getattr(b, "text", "") for b in r.content if b.type == "text")
        calls = [
            {"id": b.id, "name": b.name, "arguments": dict(b.input)}
            for b in r.content
            if b.type == "tool_use"
        ]
        return {"content": text or None, "tool_calls": calls}

    return complete
