"""Inbound webhooks for email, SMS and voice transcripts, signed with an HMAC secret."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request

from memwise import errors
from memwise.api.auth import MW, Admin, ws

router = APIRouter(prefix="/v1")


@router.post("/webhook-secret", status_code=201)
def rotate(caller: Admin, mw: MW) -> dict[str, str]:
    """A new shared secret for this workspace's inbound webhooks (shown once)."""
    return {
        "secret": mw.inbound.rotate_secret(ws(caller)),
        "header": "X-Memwise-Signature: sha256=<hex HMAC-SHA256 of the raw body>",
    }


@router.post("/webhooks/{workspace_id}/{channel}", status_code=201)
async def receive(workspace_id: str, channel: str, request: Request, mw: MW) -> dict[str, Any]:
    body = await request.body()
    mw.inbound.verify(workspace_id, body, request.headers.get("x-memwise-signature"))
    try:
        payload = json.loads(body)
    except ValueError as exc:
        raise errors.Invalid("the body is not valid JSON", code="invalid_json") from exc
    if not isinstance(payload, dict):
        raise errors.Invalid("the body must be a JSON object", code="invalid_json")
    from starlette.concurrency import run_in_threadpool

    received = await run_in_threadpool(mw.inbound.receive, workspace_id, channel, payload)
    return vars(received)
