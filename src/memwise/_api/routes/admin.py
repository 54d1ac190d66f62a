"""The audit log and the test clock."""

from __future__ import annotations

from typing import Any

from fastapi import Query, Request

from memwise import errors
from memwise._api import routes
from memwise._api.auth import MW, Admin, Operator, ws
from memwise._api.schemas import TestClockIn, out, page
from memwise._clock import WorkspaceClocks
from memwise._ids import ContactId
from memwise._services.platform.audit import status_of as audit_status
from memwise.client import models as m

router = routes.router("/v1")


@router.get("/audit", response_model=m.Page[m.AuditEntry])
def audit(
    caller: Operator,
    mw: MW,
    tool: str | None = Query(None, max_length=100),
    status: str | None = Query(None, max_length=20),
    contact_id: ContactId | None = Query(None, max_length=64),
    cursor: int | None = Query(None, ge=0, le=2**62),
    limit: int = Query(50, ge=1, le=500),
) -> dict[str, Any]:
    items = mw.audit.entries(
        ws(caller),
        tool=tool,
        status=audit_status(status),
        contact_id=contact_id,
        before=cursor,
        limit=limit,
    )
    return page([out(e) for e in items], items[-1].seq if len(items) == limit else None)


@router.post("/test-clock", response_model=m.Clock)
def set_test_clock(body: TestClockIn, request: Request, caller: Admin, mw: MW) -> dict[str, Any]:
    clock = mw.clock
    if not request.app.state.settings.test_clock or not isinstance(clock, WorkspaceClocks):
        raise errors.NotFound("not found", code="not_found")
    clock.set(ws(caller), body.now)
    return {"now": clock.now().isoformat()}
