"""The console's setup builder, the agents' pages (identity and rules, doors) and the team
standards. Registered on the console's router; every write is a CSRF-checked form."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import Response

from memwise import errors
from memwise._console.routes import arg, get, post, render
from memwise._console.session import Operator, back, mw_of
from memwise._domain.knowledge import DocumentStatus, LessonStatus
from memwise._extraction import pack
from memwise._services.assistant.builder import STEPS
from memwise._services.platform.tenancy import DOORS


def _domains() -> list[str]:
    return pack.names()


def _lines(text: str) -> list[str]:
    return [ln.strip().lstrip("-•* ").strip() for ln in (text or "").splitlines() if ln.strip()]


# -- the builder ---------------------------------------------------------------------------
@get("/setup")
def setup(request: Request, who: Operator) -> Response:
    mw, ws = mw_of(request), who.workspace_id
    state = mw.builder.state(ws, by=who.principal)
    step = request.query_params.get("step") or state["next"] or "try"
    if step not in STEPS:
        step = "business"
    conv_id = state["try"]["conversation_id"]
    transcript = mw.record.turns(ws, conv_id, limit=500)[-40:] if conv_id else []
    open_questions = mw.builder.handed_off(ws, by=who.principal)
    drafts = [
        *mw.knowledge.documents(ws, status=DocumentStatus.draft),
        *mw.teaching.lessons(ws, LessonStatus.draft),
    ]
    return render(
        request,
        who,
        "setup.html",
        state=state,
        step=step,
        domains=_domains(),
        doors=DOORS,
        transcript=transcript,
        questions=open_questions,
        drafts=drafts,
        current=mw.knowledge.documents(ws)[:30],
        lessons=mw.teaching.lessons(ws, LessonStatus.published)[:30],
    )


@post("/setup/business")
def setup_business(request: Request, who: Operator, data: dict[str, str]) -> Response:
    mw_of(request).builder.business(
        who.workspace_id,
        name=data.get("name", ""),
        timezone=data.get("timezone", "").strip(),
        domain=data.get("domain", ""),
        agent_name=data.get("agent_name") or None,
        plan=data.get("plan") or None,
        by=who.principal,
    )
    return back("/console/setup?step=knowledge", note="Saved. Next: what it knows.")


@post("/setup/knowledge")
def setup_knowledge(request: Request, who: Operator, data: dict[str, str]) -> Response:
    made = mw_of(request).builder.add_knowledge(
        who.workspace_id,
        kind=data.get("kind", "note"),
        title=data.get("title", ""),
        body=data.get("body", ""),
        source_url=data.get("source_url") or None,
        actor=who.actor,
        by=who.principal,
    )
    n = len(made)
    return back(
        "/console/setup?step=knowledge",
        note=f"{n} draft{'s' if n != 1 else ''} added: approve to serve "
        f"{'them' if n != 1 else 'it'}.",
    )


@post("/setup/knowledge/{part}/{item_id}/approve")
def setup_approve(request: Request, who: Operator, data: dict[str, str]) -> Response:
    mw_of(request).builder.approve(
        who.workspace_id,
        arg(request, "part"),
        arg(request, "item_id"),
        actor=who.actor,
        by=who.principal,
    )
    return back("/console/setup?step=knowledge", note="Approved: the assistant knows it now.")


@post("/setup/helps")
def setup_helps(request: Request, who: Operator, data: dict[str, str]) -> Response:
    mw = mw_of(request)
    channels = [d for d in DOORS if data.get(f"channel_{d}")]
    mw.builder.helps(
        who.workspace_id,
        persona={"voice": data.get("voice", ""), "helps_with": data.get("helps_with", "")},
        rules=_lines(data.get("rules", "")),
        channels=channels,
        memory_enabled=(data.get("memory") == "on") if who.is_admin else None,
        actor=who.actor,
        by=who.principal,
    )
    return back("/console/setup?step=try", note="Saved. Next: try it.")


@post("/setup/try", waits=True)  # the preview may wait on a model
def setup_try(request: Request, who: Operator, data: dict[str, str]) -> Response:
    reply = mw_of(request).builder.preview(
        who.workspace_id, data.get("text", ""), actor=who.actor, by=who.principal
    )
    return back(
        "/console/setup?step=try",
        note="Handed off: teach the answer below." if reply.handoff else None,
    )


@post("/setup/teach")
def setup_teach(request: Request, who: Operator, data: dict[str, str]) -> Response:
    taught = mw_of(request).builder.teach(
        who.workspace_id,
        data.get("unanswered_id", ""),
        data.get("answer", ""),
        actor=who.actor,
        by=who.principal,
    )
    if taught["status"] == "published":
        return back("/console/setup?step=try", note="Taught. Ask again to see it.")
    return back("/console/setup?step=try", note="Saved as a draft: an admin approves it.")


# -- agents: identity and rules, doors ------------------------------------------------------
@get("/agents")
def agents(request: Request, who: Operator) -> Response:
    mw, ws = mw_of(request), who.workspace_id
    return render(
        request,
        who,
        "agents.html",
        agents=mw.tenancy.agents(ws),
        versions=mw.rulebook.versions(ws, None, by=who.principal),
    )


@get("/agents/{agent_id}")
def agent(request: Request, who: Operator) -> Response:
    return _agent_page(request, who, arg(request, "agent_id"))


def _agent_page(
    request: Request, who: Operator, agent_id: str, secret: str | None = None
) -> Response:
    """An agent's page: its identity and rules with every version, and its doors."""
    mw, ws = mw_of(request), who.workspace_id
    return render(
        request,
        who,
        "agent.html",
        agent=mw.tenancy.get_agent(ws, agent_id),
        versions=mw.rulebook.versions(ws, agent_id, by=who.principal),
        doors=mw.builder.doors(ws, agent_id, by=who.principal),
        secret=secret,
        base=str(request.base_url).rstrip("/"),
    )


def _rules_target(request: Request) -> str | None:
    agent_id = request.path_params.get("agent_id")
    return None if agent_id in (None, "workspace") else str(agent_id)


def _page_of(agent_id: str | None) -> str:
    return f"/console/agents/{agent_id}" if agent_id else "/console/agents"


@post("/agents/{agent_id}/rules")
def propose_rules(request: Request, who: Operator, data: dict[str, str]) -> Response:
    agent_id = _rules_target(request)
    persona = None
    if agent_id is not None:
        persona = {"voice": data.get("voice", ""), "helps_with": data.get("helps_with", "")}
    version = mw_of(request).rulebook.propose(
        who.workspace_id,
        agent_id,
        _lines(data.get("rules", "")),
        persona,
        note=(data.get("note") or "").strip() or None,
        actor=who.actor,
        by=who.principal,
    )
    said = (
        f"Version {version.version} is served."
        if version.status == "served"
        else f"Version {version.version} proposed: an admin approves it before it is served."
    )
    return back(_page_of(agent_id), note=said)


@post("/rules/{version_id}/{decision}")
def decide_rules(request: Request, who: Operator, data: dict[str, str]) -> Response:
    decision = arg(request, "decision")
    mw = mw_of(request)
    if decision == "approve":
        v = mw.rulebook.approve(
            who.workspace_id, arg(request, "version_id"), actor=who.actor, by=who.principal
        )
        note = f"Version {v.version} is served."
    elif decision == "reject":
        v = mw.rulebook.reject(
            who.workspace_id, arg(request, "version_id"), actor=who.actor, by=who.principal
        )
        note = f"Version {v.version} rejected."
    else:
        raise errors.NotFound("not found", code="not_found")
    return back(_page_of(v.agent_id), note=note)


@post("/agents/{agent_id}/rules/rollback")
def rollback_rules(request: Request, who: Operator, data: dict[str, str]) -> Response:
    agent_id = _rules_target(request)
    try:
        to = int(data.get("version", ""))
    except ValueError as exc:
        raise errors.Invalid("pick a version to roll back to", code="invalid_version") from exc
    v = mw_of(request).rulebook.rollback(
        who.workspace_id, agent_id, to, actor=who.actor, by=who.principal
    )
    return back(_page_of(agent_id), note=f"Version {to} is served again, as version {v.version}.")


@post("/agents/{agent_id}/doors/{door}")
def switch_door(request: Request, who: Operator, data: dict[str, str]) -> Response:
    agent_id, door = arg(request, "agent_id"), arg(request, "door")
    on = data.get("on") == "yes"
    mw_of(request).tenancy.set_door(who.workspace_id, agent_id, door, on, by=who.principal)
    return back(f"/console/agents/{agent_id}", note=f"The {door} door is {'on' if on else 'off'}.")


@post("/agents/{agent_id}/webhook-secret")
def webhook_secret(request: Request, who: Operator, data: dict[str, str]) -> Response:
    who.require_admin()
    mw, ws = mw_of(request), who.workspace_id
    agent_id = arg(request, "agent_id")
    mw.tenancy.get_agent(ws, agent_id)  # an unknown agent changes nothing
    return _agent_page(request, who, agent_id, secret=mw.inbound.rotate_secret(ws))
