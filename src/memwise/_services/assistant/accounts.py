"""The live account record, read fresh for the conversation's one bound account.

The model and the client never choose an account id: the conversation is bound on the server
(from the authenticated contact or visitor token); a lookup asking for another account is
refused and audited as refused. Every lookup passes the audit log (read / failed / refused).
Results are never written to memory or cached beyond the request.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit
from zoneinfo import ZoneInfo

import sqlalchemy as sa

from memwise import errors
from memwise._accounts import wording
from memwise._accounts.policy import AccountPolicy, PolicyRefused, check_query
from memwise._accounts.source import (
    KINDS,
    NEEDS_ID,
    AccountSource,
    DemoCRM,
    HTTPAccountSource,
    Result,
    SQLAccountSource,
)
from memwise._ids import ContactId, ConversationId, WorkspaceId
from memwise._services.platform import audit, identity, rows
from memwise._services.platform.runtime import Runtime
from memwise._services.platform.tenancy import Tenancy
from memwise._storage.stores import account_sources as store
from memwise._storage.stores import tenancy as tenancy_store

SET = "•••"  # how a stored secret is shown back: only that it is set


@dataclass(frozen=True)
class Answer:
    result: Result
    sentence: str
    account: str | None


Binding = Literal["bound", "ambiguous", "unbound"]


@dataclass(frozen=True)
class Identification:
    status: Binding
    contact_id: ContactId | None = None
    account_ref: str | None = None
    question: str | None = None


def masked(config: dict[str, Any]) -> dict[str, Any]:
    """The configuration as shown back. Secrets are write-only: every header value, the
    userinfo and query of any URL and a database password read back only as "set"."""
    out = dict(config)
    if "headers" in out:
        out["headers"] = {k: SET for k in dict(out["headers"])}
    if out.get("base_url"):
        out["base_url"] = _plain_url(str(out["base_url"]))
    if out.get("lookups"):
        out["lookups"] = {k: _masked_query(str(v)) for k, v in dict(out["lookups"]).items()}
    if out.get("url"):
        try:
            url = sa.make_url(out["url"])
            shown = url.set(password=None, query={k: SET for k in url.query})
            out["url"] = shown.render_as_string(hide_password=True)
            if url.password:
                out["password"] = SET
        except sa.exc.ArgumentError:
            out["url"] = SET
    return out


def _plain_url(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = host + (f":{parts.port}" if parts.port else "")
    shown = urlunsplit((parts.scheme, netloc, parts.path, "", ""))
    return shown + ("?" + SET if parts.query else "")


def _masked_query(path: str) -> str:
    head, sep, query = path.partition("?")
    if not sep:
        return head
    keys = [kv.partition("=")[0] for kv in query.split("&") if kv]
    return head + "?" + "&".join(f"{k}={SET}" for k in keys)


def _close(source: AccountSource) -> None:
    """Close what an adapter holds open (an HTTP client, a database engine)."""
    client = getattr(source, "client", None)
    if client is not None:
        client.close()
    engine = getattr(source, "engine", None)
    if engine is not None:
        engine.dispose()


class Accounts:
    def __init__(self, rt: Runtime, tenancy: Tenancy, policy: AccountPolicy | None = None) -> None:
        self.rt = rt
        self.tenancy = tenancy
        own = rt.db.url.render_as_string(hide_password=False)
        self.policy = replace(policy or AccountPolicy(), own_database=own)
        self._overrides: dict[str, AccountSource] = {}

    # -- configuration ---------------------------------------------------------------------
    def configure(
        self, workspace_id: WorkspaceId, type_: str, config: dict[str, Any]
    ) -> dict[str, Any]:
        """Store the workspace's adapter (``http``, ``sql`` or ``demo``) after checking it."""
        keep = {
            "http": ("base_url", "headers", "timeout_s", "lookups"),
            "sql": ("url", "queries"),
            "demo": ("failing",),
        }.get(type_, ())
        clean = {k: v for k, v in config.items() if k in keep and v is not None}
        if type_ == "http":
            if not str(clean.get("base_url", "")).startswith(("http://", "https://")):
                raise errors.Invalid(
                    "an http source needs base_url (http:// or https://)", code="invalid_source"
                )
            bad = set(clean.get("lookups") or {}) - set(KINDS)
            if bad:
                raise errors.Invalid(
                    f"unknown lookups {sorted(bad)}: use {', '.join(KINDS)}", code="invalid_source"
                )
            self.policy.check_http(
                workspace_id,
                clean["base_url"],
                dict(clean.get("lookups") or {}),
                dict(clean.get("headers") or {}),
            )
        elif type_ == "sql":
            if not clean.get("url") or not clean.get("queries"):
                raise errors.Invalid("a sql source needs url and queries", code="invalid_source")
            bad = set(clean["queries"]) - set(KINDS)
            if bad:
                raise errors.Invalid(
                    f"unknown queries {sorted(bad)}: use {', '.join(KINDS)}", code="invalid_source"
                )
            self.policy.check_sql(workspace_id, clean["url"])
            clean["queries"] = {k: check_query(k, q) for k, q in clean["queries"].items()}
        elif type_ != "demo":
            raise errors.Invalid("type must be http, sql or demo", code="invalid_source")
        with self.rt.db.write() as conn:
            store.replace(conn, workspace_id, type_, clean, self.rt.clock.now())
        self._overrides.pop(workspace_id, None)
        return {"type": type_, **masked(clean)}

    def shown(self, workspace_id: WorkspaceId) -> dict[str, Any] | None:
        with self.rt.db.read() as conn:
            row = store.of(conn, workspace_id)
        return {"type": row.type, **masked(row.config)} if row else None

    def allow(self, policy: AccountPolicy) -> None:
        """Replace the server's account-source policy (memwise's own database stays refused)."""
        self.policy = replace(policy, own_database=self.policy.own_database)

    def use(self, workspace_id: WorkspaceId, source: AccountSource) -> None:
        """Use this adapter object for the workspace (library users and tests)."""
        self._overrides[workspace_id] = source

    def source(self, workspace_id: WorkspaceId) -> AccountSource | None:
        if workspace_id in self._overrides:
            return self._overrides[workspace_id]
        with self.rt.db.read() as conn:
            row = store.of(conn, workspace_id)
        if row is None:
            return None
        return self._build(workspace_id, row.type, row.config)

    def _build(self, workspace_id: WorkspaceId, type_: str, c: dict[str, Any]) -> AccountSource:
        """The adapter for a stored configuration, checked again against today's policy
        (the server's lists may have changed since it was stored)."""
        if type_ == "http":
            self.policy.check_http(
                workspace_id,
                c["base_url"],
                dict(c.get("lookups") or {}),
                dict(c.get("headers") or {}),
            )
            return HTTPAccountSource(
                self.rt.clock,
                c["base_url"],
                headers=c.get("headers"),
                timeout_s=float(c.get("timeout_s", 5.0)),
                lookups=c.get("lookups"),
                policy=self.policy,
            )
        if type_ == "sql":
            url = self.policy.check_sql(workspace_id, c["url"])
            queries = {k: check_query(k, q) for k, q in c["queries"].items()}
            return SQLAccountSource(
                self.rt.clock, url, queries, timeout_s=self.policy.statement_timeout_s
            )
        return DemoCRM(self.rt.clock, failing=bool(c.get("failing")))

    # -- lookups ---------------------------------------------------------------------------
    def lookup(
        self,
        workspace_id: WorkspaceId,
        conversation_id: ConversationId,
        kind: str,
        item_id: str | None = None,
        *,
        account: str | None = None,
        actor: str = "assistant",
    ) -> Answer:
        """Read one thing from the live record for the conversation's bound account."""
        if kind not in KINDS:
            raise errors.Invalid(f"kind must be one of: {', '.join(KINDS)}", code="invalid_kind")
        if kind in NEEDS_ID and not (item_id and str(item_id).strip()):
            raise errors.Invalid(f"a {kind} lookup needs its number", code="id_required")
        with self.rt.db.read() as conn:
            conv = rows.require(conn, "conversation", workspace_id, conversation_id)
            zone = ZoneInfo(tenancy_store.workspace(conn, workspace_id).timezone)
        bound = conv.account_ref
        args = {"kind": kind, "id": item_id, "account": account or bound}
        if account is not None and account != bound:
            result = Result("refused", kind, reason="another account than the conversation's")
            return self._done(workspace_id, conv, actor, args, result, item_id, zone, "refused")
        if bound is None:
            result = Result("unbound", kind, reason="the conversation has no bound account")
            return self._done(workspace_id, conv, actor, args, result, item_id, zone, "refused")
        try:
            source = self.source(workspace_id)
        except (PolicyRefused, errors.Invalid) as exc:  # stored before the policy said no
            source, refused = None, exc.message
        except Exception as exc:  # a source that cannot even be built: could not check
            source, refused = None, f"the source could not be set up ({type(exc).__name__})"
        else:
            refused = "no account source is configured"
        if source is None:
            result = Result("unavailable", kind, reason=refused)
        else:
            try:
                result = source.lookup(kind, bound, item_id)
            except Exception as exc:  # an adapter bug is still "could not check", never "none"
                result = Result("unavailable", kind, reason=type(exc).__name__)
            finally:
                if workspace_id not in self._overrides:  # built for this lookup: let it go
                    _close(source)
        status = {"found": "read", "not_found": "read"}.get(result.status, "failed")
        return self._done(workspace_id, conv, actor, args, result, item_id, zone, status)

    def _done(
        self,
        ws: WorkspaceId,
        conv: Any,
        actor: str,
        args: dict[str, Any],
        result: Result,
        item_id: str | None,
        zone: ZoneInfo,
        status: str,
    ) -> Answer:
        said = wording.sentence(result, item_id, zone)
        with self.rt.db.write() as conn:
            audit.log(
                conn,
                workspace_id=ws,
                at=self.rt.clock.now(),
                actor=actor,
                tool="lookup_account",
                args=args,
                status=status,
                result=result.status + (f": {result.reason}" if result.reason else ""),
                contact_id=conv.contact_id,
                conversation_id=conv.id,
            )
        return Answer(result, said, conv.account_ref)

    # -- identification --------------------------------------------------------------------
    def identify(self, workspace_id: WorkspaceId, kind: str, value: str) -> Identification:
        """A returning customer by a verified channel identity (email, phone, telegram).

        One contact with one account: bind. Several contacts or accounts: ask, leaking nothing
        about anyone. None: unbound (general knowledge only).
        """
        if kind not in ("email", "phone", "telegram"):
            raise errors.Invalid("identify by email, phone or telegram", code="invalid_identity")
        identity.normalize(kind, value)  # a value that is no such identity is refused
        contacts_found = self.tenancy.resolve_contact(workspace_id, kind, value).matches
        with self.rt.db.read() as conn:
            accounts = tenancy_store.account_refs(conn, workspace_id, contacts_found)
        if not contacts_found:
            return Identification("unbound")
        if len(contacts_found) > 1 or len(accounts) > 1:
            return Identification(
                "ambiguous",
                question=(
                    "I can see more than one account that could be yours. Could you tell "
                    "me an order number or the postcode on the account you mean?"
                ),
            )
        contact = contacts_found[0]
        return Identification("bound", contact, accounts[0][1] if accounts else None)
