"""The setup builder, the agent's written rules and the team standards, and its doors."""

from __future__ import annotations

from typing import Any

from memwise._api import routes
from memwise._api.auth import MW, Admin, Operator, ws
from memwise._api.schemas import (
    DoorIn,
    RollbackIn,
    RulesIn,
    SetupBusinessIn,
    SetupHelpsIn,
    SetupKnowledgeIn,
    SetupPreviewIn,
    SetupTeachIn,
    StandardsIn,
    out,
    page,
)
from memwise._web.threads import waiting
from memwise.client import models as m

router = routes.router("/v1")


# -- the builder ---------------------------------------------------------------------------
@router.get("/setup", response_model=m.Setup)
def setup_state(caller: Operator, mw: MW) -> dict[str, Any]:
    """Each of the four steps, done or not, with what is still missing."""
    return mw.builder.state(ws(caller), by=caller)


@router.put("/setup/business", response_model=m.Setup)
def setup_business(body: SetupBusinessIn, caller: Admin, mw: MW) -> dict[str, Any]:
    return mw.builder.business(ws(caller), **body.model_dump(), by=caller)


@router.post("/setup/knowledge", status_code=201, response_model=m.SetupItems)
def setup_knowledge(body: SetupKnowledgeIn, caller: Operator, mw: MW) -> dict[str, Any]:
    items = mw.builder.add_knowledge(ws(caller), **body.model_dump(), actor=caller.actor, by=caller)
    return {"items": items}


@router.post("/setup/knowledge/{part}/{item_id}/approve", response_model=m.SetupApproval)
def setup_approve(part: str, item_id: str, caller: Admin, mw: MW) -> dict[str, Any]:
    return mw.builder.approve(ws(caller), part, item_id, actor=caller.actor, by=caller)


@router.put("/setup/helps", response_model=m.Setup)
def setup_helps(body: SetupHelpsIn, caller: Operator, mw: MW) -> dict[str, Any]:
    data = body.model_dump(exclude_unset=True)
    return mw.builder.helps(ws(caller), **data, actor=caller.actor, by=caller)


@router.post("/setup/preview", response_model=m.ChatReply)
async def setup_preview(body: SetupPreviewIn, caller: Operator, mw: MW) -> dict[str, Any]:
    """Ask the preview as a customer would: knowledge quoted with its source, or the
    hand-off (with the question's ``unanswered_id`` to teach)."""
    reply = await waiting(
        mw.builder.preview,
        ws(caller),
        body.text,
        actor=caller.actor,
        by=caller,
        share_of=ws(caller),
    )
    return dict(vars(reply))


@router.post("/setup/teach", status_code=201, response_model=m.Taught)
def setup_teach(body: SetupTeachIn, caller: Operator, mw: MW) -> dict[str, Any]:
    return mw.builder.teach(
        ws(caller), body.unanswered_id, body.answer, actor=caller.actor, by=caller
    )


# -- written rules -------------------------------------------------------------------------
@router.get("/agents/{agent_id}/rules", response_model=m.Page[m.RuleVersion])
def agent_rules(agent_id: str, caller: Operator, mw: MW) -> dict[str, Any]:
    """Every version of the agent's persona and rules, newest first."""
    return page([out(v) for v in mw.rulebook.versions(ws(caller), agent_id, by=caller)], None)


@router.post("/agents/{agent_id}/rules", status_code=201, response_model=m.RuleVersion)
def propose_agent_rules(agent_id: str, body: RulesIn, caller: Operator, mw: MW) -> dict[str, Any]:
    data = body.model_dump()
    version = mw.rulebook.propose(
        ws(caller),
        agent_id,
        data["rules"],
        data["persona"],
        note=data["note"],
        actor=caller.actor,
        by=caller,
        publish=data["publish"],
    )
    return out(version)


@router.post("/agents/{agent_id}/rules/rollback", status_code=201, response_model=m.RuleVersion)
def rollback_agent_rules(agent_id: str, body: RollbackIn, caller: Admin, mw: MW) -> dict[str, Any]:
    return out(
        mw.rulebook.rollback(ws(caller), agent_id, body.version, actor=caller.actor, by=caller)
    )


@router.get("/standards", response_model=m.Page[m.RuleVersion])
def standards(caller: Operator, mw: MW) -> dict[str, Any]:
    """Every version of the team standards (workspace-wide rules), newest first."""
    return page([out(v) for v in mw.rulebook.versions(ws(caller), None, by=caller)], None)


@router.post("/standards", status_code=201, response_model=m.RuleVersion)
def propose_standards(body: StandardsIn, caller: Operator, mw: MW) -> dict[str, Any]:
    version = mw.rulebook.propose(
        ws(caller),
        None,
        body.rules,
        note=body.note,
        actor=caller.actor,
        by=caller,
        publish=body.publish,
    )
    return out(version)


@router.post("/standards/rollback", status_code=201, response_model=m.RuleVersion)
def rollback_standards(body: RollbackIn, caller: Admin, mw: MW) -> dict[str, Any]:
    return out(mw.rulebook.rollback(ws(caller), None, body.version, actor=caller.actor, by=caller))


@router.post("/rules/{version_id}/approve", response_model=m.RuleVersion)
def approve_rules(version_id: str, caller: Admin, mw: MW) -> dict[str, Any]:
    return out(mw.rulebook.approve(ws(caller), version_id, actor=caller.actor, by=caller))


@router.post("/rules/{version_id}/reject", response_model=m.RuleVersion)
def reject_rules(version_id: str, caller: Admin, mw: MW) -> dict[str, Any]:
    return out(mw.rulebook.reject(ws(caller), version_id, actor=caller.actor, by=caller))


# -- doors ---------------------------------------------------------------------------------
@router.get("/agents/{agent_id}/doors", response_model=m.Page[m.Door])
def doors(agent_id: str, caller: Operator, mw: MW) -> dict[str, Any]:
    """Each customer door: on or off, intended or not, and what it needs."""
    return page(mw.builder.doors(ws(caller), agent_id, by=caller), None)


@router.put("/agents/{agent_id}/doors/{door}", response_model=m.Page[m.Door])
def switch_door(agent_id: str, door: str, body: DoorIn, caller: Admin, mw: MW) -> dict[str, Any]:
    mw.tenancy.set_door(ws(caller), agent_id, door, body.on, by=caller)
    return page(mw.builder.doors(ws(caller), agent_id, by=caller), None)
