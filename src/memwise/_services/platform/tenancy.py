"""Workspaces, API keys, agents, users and the contact store."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal

from sqlalchemy.engine import Connection

from memwise import errors
from memwise._domain.access import Kind, Principal, may_grant, require_staff
from memwise._domain.record import check_text
from memwise._domain.tenancy import (
    DEFAULT_ALLOWANCE,
    Agent,
    ApiKey,
    Contact,
    Plan,
    RecordPolicy,
    Role,
    User,
    Workspace,
    check_name,
    check_timezone,
)
from memwise._extraction import pack
from memwise._ids import ContactId, WorkspaceId, new_id, new_secret
from memwise._policies import window
from memwise._services.platform import identity, rows
from memwise._services.platform.runtime import Runtime
from memwise._storage.stores import tenancy as store
from memwise._storage.stores import webhooks as webhook_store

# The doors customers reach an agent through; "api" (staff and server-side) is always open.
DOORS = ("web", "telegram", "email", "sms", "voice", "phone")
SIGNED_DOORS = ("email", "sms", "voice", "phone")  # inbound webhooks, signed by the secret


def check_doors(doors: Iterable[str]) -> list[str]:
    """Known doors only, in their usual order; an unknown one is refused, naming them all."""
    wanted = set(doors)
    unknown = sorted(wanted - set(DOORS))
    if unknown:
        raise errors.Invalid(
            f"unknown doors {unknown} (known: {', '.join(DOORS)})", code="unknown_door"
        )
    return [d for d in DOORS if d in wanted]


KEY_ROLES = (Role.owner, Role.admin, Role.operator)
_IDENTITY_FIELDS = {
    "emails": "email",
    "phones": "phone",
    "addresses": "address",
    "account_refs": "account_ref",
    "telegram_ids": "telegram",
    "external_ids": "external",  # the caller's own ids (Mem0's user_id, a CRM id): unique
}


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


Identified = Literal["bound", "ambiguous", "unbound", "created"]


@dataclass(frozen=True)
class Resolution:
    """Who a sender is (``Tenancy.resolve_contact``)."""

    status: Identified
    contact_id: ContactId | None
    matches: list[ContactId]  # every contact the identity matched (several: nobody was chosen)


class Tenancy:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    # -- workspaces and keys -------------------------------------------------------------
    def create_workspace(
        self,
        name: str,
        timezone: str = "UTC",
        plan: str = "startup",
        monthly_allowance: int | None = None,
    ) -> tuple[Workspace, str]:
        """Create a workspace and its first (owner) API key; the key is returned only now."""
        plan_ = rows.enum_value(Plan, plan, "plan")
        allowance = DEFAULT_ALLOWANCE[plan_] if monthly_allowance is None else monthly_allowance
        if allowance < 0:
            raise errors.Invalid(
                "the monthly allowance cannot be negative", code="invalid_allowance"
            )
        row = {
            "id": new_id("ws"),
            "name": check_name(name, "workspace name"),
            "timezone": check_timezone(timezone),
            "plan": plan_.value,
            "monthly_allowance": allowance,
            "created_at": self.rt.clock.now(),
        }
        with self.rt.db.write() as conn:
            store.insert_workspace(conn, **row)
            key = self._insert_key(conn, row["id"], Role.owner, "first owner key")
        return self.get_workspace(row["id"]), key

    def _insert_key(
        self,
        conn: Connection,
        workspace_id: WorkspaceId,
        role: Role,
        label: str | None,
        user_id: str | None = None,
    ) -> str:
        if user_id is not None:
            store.user(conn, workspace_id, user_id)  # NotFound for another workspace's user
        secret = new_secret("mw")
        store.insert_key(
            conn,
            id=new_id("key"),
            workspace_id=workspace_id,
            role=role.value,
            key_hash=hash_secret(secret),
            label=label,
            created_at=self.rt.clock.now(),
            user_id=user_id,
        )
        return secret

    def create_api_key(
        self,
        workspace_id: WorkspaceId,
        role: str,
        label: str | None = None,
        *,
        user_id: str | None = None,
        by: Principal | None = None,
    ) -> str:
        """A new key (shown once). Admins mint admin and operator keys; owners any. With
        ``user_id`` the key acts for that staff user: it alone (of keys) writes their
        notebook."""
        role_ = rows.enum_value(Role, role, "role")
        if role_ not in KEY_ROLES:
            raise errors.Invalid("API keys are for owner, admin or operator", code="invalid_role")
        self._may_manage(by, role_)
        with self.rt.db.write() as conn:
            store.workspace(conn, workspace_id)
            return self._insert_key(conn, workspace_id, role_, label, user_id)

    @staticmethod
    def _may_manage(by: Principal | None, role: Role) -> None:
        require_staff(by, Role.admin)
        if not may_grant(by, role):
            raise errors.Forbidden(
                f"only an owner manages {role.value} keys"
                if role is Role.owner
                else "you may not manage that key",
                code="forbidden",
            )

    def api_keys(self, workspace_id: WorkspaceId, *, by: Principal | None = None) -> list[ApiKey]:
        """The workspace's keys, newest first (never their secrets)."""
        require_staff(by, Role.admin)  # the rule holds for every door
        with self.rt.db.read() as conn:
            return store.keys_of(conn, workspace_id)

    def revoke_key(
        self, workspace_id: WorkspaceId, key_id: str, *, by: Principal | None = None
    ) -> ApiKey:
        """Stop a key at once (and every console session opened with it). The last active
        owner key cannot be revoked: the workspace would have no owner left."""
        with self.rt.db.write() as conn:
            row = store.key_in(conn, workspace_id, key_id)
            self._may_manage(by, Role(row.role))
            if row.revoked_at is None:
                last = store.active_owner_keys(conn, workspace_id) <= 1
                if row.role == Role.owner.value and last:
                    raise errors.Conflict(
                        "this is the workspace's last owner key: rotate it instead",
                        code="last_owner_key",
                    )
                store.revoke_key(conn, key_id, self.rt.clock.now())
            return store.key(conn, key_id)

    def rotate_key(
        self, workspace_id: WorkspaceId, key_id: str, *, by: Principal | None = None
    ) -> tuple[ApiKey, str]:
        """Replace a key: a new secret with the same role and label; the old one stops now."""
        with self.rt.db.write() as conn:
            row = store.key_in(conn, workspace_id, key_id)
            self._may_manage(by, Role(row.role))
            if row.revoked_at is not None:
                raise errors.Conflict("that key is already revoked", code="key_revoked")
            secret = self._insert_key(conn, workspace_id, Role(row.role), row.label)
            self.revoke_key(workspace_id, key_id, by=None)
            new = store.key_by_hash(conn, hash_secret(secret))
        return new, secret

    # -- console sessions ------------------------------------------------------------------
    def open_session(self, secret: str, *, hours: float = 12) -> tuple[str, str, Role] | None:
        """A console login with an API key: a random session token (its hash stored),
        revocable, with an absolute expiry. Returns (token, workspace id, role) or None."""
        now = self.rt.clock.now()
        with self.rt.db.write() as conn:
            row = store.active_key_by_hash(conn, hash_secret(secret))
            if row is None:
                return None
            token = new_secret("cs")
            store.insert_session(
                conn,
                id=new_id("ses"),
                workspace_id=row.workspace_id,
                key_id=row.id,
                token_hash=hash_secret(token),
                created_at=now,
                last_seen_at=now,
                expires_at=now + timedelta(hours=hours),
            )
        return token, row.workspace_id, Role(row.role)

    def session(self, token: str, *, idle_minutes: float = 60) -> Principal | None:
        """Who holds a live console session: not revoked, its key not revoked,
        before its absolute expiry and used within ``idle_minutes``."""
        now = self.rt.clock.now()
        with self.rt.db.read() as conn:
            row = store.session_by_hash(conn, hash_secret(token))
        if row is None or row.revoked_at is not None or row.kr is not None:
            return None
        if now >= row.expires_at or now - row.last_seen_at > timedelta(minutes=idle_minutes):
            return None
        if now - row.last_seen_at > timedelta(seconds=30):  # at most one write a half-minute
            with self.rt.db.write() as conn:
                store.touch_session(conn, row.id, now)
        return Principal(
            Kind.key, row.workspace_id, Role(row.role), token_id="console", user_id=row.user_id
        )

    def close_session(self, token: str) -> None:
        """Log out: the session is revoked on the server, whatever the browser keeps."""
        with self.rt.db.write() as conn:
            store.revoke_session(conn, hash_secret(token), self.rt.clock.now())

    def authenticate_key(self, secret: str) -> tuple[WorkspaceId, Role] | None:
        """The (workspace id, role) a key grants, or None."""
        with self.rt.db.read() as conn:
            row = store.active_key_by_hash(conn, hash_secret(secret))
        return (WorkspaceId(row.workspace_id), Role(row.role)) if row else None

    def key_holder(self, secret: str) -> tuple[str, Role, str] | None:
        """The (workspace id, role, key id) a key grants, or None: the key id names the
        key in an audit entry without any part of its secret."""
        found = self.key_principal(secret)
        return (
            (str(found.workspace_id), found.role, found.token_id) if found and found.role else None
        )

    def key_principal(self, secret: str) -> Principal | None:
        """Who a key is: its workspace, role, id (``token_id``) and the staff user it acts
        for, or None."""
        with self.rt.db.read() as conn:
            row = store.active_key_by_hash(conn, hash_secret(secret))
        if row is None:
            return None
        return Principal(
            Kind.key, row.workspace_id, Role(row.role), token_id=str(row.id), user_id=row.user_id
        )

    def workspace_named(self, name: str) -> WorkspaceId | None:
        """The id of the oldest workspace with this exact name (the demo reuses its own)."""
        with self.rt.db.read() as conn:
            found = store.workspace_named(conn, name)
        return WorkspaceId(found) if found is not None else None

    def get_workspace(self, workspace_id: WorkspaceId) -> Workspace:
        with self.rt.db.read() as conn:
            return store.workspace(conn, workspace_id)

    # -- agents --------------------------------------------------------------------------
    def create_agent(
        self,
        workspace_id: WorkspaceId,
        name: str,
        *,
        memory_enabled: bool = False,
        domain: str | None = None,
        business_intelligence: bool = False,
        record_policy: str = "archive",
        window_overrides: Mapping[str, Any] | None = None,
        doors: Iterable[str] | None = None,
    ) -> Agent:
        """A new agent. ``doors`` lists the customer doors switched on (none: ``[]``); left
        out, every door is open."""
        values = self._agent_values(
            {
                "name": name,
                "memory_enabled": memory_enabled,
                "domain": domain,
                "business_intelligence": business_intelligence,
                "record_policy": record_policy,
                "window_overrides": window_overrides,
            }
        )
        values.update(id=new_id("agt"), workspace_id=workspace_id, created_at=self.rt.clock.now())
        if doors is not None:
            values["doors"] = check_doors(doors)
        with self.rt.db.write() as conn:
            store.workspace(conn, workspace_id)
            store.insert_agent(conn, **values)
        return self.get_agent(workspace_id, values["id"])

    def update_agent(
        self, workspace_id: WorkspaceId, agent_id: str, changes: Mapping[str, Any]
    ) -> Agent:
        unknown = set(changes) - {
            "name",
            "memory_enabled",
            "domain",
            "business_intelligence",
            "record_policy",
            "window_overrides",
        }
        if unknown:
            raise errors.Invalid(f"unknown agent fields: {sorted(unknown)}", code="invalid_field")
        with self.rt.db.write() as conn:
            current = store.agent(conn, workspace_id, agent_id)
            merged = {
                "name": current.name,
                "memory_enabled": current.memory_enabled,
                "domain": current.domain,
                "business_intelligence": current.business_intelligence,
                "record_policy": current.record_policy.value,
                "window_overrides": current.window_overrides,
                **changes,
            }
            store.update_agent(conn, workspace_id, agent_id, **self._agent_values(merged))
        return self.get_agent(workspace_id, agent_id)

    @staticmethod
    def _agent_values(v: Mapping[str, Any]) -> dict[str, Any]:
        domain = v.get("domain")
        if domain is not None:
            domain = check_name(str(domain), "domain", 64).lower()
            pack.load(domain)  # an unknown business domain is refused, naming the known ones
        if v.get("memory_enabled") and not domain:
            raise errors.Conflict(
                "set a business domain before turning memory on", code="domain_required"
            )
        return {
            "name": check_name(v["name"], "agent name"),
            "memory_enabled": bool(v.get("memory_enabled")),
            "domain": domain,
            "business_intelligence": bool(v.get("business_intelligence")),
            "record_policy": rows.enum_value(
                RecordPolicy, v.get("record_policy"), "record_policy"
            ).value,
            "window_overrides": window.check_overrides(v.get("window_overrides")),
        }

    def set_door(
        self,
        workspace_id: WorkspaceId,
        agent_id: str,
        door: str,
        on: bool,
        *,
        by: Principal | None = None,
    ) -> Agent:
        """Switch one customer door of an agent on or off (admin+). An agent whose doors were
        never set has every door open; the first switch keeps the others as they were."""
        require_staff(by, Role.admin)
        check_doors([door])
        with self.rt.db.write() as conn:
            current = store.agent(conn, workspace_id, agent_id)
            if on and door in SIGNED_DOORS and webhook_store.secret(conn, workspace_id) is None:
                raise errors.Conflict(
                    f"the {door} door needs the workspace's webhook secret first: make one "
                    "(POST /v1/webhook-secret, or the agent's page in the console)",
                    code="webhook_secret_required",
                )
            doors = set(DOORS if current.doors is None else current.doors)
            doors = doors | {door} if on else doors - {door}
            store.update_agent(conn, workspace_id, agent_id, doors=check_doors(doors))
        return self.get_agent(workspace_id, agent_id)

    def require_door(self, workspace_id: WorkspaceId, agent_id: str, channel: str) -> None:
        """Conflict when customers may not reach this agent through ``channel`` now."""
        self.get_agent(workspace_id, agent_id).require_door(channel)

    def update_workspace(
        self,
        workspace_id: WorkspaceId,
        *,
        name: str | None = None,
        timezone: str | None = None,
        by: Principal | None = None,
    ) -> Workspace:
        """Rename the business or change its timezone (admin+); the plan is the server's."""
        require_staff(by, Role.admin)
        values: dict[str, Any] = {}
        if name is not None:
            values["name"] = check_name(name, "business name")
        if timezone is not None:
            values["timezone"] = check_timezone(timezone)
        with self.rt.db.write() as conn:
            store.workspace(conn, workspace_id)
            if values:
                store.update_workspace(conn, workspace_id, **values)
        return self.get_workspace(workspace_id)

    def get_agent(self, workspace_id: WorkspaceId, agent_id: str) -> Agent:
        with self.rt.db.read() as conn:
            return store.agent(conn, workspace_id, agent_id)

    def default_agent(self, workspace_id: WorkspaceId) -> str:
        """The workspace's first agent: the one a message or an import goes to when none is
        named. Conflict when the workspace has none yet."""
        found = self.agents(workspace_id)
        if not found:
            raise errors.Conflict("create an agent first", code="no_agent")
        return found[0].id

    def agent_for(self, workspace_id: WorkspaceId, agent_id: str | None = None) -> str:
        """``agent_id``, or the workspace's default agent, made on first need ("Assistant":
        memory on, the general domain) so a first conversation needs no set-up call."""
        if agent_id is not None:
            return agent_id
        with self.rt.db.write():
            if not self.agents(workspace_id):
                self.create_agent(workspace_id, "Assistant", memory_enabled=True, domain="general")
            return self.default_agent(workspace_id)

    def agents(self, workspace_id: WorkspaceId) -> list[Agent]:
        """The workspace's agents, oldest first."""
        with self.rt.db.read() as conn:
            return store.agents_of(conn, workspace_id)

    # -- users ---------------------------------------------------------------------------
    def create_user(
        self,
        workspace_id: WorkspaceId,
        name: str,
        role: str = "member",
        telegram_id: str | None = None,
    ) -> User:
        values = {
            "id": new_id("usr"),
            "workspace_id": workspace_id,
            "name": check_name(name, "user name"),
            "role": rows.enum_value(Role, role, "role").value,
            "telegram_id": identity.normalize("telegram", telegram_id) if telegram_id else None,
            "created_at": self.rt.clock.now(),
        }
        with self.rt.db.write() as conn:
            store.workspace(conn, workspace_id)
            if values["telegram_id"] and store.user_by_telegram(
                conn, workspace_id, values["telegram_id"]
            ):
                raise errors.Conflict("another user has that Telegram id", code="telegram_id_taken")
            store.insert_user(conn, **values)
        return self.get_user(workspace_id, values["id"])

    def get_user(self, workspace_id: WorkspaceId, user_id: str) -> User:
        with self.rt.db.read() as conn:
            return store.user(conn, workspace_id, user_id)

    def users(self, workspace_id: WorkspaceId) -> list[User]:
        """The workspace's staff users, by name."""
        with self.rt.db.read() as conn:
            return store.users_of(conn, workspace_id)

    def user_by_telegram(self, workspace_id: WorkspaceId, telegram_id: str) -> User | None:
        with self.rt.db.read() as conn:
            return store.user_by_telegram(conn, workspace_id, telegram_id)

    # -- the contact store ---------------------------------------------------------------
    def create_contact(
        self, workspace_id: WorkspaceId, name: str, **identities: Iterable[str]
    ) -> Contact:
        unknown = set(identities) - set(_IDENTITY_FIELDS)
        if unknown:
            raise errors.Invalid(f"unknown contact fields: {sorted(unknown)}", code="invalid_field")
        found = [
            {
                "kind": kind,
                "normalized": identity.normalize(kind, v),  # bounded and checked first
                "value": check_text(" ".join(str(v).split()), f"the {kind}"),  # as shown
            }
            for field, kind in _IDENTITY_FIELDS.items()
            for v in identities.get(field) or []
        ]
        found = list({(f["kind"], f["normalized"]): f for f in found}.values())  # once each
        contact_id = ContactId(new_id("con"))
        with self.rt.db.write() as conn:
            store.workspace(conn, workspace_id)
            for ext in sorted({f["normalized"] for f in found if f["kind"] == "external"}):
                self.rt.db.backend.serialize(conn, f"external:{workspace_id}:{ext}")
                if store.contacts_by_identity(conn, workspace_id, "external", ext):
                    raise errors.Conflict(
                        f"another contact already has the external id {ext!r}",
                        code="external_id_taken",
                    )
            store.insert_contact(
                conn,
                workspace_id,
                contact_id,
                check_name(name, "contact name"),
                self.rt.clock.now(),
                found,
            )
        return self.get_contact(workspace_id, contact_id)

    def get_contact(self, workspace_id: WorkspaceId, contact_id: ContactId) -> Contact:
        with self.rt.db.read() as conn:
            row = store.contact_row(conn, workspace_id, contact_id)
            ids = store.identities_of(conn, contact_id)
        grouped: dict[str, list[str]] = {f: [] for f in _IDENTITY_FIELDS}
        by_kind = {k: f for f, k in _IDENTITY_FIELDS.items()}
        for kind, value in ids:
            grouped[by_kind[kind]].append(value)
        return Contact(
            id=row.id,
            workspace_id=row.workspace_id,
            name=row.name,
            created_at=row.created_at,
            **grouped,
        )

    def contacts(
        self, workspace_id: WorkspaceId, query: str = "", limit: int = 100
    ) -> list[Contact]:
        """Contacts by name (those whose name contains ``query``), newest first."""
        with self.rt.db.read() as conn:
            ids = store.contact_ids(
                conn, workspace_id, query.strip()[:100], max(1, min(limit, 500))
            )
        return [self.get_contact(workspace_id, i) for i in ids]

    def contact_names(self, workspace_id: WorkspaceId, ids: Iterable[str]) -> dict[str, str]:
        """id → name for the given contacts of this workspace, in one query."""
        wanted = list(ids)
        if not wanted:
            return {}
        with self.rt.db.read() as conn:
            return store.contact_names(conn, workspace_id, wanted)

    def resolve_contact(
        self,
        workspace_id: WorkspaceId,
        kind: str | None,
        value: str,
        *,
        create: bool = False,
        name: str | None = None,
    ) -> Resolution:
        """Who a sender is: the one rule for every door (webhooks, Telegram, the console,
        identify, MCP).

        A value that is a valid ``kind`` identity (email, phone, Telegram id) matches the
        contacts holding it as a verified identity; anything else (an anonymous sender, a
        shortcode, a made-up visitor; ``kind=None``) matches only a contact of exactly that
        name that holds no identity at all — never a real customer by name. One match:
        ``bound``. Several: ``ambiguous``, never a guess (identify asks its question;
        ``create`` gives the sender a contact of its own, holding no identity and named after
        it, the same one on every later message). None: ``unbound``, or with ``create`` a new
        contact holding the identity (``created``)."""
        if kind not in ("email", "phone", "telegram", None):
            raise errors.Invalid("identify by email, phone or telegram", code="invalid_identity")
        value = check_text(str(value).strip(), f"the {kind or 'name'}")
        verified = False
        if kind is not None:
            with contextlib.suppress(errors.Invalid):
                verified = bool(identity.normalize(kind, value))
        if kind is not None and verified:
            found = self.find_contacts(workspace_id, kind, value)
        else:
            found = self._identityless(workspace_id, (name or value)[:200])
        if len(found) == 1:
            return Resolution("bound", found[0], found)
        if not create:
            return Resolution("ambiguous" if found else "unbound", None, found)
        if found:  # several: the sender gets a contact of its own, the same one every time
            label = f"{name or value} ({kind or 'unidentified'} {value})"[:200]
            own = self._identityless(workspace_id, label)
            if len(own) == 1:
                return Resolution("created", own[0], found)
            made = self.create_contact(workspace_id, label)
            return Resolution("created", made.id, found)
        identities: dict[str, list[str]] = {}
        if kind is not None and verified and not found:
            field = {"email": "emails", "phone": "phones", "telegram": "telegram_ids"}[kind]
            identities = {field: [value]}
        made = self.create_contact(workspace_id, (name or value)[:200], **identities)
        return Resolution("created", made.id, found)

    def _identityless(self, workspace_id: WorkspaceId, name: str) -> list[ContactId]:
        """Contacts of exactly this name that hold no identity at all."""
        with self.rt.db.read() as conn:
            return store.identityless(conn, workspace_id, name)

    def contact_for(
        self,
        workspace_id: WorkspaceId,
        *,
        user_id: str | None = None,
        email: str | None = None,
        phone: str | None = None,
        name: str | None = None,
    ) -> ContactId:
        """The contact an outside id names, made on first sight: by ``user_id`` (the caller's
        own id for the customer, unique in the workspace), or by a verified email or phone
        (the one rule of ``resolve_contact``: several holders are never a guess)."""
        given = [
            (k, v) for k, v in (("external", user_id), ("email", email), ("phone", phone)) if v
        ]
        if len(given) != 1:
            raise errors.Invalid(
                "name the customer by one of contact_id, user_id (your own id for them), "
                "email or phone",
                code="contact_required",
            )
        kind, value = given[0]
        norm = identity.normalize(kind, value)  # an invalid email or phone: 422, never a name
        shown = check_text(" ".join(str(value).split()), f"the {kind}")
        with self.rt.db.write() as conn:  # found or made in one turn per identity
            self.rt.db.backend.serialize(conn, f"{kind}:{workspace_id}:{norm}")
            found = store.contacts_by_identity(conn, workspace_id, kind, norm)
            if len(found) > 1:
                raise errors.Conflict(
                    f"several contacts hold that {kind}: give the contact_id",
                    code="ambiguous_contact",
                )
            if found:
                return found[0]
            contact_id = ContactId(new_id("con"))
            store.insert_contact(
                conn,
                workspace_id,
                contact_id,
                check_name(name or shown, "contact name"),
                self.rt.clock.now(),
                [{"kind": kind, "value": shown, "normalized": norm}],
            )
            return contact_id

    def find_contacts(self, workspace_id: WorkspaceId, kind: str, value: str) -> list[ContactId]:
        """Contact ids whose verified identity of ``kind`` equals ``value`` (normalised)."""
        norm = identity.normalize(kind, value)
        with self.rt.db.read() as conn:
            return store.contacts_by_identity(conn, workspace_id, kind, norm)
