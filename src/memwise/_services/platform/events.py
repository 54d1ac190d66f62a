"""Events out: signed webhooks to the workspace's own endpoints, delivered by the worker.

An event is written in the same transaction as the change it reports (an outbox): one
``deliver_event`` job per subscribed endpoint, so a change and its events commit together
or not at all, and the worker delivers each at least once, with retries and exponential
backoff (the job's attempts). Types: ``memory.created``, ``memory.superseded``,
``memory.archived``, ``unanswered.created``, ``ticket.created``, ``ticket.accepted``,
``lesson.published``, ``conversation.ended``.

Each delivery is ``POST <url>`` with a JSON body ``{id, type, workspace_id, created_at,
data}`` and the headers ``X-Memwise-Event``, ``X-Memwise-Delivery`` (the event id: receivers
de-duplicate by it), ``X-Memwise-Timestamp`` and ``X-Memwise-Signature: sha256=<hex>``, the
HMAC-SHA256 with the endpoint's secret of ``"{timestamp}.{type}." + body`` — the same scheme
as inbound webhooks. Endpoints are tenant input: the URL must be http(s), and it never
reaches an internal address unless the server operator allows private addresses (the
account-source setting); the checked address is the one connected.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets as pysecrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

import httpx
from sqlalchemy.engine import Connection

from memwise import errors
from memwise._accounts.policy import AccountPolicy, PolicyRefused, pinned
from memwise._domain.access import Principal, require_staff
from memwise._domain.jobs import Job, JobStatus
from memwise._domain.tenancy import Role
from memwise._ids import WorkspaceId, new_id
from memwise._providers import http
from memwise._services.platform.jobs import Jobs
from memwise._services.platform.runtime import Runtime
from memwise._storage.stores import endpoints as store
from memwise._storage.stores import jobs as job_store
from memwise._storage.stores.jobs import insert_once

DELIVER = "deliver_event"
TYPES = (
    "memory.created",
    "memory.superseded",
    "memory.archived",
    "memory.deleted",
    "unanswered.created",
    "ticket.created",
    "ticket.accepted",
    "lesson.published",
    "conversation.ended",
)
MAX_ATTEMPTS = 8
DEADLINE_S = 10.0  # the whole delivery, however slowly the endpoint answers
MAX_ANSWER_BYTES = 64_000  # of an endpoint's answer: only its status matters


@dataclass(frozen=True)
class Endpoint:
    id: str
    url: str
    events: list[str]
    active: bool
    created_at: datetime


DeliveryStatus = Literal["done", "retrying", "failed"]


@dataclass(frozen=True)
class Delivered:
    status: DeliveryStatus
    reason: str | None = None


@dataclass(frozen=True)
class Delivery:
    job_id: str
    event_id: str
    type: str
    endpoint_id: str
    status: JobStatus
    attempts: int
    last_error: str | None
    created_at: datetime
    finished_at: datetime | None


def emit_in(
    conn: Connection, workspace_id: WorkspaceId, type_: str, data: dict[str, Any], now: datetime
) -> int:
    """Queue ``type_`` for every active endpoint of the workspace that takes it; how many."""
    queued = 0
    for row in store.active(conn, workspace_id):
        if row.events and type_ not in row.events:
            continue
        event_id = new_id("evt")
        event = {
            "id": event_id,
            "type": type_,
            "workspace_id": workspace_id,
            "created_at": now.isoformat(),
            "data": data,
        }
        insert_once(
            conn,
            workspace_id,
            DELIVER,
            # The key names whom it is about, so a data request deletes it with the rest.
            f"{DELIVER}:{event_id}:{row.id}:{data.get('contact_id') or ''}:"
            f"{data.get('conversation_id') or ''}",
            {"endpoint_id": row.id, "event": event},
            now,
            max_attempts=MAX_ATTEMPTS,
        )
        queued += 1
    return queued


def sign(secret: str, body: bytes, timestamp: int | str, type_: str) -> str:
    signed = f"{timestamp}.{type_}.".encode() + body
    return "sha256=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def check_url(url: str) -> str:
    parts = urlsplit(str(url or "").strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise errors.Invalid("an endpoint is an http(s) URL", code="invalid_url")
    if parts.username or parts.password or len(url) > 1000:
        raise errors.Invalid("an endpoint URL has no credentials in it", code="invalid_url")
    return urlunsplit(parts)


class Events:
    def __init__(
        self,
        rt: Runtime,
        jobs_: Jobs,
        policy: AccountPolicy | Any | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        """``policy``: an AccountPolicy, or an object with a ``policy`` (the accounts
        service), read at each delivery so a changed policy applies at once."""
        self.rt = rt
        self.jobs = jobs_
        self._policy = policy or AccountPolicy()
        self.transport = transport

    @property
    def policy(self) -> AccountPolicy:
        found = self._policy if isinstance(self._policy, AccountPolicy) else self._policy.policy
        return found

    # -- endpoints -------------------------------------------------------------------------
    def add_endpoint(
        self,
        workspace_id: WorkspaceId,
        url: str,
        events: list[str] | None = None,
        *,
        by: Principal | None = None,
    ) -> tuple[Endpoint, str]:
        """Subscribe a URL (to every type, or to ``events``); its signing secret, shown once.
        Admin+."""
        require_staff(by, Role.admin)  # the rule holds for every door
        clean = check_url(url)
        wanted = sorted(set(events or []))
        unknown = set(wanted) - set(TYPES)
        if unknown:
            raise errors.Invalid(
                f"unknown event types {sorted(unknown)}: use {', '.join(TYPES)}",
                code="invalid_event_type",
            )
        secret = "whsec_" + pysecrets.token_urlsafe(32)
        endpoint_id = new_id("ep")
        with self.rt.db.write() as conn:
            if store.count(conn, workspace_id) >= 20:
                raise errors.LimitExceeded("at most 20 endpoints", code="too_many_endpoints")
            store.insert(
                conn,
                id=endpoint_id,
                workspace_id=workspace_id,
                url=clean,
                secret=secret,
                events=wanted,
                active=True,
                created_at=self.rt.clock.now(),
            )
        return self.endpoint(workspace_id, endpoint_id), secret

    def endpoint(self, workspace_id: WorkspaceId, endpoint_id: str) -> Endpoint:
        with self.rt.db.read() as conn:
            r = store.endpoint(conn, workspace_id, endpoint_id)
        return Endpoint(r.id, r.url, list(r.events or []), r.active, r.created_at)

    def endpoints(self, workspace_id: WorkspaceId) -> list[Endpoint]:
        with self.rt.db.read() as conn:
            found = store.of(conn, workspace_id)
        return [Endpoint(r.id, r.url, list(r.events or []), r.active, r.created_at) for r in found]

    def remove_endpoint(
        self, workspace_id: WorkspaceId, endpoint_id: str, *, by: Principal | None = None
    ) -> None:
        """Stop delivering to it (deliveries already queued fail as 'endpoint removed')."""
        require_staff(by, Role.admin)  # the rule holds for every door
        with self.rt.db.write() as conn:
            store.endpoint(conn, workspace_id, endpoint_id)
            store.deactivate(conn, endpoint_id)

    def deliveries(self, workspace_id: WorkspaceId, limit: int = 100) -> list[Delivery]:
        """The delivery log, newest first."""
        with self.rt.db.read() as conn:
            found = job_store.newest_of_kind(conn, workspace_id, DELIVER, max(1, min(limit, 500)))
        return [
            Delivery(
                r.id,
                r.payload["event"]["id"],
                r.payload["event"]["type"],
                r.payload["endpoint_id"],
                r.status,
                r.attempts,
                r.last_error,
                r.created_at,
                r.finished_at,
            )
            for r in found
        ]

    # -- delivery (the worker) -------------------------------------------------------------
    def deliver(self, job: Job) -> Delivered:
        event = job.payload["event"]
        with self.rt.db.read() as conn:
            ep = store.find(conn, job.workspace_id, job.payload["endpoint_id"])
        if ep is None or not ep.active:
            self._give_up(job, "the endpoint was removed")
            return Delivered("failed", "the endpoint was removed")
        body = json.dumps(event, separators=(",", ":")).encode()
        stamp = str(int(self.rt.clock.now().timestamp()))
        headers = {
            "content-type": "application/json",
            "x-memwise-event": event["type"],
            "x-memwise-delivery": event["id"],
            "x-memwise-timestamp": stamp,
            "x-memwise-signature": sign(ep.secret, body, stamp, event["type"]),
        }
        try:
            address = self.policy.check_host(ep.url, purpose="events", workspace_id=ep.workspace_id)
        except (PolicyRefused, errors.Unavailable):
            # one reason for both: the log never tells which names resolve inside the server
            return self._retry(job, "the endpoint's host is not reachable from this server")
        target, host, extensions = pinned(ep.url, address)  # the checked address, no rebinding
        headers.update(host)
        try:
            r = http.request(
                "POST",
                target,
                content=body,
                headers=headers,
                extensions=extensions,
                deadline_s=DEADLINE_S,
                max_bytes=MAX_ANSWER_BYTES,
                transport=self.transport,
            )
        except httpx.HTTPError as exc:
            return self._retry(job, type(exc).__name__)
        except errors.Unavailable as exc:  # too slow or too large: the whole exchange is bounded
            return self._retry(job, exc.message)
        if not 200 <= r.status < 300:
            return self._retry(job, f"the endpoint answered {r.status}")
        self.jobs.finish(job, {"status": r.status})
        return Delivered("done")

    def _retry(self, job: Job, reason: str) -> Delivered:
        status = self.jobs.fail(job, reason)
        return Delivered("failed" if status.value == "failed" else "retrying", reason)

    def _give_up(self, job: Job, reason: str) -> None:
        with self.rt.db.write() as conn:
            job_store.give_up(conn, job, self.rt.clock.now(), reason)
