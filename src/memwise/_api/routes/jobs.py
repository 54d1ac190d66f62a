"""Jobs, rebuilds, usage and events."""

from __future__ import annotations

import time
from typing import Any

from fastapi import Response

from memwise._api import routes
from memwise._api.auth import MW, Admin, Caller, Operator, ws
from memwise._api.schemas import EventIn, RebuildIn, out
from memwise._domain.access import require_staff
from memwise._domain.tenancy import Role
from memwise._ids import ContactId
from memwise.client import models as m

router = routes.router("/v1")


@router.post("/jobs/run", response_model=m.JobRun)
def run_jobs(caller: Caller, mw: MW) -> dict[str, Any]:
    """Run now, until none is left, the caller's workspace's queued and scheduled jobs,
    then wait (at most ``WAIT_S`` seconds) for those another worker was already running, so
    what the caller reads next includes them; the server admin token runs every
    workspace's queue."""
    if caller.is_server_admin:
        counts = mw.worker(name=f"api:{caller.token_id}").run_once(force=True)
        scope = None
    else:
        require_staff(caller, Role.admin)
        scope = ws(caller)
        counts = mw.worker(name=f"api:{caller.token_id}").run_once(force=True, workspace_id=scope)
    deadline = time.monotonic() + WAIT_S
    running = mw.jobs.running(scope)
    while running and time.monotonic() < deadline:
        time.sleep(0.05)
        running = mw.jobs.running(scope)
    return {"ran": dict(counts), "total": sum(counts.values()), "running": running}


WAIT_S = 10.0  # how long POST /v1/jobs/run waits for jobs another worker is running


@router.get("/jobs", response_model=m.Jobs)
def list_jobs(caller: Operator, mw: MW) -> dict[str, Any]:
    items = mw.jobs.find(ws(caller), limit=200)
    return {"items": [out(j) for j in items], "counts": mw.jobs.counts(ws(caller))}


@router.post("/contacts/{contact_id}/rebuild", response_model=m.Rebuild)
def rebuild(
    contact_id: ContactId, body: RebuildIn, caller: Admin, mw: MW, response: Response
) -> dict[str, Any]:
    est = mw.rebuilds.estimate(ws(caller), contact_id)
    summary = {
        "conversations": est.conversations,
        "cost": est.cost,
        "remaining": est.remaining,
        "allowed": est.allowed,
        "reason": est.reason,
    }
    if body.dry_run:
        return summary
    progress = mw.rebuilds.start(ws(caller), contact_id, by=caller)
    response.status_code = 202
    return summary | {"progress": vars(progress)}


@router.get("/contacts/{contact_id}/rebuild", response_model=m.RebuildProgress)
def rebuild_progress(contact_id: ContactId, caller: Operator, mw: MW) -> dict[str, Any]:
    return vars(mw.rebuilds.progress(ws(caller), contact_id))


@router.get("/contacts/{contact_id}/patterns", response_model=m.Patterns)
def patterns(contact_id: ContactId, caller: Operator, mw: MW) -> dict[str, Any]:
    found, reason = mw.patterns.view(ws(caller), contact_id)
    return {"items": [vars(p) for p in found], "next_cursor": None, "reason": reason}


@router.get("/usage", response_model=m.Usage)
def get_usage(caller: Operator, mw: MW) -> dict[str, Any]:
    used, allowance, month = mw.metering.remaining(ws(caller))
    return {
        "month": month,
        "used": used,
        "allowance": allowance,
        "remaining": max(0, allowance - used),
        "metered": mw.rt.metering,
    }


@router.post("/events", status_code=201, response_model=m.Created)
def post_event(body: EventIn, caller: Operator, mw: MW) -> dict[str, Any]:
    """A structured event from the host application (a booking system, a shop)."""
    event_id = mw.patterns.record_event(
        ws(caller),
        body.contact_id,
        body.type,
        body.labels,
        at=body.at,
        conversation_id=body.conversation_id,
    )
    return {"id": event_id}
