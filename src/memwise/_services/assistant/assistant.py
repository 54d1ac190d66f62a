"""The assistant: per-turn context, and preview mode (no model) that never invents.

Preview mode answers from knowledge by quoting the best passage or lesson with its source
("taught" for a lesson); when knowledge is silent it hands off honestly (an unanswered item,
and a ticket when the contact can be reached: "with the support team" only once the ticket
is accepted); account questions go through the account adapter with its honest wording;
staff notebook commands work; a customer can never write the notebook, and instructions in
a customer's message are recorded, never obeyed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from memwise import _observability as observability
from memwise import errors
from memwise._context import router
from memwise._context.assemble import Context, Inputs, assemble
from memwise._domain.access import Principal, require_staff
from memwise._domain.knowledge import shortened
from memwise._ids import ConversationId, WorkspaceId
from memwise._policies.window import Message
from memwise._safety import instructions
from memwise._services.assistant import ports, tools
from memwise._services.assistant.accounts import Accounts
from memwise._services.assistant.notebook import Notebook
from memwise._services.platform.runtime import Runtime
from memwise._services.platform.tenancy import Tenancy
from memwise._storage.stores import record as record_store
from memwise._storage.stores import rulebook as rules_store

REFUSAL = (
    "I can't set up standing instructions, discounts or changes from a chat message, "
    "but your message is on record for the team. Is there something I can look up "
    "for you?"
)
HANDOFF = "I don't know that yet — I've passed it to the team."


@dataclass
class Reply:
    reply: str
    sources: list[dict[str, Any]] = field(default_factory=list)
    handoff: bool = False
    ticket: dict[str, Any] | None = None
    pending_confirmation: dict[str, Any] | None = None
    route: str = "knowledge"
    unanswered_id: str | None = None


class Assistant:
    """A turn's context and the preview answer, from the parts it names (ports.py)."""

    def __init__(
        self,
        rt: Runtime,
        *,
        record: ports.RecordPort,
        windows: ports.WindowsPort,
        recaller: ports.RecallerPort,
        knowledge: ports.KnowledgePort,
        teaching: ports.TeachingPort,
        tickets: ports.TicketsPort,
        tenancy: Tenancy,
        notebook: Notebook,
        accounts: Accounts,
    ) -> None:
        self.rt = rt
        self.record, self.windows, self.recaller = record, windows, recaller
        self.knowledge, self.teaching, self.tickets = knowledge, teaching, tickets
        self.tenancy, self.notebook, self.accounts = tenancy, notebook, accounts

    # -- context ---------------------------------------------------------------------------
    def context(
        self,
        workspace_id: WorkspaceId,
        conversation_id: ConversationId,
        request: str,
        *,
        messages: list[Message] | None = None,
        page: dict[str, str] | None = None,
        by: Principal | None = None,
    ) -> Context:
        """The context for one turn. Staff only: it holds the system prompt, staff notes and
        the explain trace (a visitor gets answers through ``chat``, never the context)."""
        require_staff(by)
        with (
            observability.span("memwise._context", workspace=workspace_id),
            observability.timed(observability.CONTEXT_SECONDS),
            self.rt.db.reading(),
        ):
            return self._context(workspace_id, conversation_id, request, messages, page)

    def _context(
        self,
        workspace_id: WorkspaceId,
        conversation_id: ConversationId,
        request: str,
        messages: list[Message] | None,
        page: dict[str, str] | None,
    ) -> Context:
        if not isinstance(request, str) or not request.strip():
            raise errors.Invalid("the request needs some words", code="empty_request")
        with self.rt.db.read() as conn:
            head = record_store.header(conn, workspace_id, conversation_id)
            conv, agent = head.conv, head.agent
            written = rules_store.served(conn, workspace_id, [rules_store.WORKSPACE, agent.id])
        view = self.windows.view(workspace_id, conversation_id, messages, known=(conv, agent))
        x = Inputs(
            request=request,
            firm=head.firm,
            zone=ZoneInfo(head.timezone),
            now=self.rt.clock.now(),
            agent=agent.name,
            person=head.person,
            staff=conv.user_id is not None,
            page=page,
            window=view.messages,
            summary=view.summary,
            tools=tools.specs(conv),
            standards=written.get(rules_store.WORKSPACE),
            agent_rules=written.get(agent.id),
        )
        if conv.user_id:
            block = self.notebook.block(workspace_id, conv.user_id)
            x.notebook, x.notebook_left_out = block.text or None, block.left_out
        else:
            recall = self.recaller.recall(workspace_id, conv.contact_id, request)
            x.profile = [(ln.ids[0], ln.text, ln.trust) for ln in recall.profile]
            x.notes = [(ln.ids[0], ln.text, ln.trust) for ln in recall.notes]
            x.excluded = [c for c in recall.explain if not c.included]
        if router.route(request) == "knowledge":
            x.knowledge = self.knowledge.search(workspace_id, request, limit=3)
        return assemble(x, self.rt.limits.context.model_dump())

    # -- preview mode ----------------------------------------------------------------------
    def chat(
        self,
        workspace_id: WorkspaceId,
        conversation_id: ConversationId,
        text: str,
        *,
        messages: list[Message] | None = None,
        page: dict[str, str] | None = None,
        actor: str = "visitor",
        by: Principal | None = None,
    ) -> Reply:
        """``by``: who speaks, when a door knows (a notebook command writes only its own
        person's notebook)."""
        if not isinstance(text, str) or not text.strip():
            raise errors.Invalid("a message needs some words", code="empty_message")
        conv = self.record.get(workspace_id, conversation_id)
        staff = conv.user_id is not None
        self.record.append(workspace_id, conversation_id, "user" if staff else "customer", text)
        reply = self._answer(workspace_id, conv, text.strip(), actor, by)
        self.record.append(workspace_id, conversation_id, "assistant", reply.reply)
        return reply

    def _answer(
        self, ws: WorkspaceId, conv: Any, text: str, actor: str, by: Principal | None = None
    ) -> Reply:
        route = router.route(text)
        if conv.user_id:
            command = self._notebook_command(ws, conv, text, actor, by)
            if command is not None:
                return command
        elif route != "live_record" and _is_instruction(text):
            return Reply(REFUSAL, route="refused")
        if route == "live_record":
            kind, item = router.live_target(text)
            if kind in ("order", "invoice", "shipment") and item is None:
                return Reply(f"Which {kind} number should I look up?", route=route)
            answer = self.accounts.lookup(ws, conv.id, kind, item, actor=actor)
            return Reply(
                answer.sentence,
                [{"part": "live_record", "id": item, "title": kind, "source_url": None}],
                route=route,
            )
        if route == "contact_notes" and conv.contact_id:
            recall = self.recaller.recall(ws, conv.contact_id, text)
            # The customer hears what they said; an operator's notes are staff context only.
            notes = [ln for ln in recall.notes if not ln.staff_only]
            shown = notes or [ln for ln in recall.profile if not ln.staff_only]
            if not shown:  # unknown stays unknown: said, never stored
                return Reply("I don't have anything on record about that.", route=route)
            return Reply(
                "Here is what I have from before:\n" + "\n".join(ln.text for ln in shown),
                [
                    {"part": "notes", "id": ln.ids[0], "title": None, "source_url": None}
                    for ln in shown
                ],
                route=route,
            )
        hit = self.knowledge.answers(ws, text)
        if hit is not None:
            said, where = hit.excerpt, f" (source: {hit.title}"
            if hit.part == "lesson":  # the answer itself, as the team taught it (not "Q: … A:")
                said = self.teaching.lesson(ws, hit.id).answer
                where = " (as our team taught it"
            where += (f", {hit.source_url}" if hit.source_url else "") + ")"
            return Reply(
                f"{said}{where}",
                [
                    {
                        "part": hit.part,
                        "id": hit.id,
                        "title": hit.title,
                        "source_url": hit.source_url,
                    }
                ],
                route="knowledge",
            )
        return self._handoff(ws, conv, text, actor)

    def _handoff(self, ws: WorkspaceId, conv: Any, text: str, actor: str) -> Reply:
        item, _ = self.teaching.record_unanswered(  # a long message is asked in short
            ws, shortened(text), conversation_id=conv.id, contact_id=conv.contact_id
        )
        reachable = False
        if conv.contact_id:
            c = self.tenancy.get_contact(ws, conv.contact_id)
            reachable = bool(c.emails or c.phones or c.telegram_ids)
        if not reachable:
            return Reply(HANDOFF, handoff=True, route="handoff", unanswered_id=item.id)
        ticket = self.tickets.open(
            ws,
            subject=f"Unanswered: {shortened(text, 120)}",
            body=shortened(text, 20_000),
            contact_id=conv.contact_id,
            conversation_id=conv.id,
            unanswered_id=item.id,
            actor=actor,
        )
        said = HANDOFF
        if ticket.status == "accepted":  # one sentence: who has it, and what happens next
            said = "I don't know that yet — it's with the support team, who will get back to you."
        return Reply(
            said,
            handoff=True,
            ticket={"id": ticket.id, "status": ticket.status},
            route="handoff",
            unanswered_id=item.id,
        )

    def _notebook_command(
        self, ws: WorkspaceId, conv: Any, text: str, actor: str, by: Principal | None = None
    ) -> Reply | None:
        user = conv.user_id
        low = text.lower()
        if low.startswith("/reset"):
            self.windows.reset(ws, conv.id)
            return Reply(
                "Done — this conversation starts fresh. Your saved rules are kept.", route="window"
            )
        if re.match(r"^(?:/list|what do you remember|what are my rules|list (?:my )?rules)", low):
            entries = self.notebook.entries(ws, user, by=by)
            if not entries:
                return Reply("Your notebook is empty.", route="notebook")
            return Reply(
                "\n".join(f"{n}. {e.text} [{e.id}]" for n, e in enumerate(entries, 1)),
                route="notebook",
            )
        m = re.match(r"^(?:/forget|forget)\s*:?\s*(.+)$", text, re.I | re.S)
        if m:
            removed = self.notebook.forget_phrase(ws, user, m.group(1), actor=actor, by=by)
            return Reply(f"Removed {removed} rule{'s' if removed != 1 else ''}.", route="notebook")
        m = re.match(r"^(?:/remember|remember)\s*(?:that)?\s*:?\s*(.+)$", text, re.I | re.S)
        if m:
            try:
                added = self.notebook.add(ws, user, m.group(1), actor=actor, by=by)
            except errors.Invalid as exc:
                return Reply(f"I didn't save that: {exc.message}", route="notebook")
            return Reply(
                "I already have that rule." if added.duplicate else "Saved.", route="notebook"
            )
        return None


def _is_instruction(text: str) -> bool:
    flags = {f.kind for f in instructions.scan(text)}
    return bool(
        flags
        & {
            "memory_command",
            "standing_order",
            "discount_demand",
            "override",
            "new_identity",
            "role_marker",
            "directive",
            "tool_syntax",
        }
    )
