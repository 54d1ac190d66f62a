"""Account-source adapters: narrow, read-only lookups for one account reference.

Every result is exactly one of: ``found`` (data, and when it was read), ``not_found`` (the
source answered that it does not exist) or ``unavailable`` (timeout, error, bad credentials,
malformed answer — the source could not be asked). A failure is never reported as not found.
Nothing read is written into memory or cached beyond the request.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol
from urllib.parse import quote

import httpx
import sqlalchemy as sa
from sqlalchemy.pool import NullPool

from memwise import errors
from memwise._accounts.policy import AccountPolicy, PolicyRefused, pinned
from memwise._clock import Clock
from memwise._providers import http

KINDS = ("order", "invoice", "shipment", "balance", "card")
NEEDS_ID = {"order", "invoice", "shipment"}
MAX_ANSWER_BYTES = 1_000_000


LookupResult = Literal["found", "not_found", "unavailable", "refused", "unbound"]


@dataclass(frozen=True)
class Result:
    status: LookupResult
    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    read_at: datetime | None = None
    reason: str | None = None


class AccountSource(Protocol):
    type: str

    def lookup(self, kind: str, account: str, item_id: str | None) -> Result: ...


class HTTPAccountSource:
    """A REST system of record: base URL, auth headers and a path template per lookup."""

    type = "http"
    DEFAULT_LOOKUPS: Mapping[str, str] = {
        "order": "/accounts/{account}/orders/{id}",
        "invoice": "/accounts/{account}/invoices/{id}",
        "shipment": "/accounts/{account}/shipments/{id}",
        "balance": "/accounts/{account}/balance",
        "card": "/accounts/{account}",
    }

    def __init__(
        self,
        clock: Clock,
        base_url: str,
        *,
        headers: Mapping[str, str] | None = None,
        timeout_s: float = 5.0,
        retries: int = 1,
        lookups: Mapping[str, str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        policy: AccountPolicy | None = None,
    ) -> None:
        self.clock = clock
        self.lookups = {**self.DEFAULT_LOOKUPS, **(lookups or {})}
        self.retries = max(0, retries)
        self.base_url = base_url.rstrip("/")
        self.policy = policy
        self.timeout_s = timeout_s
        self.headers = dict(headers or {})
        self.transport = transport

    def lookup(self, kind: str, account: str, item_id: str | None) -> Result:
        template = self.lookups.get(kind)
        if template is None:
            return Result("unavailable", kind, reason=f"no {kind} lookup is configured")
        path = template.format(account=_seg(account), id=_seg(item_id or ""))
        target = self.base_url + path
        headers: dict[str, str] = {}
        extensions: dict[str, str] = {}
        if self.policy is not None:  # configured through the API: the server's rules hold
            try:
                address = self.policy.check_host(self.base_url)
            except (PolicyRefused, errors.Unavailable) as exc:
                return Result("unavailable", kind, reason=exc.message)
            base, headers, extensions = pinned(self.base_url, address)  # no rebinding
            target = base + path
        last = "no answer"
        for attempt in range(self.retries + 1):
            try:  # the whole exchange within the timeout, the answer within the cap
                answer = http.request(
                    "GET",
                    target,
                    headers={**self.headers, **headers},
                    extensions=extensions,
                    deadline_s=self.timeout_s,
                    max_bytes=MAX_ANSWER_BYTES,
                    transport=self.transport,
                )
            except http.TooLarge:
                return Result("unavailable", kind, reason="the source's answer was too large")
            except http.TooSlow:
                return Result("unavailable", kind, reason="the source answered too slowly")
            except httpx.HTTPError as exc:  # refused, DNS …: could not be asked
                last = f"{type(exc).__name__}"
                if attempt < self.retries:
                    time.sleep(0.05 * (attempt + 1))
                continue
            status, body = answer.status, answer.body
            if status == 404:
                return Result("not_found", kind, read_at=self.clock.now())
            if status >= 500 and attempt < self.retries:
                last = f"status {status}"
                continue
            if not 200 <= status < 300:
                return Result("unavailable", kind, reason=f"the source answered {status}")
            try:
                data = json.loads(bytes(body))
            except (ValueError, RecursionError):
                return Result("unavailable", kind, reason="the source's answer was not JSON")
            if not isinstance(data, dict):
                return Result("unavailable", kind, reason="the source's answer was not an object")
            return Result("found", kind, data, self.clock.now())
        return Result("unavailable", kind, reason=last)


def _seg(value: str) -> str:
    """One URL path segment: the reference can never reach another path (dots included)."""
    text = str(value)
    if text.strip(".") == "":
        return text.replace(".", "%2E")
    return quote(text, safe="")


class SQLAccountSource:
    """A database of record: a read-only connection and one parameterised query per lookup.

    Each query gets ``:account`` (and ``:id``); one row means found, none means not found.
    The query runs in a read-only transaction under a statement timeout; on PostgreSQL a
    role that can read server files (a superuser) is refused, on SQLite the file is opened
    read-only and an authorizer allows reading and nothing else.
    """

    type = "sql"

    def __init__(
        self,
        clock: Clock,
        url: str | sa.URL,
        queries: Mapping[str, str],
        *,
        timeout_s: float = 5.0,
    ) -> None:
        self.clock = clock
        self.queries = {k: sa.text(q) for k, q in queries.items()}
        self.timeout_s = timeout_s
        engine_url = sa.make_url(url)
        connect_args: dict[str, Any] = {}
        if engine_url.get_backend_name() == "sqlite" and engine_url.database:
            engine_url = engine_url.set(
                database=f"file:{quote(engine_url.database)}?mode=ro", query={"uri": "true"}
            )
        elif engine_url.get_backend_name() == "postgresql":
            if engine_url.drivername in ("postgresql", "postgres"):
                engine_url = engine_url.set(drivername="postgresql+psycopg")
            connect_args["connect_timeout"] = max(1, int(timeout_s))
        self.engine = sa.create_engine(
            engine_url, poolclass=NullPool, hide_parameters=True, connect_args=connect_args
        )
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_read_only)

    def lookup(self, kind: str, account: str, item_id: str | None) -> Result:
        query = self.queries.get(kind)
        if query is None:
            return Result("unavailable", kind, reason=f"no {kind} query is configured")
        try:
            with self.engine.connect() as conn:
                refused = self._prepare(conn)
                if refused:
                    return Result("unavailable", kind, reason=refused)
                row = conn.execute(query, {"account": account, "id": item_id}).mappings().first()
        except sa.exc.SQLAlchemyError as exc:
            return Result("unavailable", kind, reason=type(exc).__name__)
        if row is None:
            return Result("not_found", kind, read_at=self.clock.now())
        return Result("found", kind, {k: _plain(v) for k, v in row.items()}, self.clock.now())

    def _prepare(self, conn: sa.Connection) -> str | None:
        """Read-only, bounded in time, and never a role that can read the server's files."""
        ms = max(1, int(self.timeout_s * 1000))
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql("SET TRANSACTION READ ONLY")
            conn.exec_driver_sql(f"SET LOCAL statement_timeout = {ms}")
            # every role the login may become (SET ROLE works for any role it is a member
            # of, however indirectly): a member of a superuser role is as strong as one
            powerful = conn.exec_driver_sql(
                "SELECT bool_or(r.rolsuper"
                " OR pg_has_role(r.oid, 'pg_read_server_files', 'MEMBER')"
                " OR pg_has_role(r.oid, 'pg_write_server_files', 'MEMBER')"
                " OR pg_has_role(r.oid, 'pg_execute_server_program', 'MEMBER'))"
                " FROM pg_roles r"
                " WHERE pg_has_role(session_user, r.oid, 'MEMBER')"
                " OR pg_has_role(current_user, r.oid, 'MEMBER')"
            ).scalar()
            if powerful:
                return (
                    "the account database role can read the server's files (a superuser); "
                    "the server operator gives it least privilege"
                )
            ours = conn.exec_driver_sql(
                "SELECT to_regclass('webhook_secrets') IS NOT NULL"
                " OR to_regclass('memory_items') IS NOT NULL"
            ).scalar()
        elif conn.dialect.name == "sqlite":
            deadline = time.monotonic() + self.timeout_s
            raw = conn.connection.dbapi_connection
            raw.set_progress_handler(  # type: ignore[union-attr]
                lambda: int(time.monotonic() > deadline), 10_000
            )
            ours = conn.exec_driver_sql(
                "SELECT count(*) FROM sqlite_master"
                " WHERE name IN ('webhook_secrets', 'memory_items')"
            ).scalar()
        else:
            ours = False
        if ours:  # whatever the URL said: this is a memwise database
            return "a memwise database is never an account source"
        return None


# SQLITE_SELECT, SQLITE_READ, SQLITE_TRANSACTION, SQLITE_FUNCTION, SQLITE_RECURSIVE
_SQLITE_READS = {21, 20, 22, 31, 33}
_SQLITE_FUNCTIONS_REFUSED = {"load_extension", "readfile", "writefile", "fts3_tokenizer"}


def _sqlite_read_only(dbapi_conn: Any, _record: Any) -> None:
    def authorize(action: int, arg1: Any, arg2: Any, _db: Any, _trigger: Any) -> int:
        if action == 31 and str(arg2 or "").lower() in _SQLITE_FUNCTIONS_REFUSED:
            return 1  # SQLITE_DENY
        return 0 if action in _SQLITE_READS else 1

    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA query_only = ON")
    cur.close()
    dbapi_conn.set_authorizer(authorize)


def _plain(v: Any) -> Any:
    return v.isoformat() if hasattr(v, "isoformat") else v


class DemoCRM:
    """An in-memory system of record for the demo and tests; ``failing`` makes it unreachable."""

    type = "demo"

    def __init__(
        self,
        clock: Clock,
        accounts: Mapping[str, Mapping[str, Any]] | None = None,
        failing: bool = False,
    ) -> None:
        self.clock = clock
        self.accounts = {k: dict(v) for k, v in (accounts or SAMPLE).items()}
        self.failing = failing

    def lookup(self, kind: str, account: str, item_id: str | None) -> Result:
        if self.failing:
            return Result("unavailable", kind, reason="the demo CRM is switched to failing")
        acct = self.accounts.get(account)
        if acct is None:
            return Result("not_found", kind, read_at=self.clock.now())
        if kind == "card":
            return Result(
                "found",
                kind,
                {k: v for k, v in acct.items() if not isinstance(v, dict) or k == "balance"},
                self.clock.now(),
            )
        if kind == "balance":
            return Result("found", kind, dict(acct.get("balance", {})), self.clock.now())
        item = acct.get(f"{kind}s", {}).get(item_id or "")
        if item is None:
            return Result("not_found", kind, read_at=self.clock.now())
        return Result("found", kind, {"id": item_id, **item}, self.clock.now())


SAMPLE: dict[str, dict[str, Any]] = {
    "ACC-1001": {
        "name": "Jonas Weber",
        "tier": "regular",
        "orders": {"4411": {"status": "shipped", "placed": "2026-10-28", "total": "349.00 EUR"}},
        "invoices": {"INV-204518": {"status": "paid", "amount": "349.00 EUR"}},
        "shipments": {"SHP-77": {"status": "in transit", "carrier": "DHL", "eta": "2026-12-01"}},
        "balance": {"amount": "0.00", "currency": "EUR"},
    },
    "ACC-2002": {
        "name": "Sofia Marino",
        "tier": "gold",
        "orders": {"5520": {"status": "returned", "placed": "2026-11-10", "total": "89.90 EUR"}},
        "invoices": {},
        "shipments": {},
        "balance": {"amount": "89.90", "currency": "EUR", "note": "refund pending"},
    },
}
