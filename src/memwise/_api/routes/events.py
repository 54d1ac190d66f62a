"""Events out: the workspace's webhook endpoints and the delivery log."""

from __future__ import annotations

from typing import Any

from fastapi import Query

from memwise._api import routes
from memwise._api.auth import MW, Admin, Operator, ws
from memwise._api.schemas import EventEndpointIn, TicketAdapterIn, out, page
from memwise._services.platform.events import TYPES
from memwise.client import models as m

router = routes.router("/v1")


@router.post("/event-endpoints", status_code=201, response_model=m.EventEndpoint)
def add_endpoint(body: EventEndpointIn, caller: Admin, mw: MW) -> dict[str, Any]:
    """Subscribe a URL to events (every type, or ``events``); the signing secret, shown once."""
    endpoint, secret = mw.events.add_endpoint(ws(caller), body.url, body.events, by=caller)
    return out(endpoint, secret=secret, types=list(TYPES))


@router.get("/event-endpoints", response_model=m.Page[m.EventEndpoint])
def endpoints(caller: Admin, mw: MW) -> dict[str, Any]:
    return page([out(e) for e in mw.events.endpoints(ws(caller))], None)


@router.delete("/event-endpoints/{endpoint_id}", response_model=m.Flag)
def remove_endpoint(endpoint_id: str, caller: Admin, mw: MW) -> dict[str, Any]:
    mw.events.remove_endpoint(ws(caller), endpoint_id, by=caller)
    return {"removed": True}


@router.get("/event-deliveries", response_model=m.Page[m.EventDelivery])
def deliveries(caller: Operator, mw: MW, limit: int = Query(100, ge=1, le=500)) -> dict[str, Any]:
    """The delivery log, newest first: status, attempts and the last error of each."""
    return page([out(d) for d in mw.events.deliveries(ws(caller), limit)], None)


@router.put("/ticket-adapter", response_model=m.Settings)
def put_ticket_adapter(body: TicketAdapterIn, caller: Admin, mw: MW) -> dict[str, Any]:
    """Send this workspace's tickets to its helpdesk's webhook (header values write-only)."""
    return mw.tickets.configure(ws(caller), body.url, body.headers, by=caller)


@router.get("/ticket-adapter", response_model=m.Settings)
def get_ticket_adapter(caller: Operator, mw: MW) -> dict[str, Any]:
    return mw.tickets.configured(ws(caller))


@router.delete("/ticket-adapter", response_model=m.Settings)
def delete_ticket_adapter(caller: Admin, mw: MW) -> dict[str, Any]:
    mw.tickets.unconfigure(ws(caller), by=caller)
    return mw.tickets.configured(ws(caller))
