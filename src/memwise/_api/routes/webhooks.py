"""Inbound webhooks for email, SMS and voice transcripts, signed with an HMAC secret."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from memwise import errors
from memwise._api import routes
from memwise._api.auth import MW, Admin, ws
from memwise._ids import WorkspaceId
from memwise._services.conversation.inbound import Duplicate
from memwise.client import models as m

router = routes.router("/v1")


@router.post("/webhook-secret", status_code=201, response_model=m.Secret)
def rotate(caller: Admin, mw: MW) -> dict[str, str]:
    """A new shared secret for this workspace's inbound webhooks (shown once)."""
    return {
        "secret": mw.inbound.rotate_secret(ws(caller)),
        "header": "X-Memwise-Signature: sha256=<hex HMAC-SHA256 of '{timestamp}.{channel}.' "
        "+ raw body>",
        "timestamp_header": "X-Memwise-Timestamp: <Unix seconds, within 5 minutes>",
    }


@router.post(
    "/webhooks/{workspace_id}/{channel}",
    status_code=201,
    response_model=None,
    responses={201: {"model": m.Received}, 200: {"model": m.Received}},
)
async def receive(
    workspace_id: WorkspaceId, channel: str, request: Request, mw: MW
) -> dict[str, Any] | JSONResponse:
    body = await request.body()
    signature = request.headers.get("x-memwise-signature")
    await run_in_threadpool(
        mw.inbound.verify,
        WorkspaceId(workspace_id[:64]),
        channel[:20],
        body,
        signature,
        request.headers.get("x-memwise-timestamp"),
    )
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise errors.Invalid("the body is not valid JSON", code="invalid_json") from exc
    if not isinstance(payload, dict):
        raise errors.Invalid("the body must be a JSON object", code="invalid_json")
    try:
        received = await run_in_threadpool(
            partial(mw.inbound.receive, delivery=f"sig:{signature}"),
            workspace_id,
            channel,
            payload,
        )
    except Duplicate:  # a provider's retry: acknowledged, recorded once
        return JSONResponse({"duplicate": True}, status_code=200)
    return vars(received)
