"""Written rules: an agent's identity and rules, and the workspace's team standards.

Operators propose a version; an admin (or owner) approves it before it is served; an admin's
own proposal is served at once unless it asks to stay a draft. Every version is kept with
who proposed it, who decided, when, and the diff against what was served. Rolling back
serves an old version's text again as a new version, so the history only grows. A rule that
would undo the harness rule, holds a secret or a customer's details is refused whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from memwise import errors
from memwise._domain.access import Principal, require_staff
from memwise._domain.tenancy import Role, RuleVersion
from memwise._ids import WorkspaceId, new_id
from memwise._policies import written as policy
from memwise._safety import secrets
from memwise._services.assistant.notebook import check_not_customer_data
from memwise._services.platform.runtime import Runtime
from memwise._storage.stores import rulebook as store
from memwise._storage.stores import tenancy as tenancy_store

WORKSPACE = store.WORKSPACE


def _admin(by: Principal | None) -> bool:
    return by is None or by.at_least(Role.admin)


class Rulebook:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    def _scope(self, conn: Any, workspace_id: WorkspaceId, agent_id: str | None) -> str:
        if agent_id is None:
            return WORKSPACE
        tenancy_store.agent(conn, workspace_id, agent_id)  # NotFound for another's agent
        return agent_id

    def propose(
        self,
        workspace_id: WorkspaceId,
        agent_id: str | None,
        rules: Sequence[Any],
        persona: Mapping[str, Any] | None = None,
        *,
        note: str | None = None,
        actor: str = "operator",
        by: Principal | None = None,
        publish: bool | None = None,
    ) -> RuleVersion:
        """A new version of an agent's rules (``agent_id``) or of the team standards (None).
        Served at once when an admin proposes it (unless ``publish`` is False); an operator's
        stays a draft until an admin approves it."""
        require_staff(by)
        if publish and not _admin(by):
            raise errors.Forbidden(
                "serving rules needs the admin role; propose them as a draft instead",
                code="forbidden",
            )
        if agent_id is None and persona is not None:
            raise errors.Invalid(
                "team standards have no persona: a persona belongs to one agent",
                code="invalid_field",
            )
        kept, clean_persona = policy.check(rules, persona, self.rt.limits.rules)
        if note is not None:
            if len(note) > 500:
                raise errors.Invalid("a note is limited to 500 characters", code="too_long")
            secrets.check(note)
        serve = publish if publish is not None else _admin(by)
        now = self.rt.clock.now()
        with self.rt.db.write() as conn:
            scope = self._scope(conn, workspace_id, agent_id)
            self._serialize(conn, workspace_id, scope)
            written = [*kept, *(clean_persona or {}).values(), note or ""]
            for text in written:  # rules, persona and note alike: the business's, not a customer's
                if text:
                    check_not_customer_data(conn, workspace_id, text)
            current = store.served(conn, workspace_id, [scope]).get(scope)
            changes = policy.diff(
                current.rules if current else [],
                current.persona if current else None,
                kept,
                clean_persona,
            )
            version_id = new_id("rul")
            if serve:
                store.retire_served(conn, workspace_id, scope)
            store.insert(
                conn,
                id=version_id,
                workspace_id=workspace_id,
                scope=scope,
                version=store.next_number(conn, workspace_id, scope),
                status="served" if serve else "draft",
                persona=clean_persona,
                rules=kept,
                note=note,
                diff=changes,
                proposed_by=actor,
                proposed_at=now,
                decided_by=actor if serve else None,
                decided_at=now if serve else None,
            )
            return store.version(conn, workspace_id, version_id)

    def _serialize(self, conn: Any, workspace_id: WorkspaceId, scope: str) -> None:
        """One decision at a time per set of rules: numbering and serving never race."""
        self.rt.db.backend.serialize(conn, f"rules:{workspace_id}:{scope}")

    def approve(
        self, workspace_id: WorkspaceId, version_id: str, *, actor: str, by: Principal | None = None
    ) -> RuleVersion:
        """Serve a draft (admin+); the version it replaces stays, superseded."""
        require_staff(by, Role.admin)
        with self.rt.db.write() as conn:
            draft = store.version(conn, workspace_id, version_id)
            self._serialize(conn, workspace_id, draft.scope)
            draft = store.version(conn, workspace_id, version_id)  # as it is once we hold it
            if draft.status != "draft":
                raise errors.Conflict(
                    f"version {draft.version} is {draft.status}, not a draft", code="not_a_draft"
                )
            newer = [
                v
                for v in store.versions(conn, workspace_id, draft.scope)
                if v.status == "served" and v.version > draft.version
            ]
            if newer:
                raise errors.Conflict(
                    f"version {newer[0].version} was served after this draft was written; "
                    "propose it again against what is served now",
                    code="stale_draft",
                )
            store.retire_served(conn, workspace_id, draft.scope)
            store.decide(conn, workspace_id, version_id, "served", actor, self.rt.clock.now())
            return store.version(conn, workspace_id, version_id)

    def reject(
        self, workspace_id: WorkspaceId, version_id: str, *, actor: str, by: Principal | None = None
    ) -> RuleVersion:
        require_staff(by, Role.admin)
        with self.rt.db.write() as conn:
            self._serialize(conn, workspace_id, store.version(conn, workspace_id, version_id).scope)
            draft = store.version(conn, workspace_id, version_id)
            if draft.status != "draft":
                raise errors.Conflict(
                    f"version {draft.version} is {draft.status}, not a draft", code="not_a_draft"
                )
            store.decide(conn, workspace_id, version_id, "rejected", actor, self.rt.clock.now())
            return store.version(conn, workspace_id, version_id)

    def rollback(
        self,
        workspace_id: WorkspaceId,
        agent_id: str | None,
        to_version: int,
        *,
        actor: str,
        by: Principal | None = None,
    ) -> RuleVersion:
        """Serve version ``to_version``'s text again, as a new version (admin+)."""
        require_staff(by, Role.admin)
        with self.rt.db.read() as conn:
            scope = self._scope(conn, workspace_id, agent_id)
            old = store.numbered(conn, workspace_id, scope, int(to_version))
        return self.propose(
            workspace_id,
            agent_id,
            old.rules,
            old.persona if agent_id is not None else None,
            note=f"rolled back to version {old.version}",
            actor=actor,
            by=by,
            publish=True,
        )

    def versions(
        self, workspace_id: WorkspaceId, agent_id: str | None, *, by: Principal | None = None
    ) -> list[RuleVersion]:
        """Every version, newest first."""
        require_staff(by)
        with self.rt.db.read() as conn:
            return store.versions(conn, workspace_id, self._scope(conn, workspace_id, agent_id))

    def served(self, workspace_id: WorkspaceId, agent_id: str) -> tuple[RuleVersion | None, ...]:
        """(team standards, the agent's rules) as served now; None where there are none."""
        with self.rt.db.read() as conn:
            found = store.served(conn, workspace_id, [WORKSPACE, agent_id])
        return found.get(WORKSPACE), found.get(agent_id)
