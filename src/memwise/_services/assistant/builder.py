"""The setup builder: four steps from a new workspace to an assistant worth switching on.

1. **Your business**: its name, timezone, plan and business domain (what memory extraction
   needs); the builder makes (or names) the agent it sets up.
2. **What it knows**: notes, documents with their source links, and FAQs, each through the
   teaching step as a draft the person approves on the spot.
3. **How it helps**: the agent's identity and rules (versioned, served once approved), the
   channels the business intends to use (recorded as intent: nothing is connected), and
   memory on or off with the three conditions it runs under.
4. **Try it**: the preview chat, which is not live AI: it quotes the notes with their source,
   shows the hand-off when they are silent, and a taught answer is then marked "taught".

The builder can be left and resumed: its state is read back from the parts themselves, with
what is still missing. Doors open later, one at a time, from the agent's page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from memwise import errors
from memwise._domain.access import Principal, require_staff
from memwise._domain.tenancy import Plan, Role
from memwise._ids import ConversationId, WorkspaceId
from memwise._services.assistant import ports
from memwise._services.assistant.assistant import Assistant
from memwise._services.assistant.rulebook import Rulebook
from memwise._services.platform import rows
from memwise._services.platform.runtime import Runtime
from memwise._services.platform.tenancy import DOORS, SIGNED_DOORS, Tenancy, check_doors
from memwise._storage.stores import record as record_store
from memwise._storage.stores import setup as store
from memwise._storage.stores import webhooks as webhook_store

STEPS = ("business", "knowledge", "helps", "try")
TITLES = {
    "business": "Your business",
    "knowledge": "What it knows",
    "helps": "How it helps",
    "try": "Try it",
}
PREVIEW_CONTACT = "Preview (setup builder)"
MEMORY_CONDITIONS = (
    "the workspace's plan includes memory (every plan but free)",
    "memory is switched on for this agent (it needs a business domain)",
    "the conversation is not excluded from memory (a Telegram /reset starts an excluded one)",
)
_FAQ = re.compile(
    r"^\s*Q\s*[:.)]\s*(.+?)\s*\n\s*A\s*[:.)]\s*(.+?)\s*(?=\n\s*Q\s*[:.)]|\Z)", re.S | re.M
)


def faq_pairs(text: str) -> list[tuple[str, str]]:
    """ "Q: … / A: …" blocks as (question, answer) pairs, in order."""
    return [(" ".join(q.split()), a.strip()) for q, a in _FAQ.findall(text or "")]


def door_needs(door: str) -> str:
    """What a door needs before customers can use it, in one sentence."""
    if door == "web":
        return (
            "a page with the widget snippet; your server opens each conversation with a "
            "workspace key and hands the page only its visitor token"
        )
    if door == "telegram":
        return (
            "a bot token from @BotFather, given to memwise telegram --agent … as "
            "MEMWISE_TELEGRAM_TOKEN (the token stays with that process, never in memwise)"
        )
    return (
        "the workspace's webhook secret, with which your provider's relay signs each message "
        f"it posts to /v1/webhooks/{{workspace}}/{door}"
    )


class Builder:
    """The four setup steps of a new business's assistant, over the parts it names."""

    def __init__(
        self,
        rt: Runtime,
        *,
        tenancy: Tenancy,
        record: ports.RecordPort,
        knowledge: ports.KnowledgePort,
        teaching: ports.TeachingPort,
        rulebook: Rulebook,
        assistant: Assistant,
    ) -> None:
        self.rt = rt
        self.tenancy, self.record, self.rulebook = tenancy, record, rulebook
        self.knowledge, self.teaching, self.assistant = knowledge, teaching, assistant

    # -- where it stands -------------------------------------------------------------------
    def state(self, workspace_id: WorkspaceId, *, by: Principal | None = None) -> dict[str, Any]:
        """Every step with whether it is done and what is still missing."""
        require_staff(by)
        ws = self.tenancy.get_workspace(workspace_id)
        with self.rt.db.read() as conn:
            row = store.get(conn, workspace_id)
            counts = store.knowledge_counts(conn, workspace_id)
            tried = store.preview_counts(
                conn, workspace_id, row.preview_conversation_id if row else None
            )
        agent = self.tenancy.get_agent(workspace_id, row.agent_id) if row and row.agent_id else None
        if agent is None:  # a workspace set up without the builder (the demo, the library)
            agent = next(iter(self.tenancy.agents(workspace_id)), None)
        standards, written = self.rulebook.served(workspace_id, agent.id) if agent else (None, None)
        channels = list(row.channels) if row else []
        missing: dict[str, list[str]] = {s: [] for s in STEPS}  # what keeps a step from done
        waiting: dict[str, list[str]] = {s: [] for s in STEPS}  # shown, but not blocking
        if agent is None:
            missing["business"].append("the business's details and the agent to set up")
        elif not agent.domain:
            missing["business"].append("a business domain (memory extraction needs it)")
        if counts["documents"] + counts["lessons"] == 0:
            missing["knowledge"].append("at least one note, document or FAQ, approved")
        drafts = counts["document_drafts"] + counts["lesson_drafts"]
        if drafts:
            waiting["knowledge"].append(
                f"{drafts} draft{'s' if drafts != 1 else ''} waiting for approval"
            )
        persona = (written.persona or {}) if written else {}
        if not (persona.get("voice") or persona.get("helps_with")):
            missing["helps"].append("the assistant's identity: its voice and what it helps with")
        if not channels:
            missing["helps"].append("the channels you intend to use")
        if tried["asked"] == 0:
            missing["try"].append("ask the preview something")
        steps = [
            {
                "name": s,
                "title": TITLES[s],
                "done": not missing[s],
                "missing": missing[s] + waiting[s],
            }
            for s in STEPS
        ]
        gates = [
            ws.plan.includes_memory or not self.rt.metering,
            bool(agent and agent.memory_enabled),
            True,  # per conversation: said, not checked here
        ]
        return {
            "steps": steps,
            "next": next((s["name"] for s in steps if not s["done"]), None),
            "complete": all(s["done"] for s in steps),
            "business": {
                "name": ws.name,
                "timezone": ws.timezone,
                "plan": ws.plan.value,
                "plan_requested": row.plan_requested if row else None,
                "domain": agent.domain if agent else None,
                "agent_id": agent.id if agent else None,
                "agent_name": agent.name if agent else None,
            },
            "knowledge": counts,
            "helps": {
                "persona": persona or None,
                "rules": written.rules if written else [],
                "rules_version": written.version if written else None,
                "standards": standards.rules if standards else [],
                "channels": channels,
                "memory_enabled": bool(agent and agent.memory_enabled),
                "memory_conditions": [
                    {"condition": c, "met": m}
                    for c, m in zip(MEMORY_CONDITIONS, gates, strict=True)
                ],
            },
            "try": {**tried, "conversation_id": row.preview_conversation_id if row else None},
        }

    def _agent_id(self, workspace_id: WorkspaceId) -> str:
        with self.rt.db.read() as conn:
            row = store.get(conn, workspace_id)
        if row is None or row.agent_id is None:
            raise errors.Conflict(
                "start with step 1, your business: it names the agent to set up",
                code="setup_business_first",
            )
        return str(row.agent_id)

    # -- step 1 ----------------------------------------------------------------------------
    def business(
        self,
        workspace_id: WorkspaceId,
        *,
        name: str,
        timezone: str,
        domain: str,
        agent_name: str | None = None,
        plan: str | None = None,
        by: Principal | None = None,
    ) -> dict[str, Any]:
        """The business's details; the first time, the agent it sets up (its doors closed
        until switched on one at a time). A plan other than the workspace's is recorded as
        the plan asked for: whoever runs the server changes plans."""
        require_staff(by, Role.admin)
        requested = rows.enum_value(Plan, plan, "plan").value if plan else None
        with self.rt.db.write() as conn:
            row = store.get(conn, workspace_id)
            ws = self.tenancy.update_workspace(workspace_id, name=name, timezone=timezone, by=by)
            label = agent_name or f"{ws.name} assistant"
            if row is not None and row.agent_id:
                agent = self.tenancy.update_agent(
                    workspace_id, row.agent_id, {"name": label, "domain": domain}
                )
            else:
                agent = self.tenancy.create_agent(workspace_id, label, domain=domain, doors=[])
            values: dict[str, Any] = {"agent_id": agent.id, "updated_at": self.rt.clock.now()}
            if requested is not None:  # left out: what was asked for before stays asked for
                values["plan_requested"] = requested if requested != ws.plan.value else None
            store.put(conn, workspace_id, **values)
        return self.state(workspace_id, by=by)

    # -- step 2 ----------------------------------------------------------------------------
    def add_knowledge(
        self,
        workspace_id: WorkspaceId,
        *,
        kind: str,
        title: str,
        body: str,
        source_url: str | None = None,
        actor: str = "operator",
        by: Principal | None = None,
    ) -> list[dict[str, Any]]:
        """Notes or a document become a document draft; FAQs ("Q: … / A: …" blocks) one
        lesson draft per pair. Each is approved on the spot (``approve``) to be served."""
        require_staff(by)
        if kind == "faq":
            pairs = faq_pairs(body)
            if not pairs:
                raise errors.Invalid(
                    "write FAQs as 'Q: question' and 'A: answer' lines", code="invalid_faq"
                )
            if len(pairs) > 200:
                raise errors.LimitExceeded("at most 200 questions at once", code="too_many")
            with self.rt.db.write():  # every pair a draft, or none
                made = [self.teaching.draft(workspace_id, q, a, actor=actor) for q, a in pairs]
            return [
                {"part": "lesson", "id": le.id, "title": le.question, "status": le.status.value}
                for le in made
            ]
        if kind not in ("note", "document"):
            raise errors.Invalid("kind is one of: note, document, faq", code="invalid_kind")
        doc = self.knowledge.add_document(
            workspace_id,
            kind="note" if kind == "note" else "policy",
            title=title,
            body=body,
            source_url=source_url,
            version="1",
            actor=actor,
            by=by,
            publish=False,
        )
        return [{"part": "document", "id": doc.id, "title": doc.title, "status": doc.status}]

    def approve(
        self,
        workspace_id: WorkspaceId,
        part: str,
        item_id: str,
        *,
        actor: str,
        by: Principal | None,
    ) -> dict[str, Any]:
        """Approve a draft of step 2 on the spot (admin+): it is served from now on."""
        if part == "document":
            document = self.knowledge.approve_document(
                workspace_id, item_id, approved_by=actor, by=by
            )
            return {"part": part, "id": item_id, "receipt_id": document.id}
        if part == "lesson":
            lesson = self.teaching.approve(workspace_id, item_id, approved_by=actor, by=by)
            return {"part": part, "id": item_id, "receipt_id": lesson.id}
        raise errors.Invalid("part is document or lesson", code="invalid_part")

    # -- step 3 ----------------------------------------------------------------------------
    def helps(
        self,
        workspace_id: WorkspaceId,
        *,
        persona: Mapping[str, Any] | None = None,
        rules: Sequence[Any] | None = None,
        channels: Sequence[str] | None = None,
        memory_enabled: bool | None = None,
        actor: str = "operator",
        by: Principal | None = None,
    ) -> dict[str, Any]:
        """The identity and rules (a new version: served at once for an admin, a draft for
        an operator), the channels intended, and memory on or off."""
        require_staff(by)
        agent_id = self._agent_id(workspace_id)
        wanted = check_doors(channels) if channels is not None else None
        if memory_enabled is not None:
            require_staff(by, Role.admin)
        with self.rt.db.write() as conn:
            if persona is not None or rules is not None:
                _, current = self.rulebook.served(workspace_id, agent_id)
                self.rulebook.propose(
                    workspace_id,
                    agent_id,
                    list(rules) if rules is not None else (current.rules if current else []),
                    persona if persona is not None else (current.persona if current else None),
                    note="from the setup builder",
                    actor=actor,
                    by=by,
                )
            if memory_enabled is not None:
                self.tenancy.update_agent(
                    workspace_id, agent_id, {"memory_enabled": bool(memory_enabled)}
                )
            if wanted is not None:
                store.put(conn, workspace_id, channels=wanted, updated_at=self.rt.clock.now())
        return self.state(workspace_id, by=by)

    # -- step 4 ----------------------------------------------------------------------------
    def preview(
        self, workspace_id: WorkspaceId, text: str, *, actor: str, by: Principal | None = None
    ) -> Any:
        """Ask the preview as a customer would (not live AI: knowledge quoted with its
        source, or the hand-off). Its conversation is excluded from memory."""
        require_staff(by)
        agent_id = self._agent_id(workspace_id)
        conversation_id = self._preview_conversation(workspace_id, agent_id)
        return self.assistant.chat(workspace_id, conversation_id, text, actor=actor)

    def _preview_conversation(self, workspace_id: WorkspaceId, agent_id: str) -> ConversationId:
        with self.rt.db.write() as conn:
            row = store.get(conn, workspace_id)
            assert row is not None  # step 1 made it
            if row.preview_conversation_id:
                try:
                    conv = record_store.conversation_row(
                        conn, workspace_id, row.preview_conversation_id
                    )
                except errors.NotFound:  # deleted with its contact: the preview starts afresh
                    conv = None
                if conv is not None and conv.status == "open" and conv.agent_id == agent_id:
                    return ConversationId(str(conv.id))
            contact_id = row.preview_contact_id
            if contact_id is not None:
                try:
                    self.tenancy.get_contact(workspace_id, contact_id)
                except errors.NotFound:
                    contact_id = None
            if contact_id is None:
                contact_id = self.tenancy.create_contact(workspace_id, PREVIEW_CONTACT).id
            conv, _ = self.record.start(
                workspace_id, agent_id, "api", contact_id=contact_id, excluded_from_memory=True
            )
            store.put(
                conn,
                workspace_id,
                preview_contact_id=contact_id,
                preview_conversation_id=conv.id,
                updated_at=self.rt.clock.now(),
            )
            return conv.id

    def teach(
        self,
        workspace_id: WorkspaceId,
        unanswered_id: str,
        answer: str,
        *,
        actor: str,
        by: Principal | None = None,
    ) -> dict[str, Any]:
        """Teach the answer to a question the preview handed off: a lesson draft, approved on
        the spot when the person may (admin+); asked again, the preview marks it taught."""
        require_staff(by)
        with self.rt.db.read() as conn:
            asked = rows.require(conn, "unanswered", workspace_id, unanswered_id)
        lesson = self.teaching.draft(
            workspace_id, asked.question, answer, unanswered_id=unanswered_id, actor=actor
        )
        if by is None or by.at_least(Role.admin):
            self.teaching.approve(workspace_id, lesson.id, approved_by=actor, by=by)
            lesson = self.teaching.lesson(workspace_id, lesson.id)
        return {"id": lesson.id, "question": lesson.question, "status": lesson.status.value}

    def handed_off(
        self, workspace_id: WorkspaceId, *, by: Principal | None = None
    ) -> list[dict[str, Any]]:
        """The questions the preview handed off, each with whether it is taught now."""
        require_staff(by)
        with self.rt.db.read() as conn:
            row = store.get(conn, workspace_id)
            if row is None or row.preview_conversation_id is None:
                return []
            found = store.handed_off(conn, workspace_id, row.preview_conversation_id)
        return [{"id": u.id, "question": u.question, "lesson_id": u.lesson_id} for u in found]

    # -- the doors, switched on later one at a time ----------------------------------------
    def doors(
        self, workspace_id: WorkspaceId, agent_id: str, *, by: Principal | None = None
    ) -> list[dict[str, Any]]:
        """Each customer door of an agent: on or off, intended in the builder or not, and
        what it needs (with whether that is in place, where memwise can tell)."""
        require_staff(by)
        agent = self.tenancy.get_agent(workspace_id, agent_id)
        with self.rt.db.read() as conn:
            row = store.get(conn, workspace_id)
            secret = webhook_store.secret(conn, workspace_id) is not None
        intended = set(row.channels) if row and row.agent_id == agent_id else set()
        out = []
        for door in DOORS:
            ready: bool | None = None  # memwise cannot tell (a token held by another process)
            if door == "web":
                ready = True
            elif door in SIGNED_DOORS:
                ready = secret
            out.append(
                {
                    "door": door,
                    "on": agent.door_open(door),
                    "intended": door in intended,
                    "needs": door_needs(door),
                    "ready": ready,
                }
            )
        return out
