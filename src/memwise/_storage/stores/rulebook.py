"""Written rules' SQL: versions per scope (an agent's id, or "workspace"), newest first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memwise import errors
from memwise._domain.tenancy import RuleVersion
from memwise._ids import WorkspaceId
from memwise._storage.schema import rule_versions

WORKSPACE = "workspace"


def from_row(row: Any) -> RuleVersion:
    return RuleVersion(
        id=row.id,
        workspace_id=row.workspace_id,
        scope=row.scope,
        version=row.version,
        status=row.status,
        persona=row.persona,
        rules=list(row.rules or []),
        note=row.note,
        diff=row.diff,
        proposed_by=row.proposed_by,
        proposed_at=row.proposed_at,
        decided_by=row.decided_by,
        decided_at=row.decided_at,
    )


def versions(conn: Connection, workspace_id: WorkspaceId, scope: str) -> list[RuleVersion]:
    found = conn.execute(
        sa.select(rule_versions)
        .where(rule_versions.c.workspace_id == workspace_id, rule_versions.c.scope == scope)
        .order_by(rule_versions.c.version.desc())
    )
    return [from_row(r) for r in found]


def version(conn: Connection, workspace_id: WorkspaceId, version_id: str) -> RuleVersion:
    row = conn.execute(
        sa.select(rule_versions).where(
            rule_versions.c.workspace_id == workspace_id, rule_versions.c.id == version_id
        )
    ).first()
    if row is None:
        raise errors.NotFound("no such rules version", code="rules_version_not_found")
    return from_row(row)


def numbered(conn: Connection, workspace_id: WorkspaceId, scope: str, number: int) -> RuleVersion:
    row = conn.execute(
        sa.select(rule_versions).where(
            rule_versions.c.workspace_id == workspace_id,
            rule_versions.c.scope == scope,
            rule_versions.c.version == number,
        )
    ).first()
    if row is None:
        raise errors.NotFound(f"no version {number} of these rules", code="rules_version_not_found")
    return from_row(row)


_SERVED = sa.select(rule_versions).where(
    rule_versions.c.workspace_id == sa.bindparam("ws"),
    rule_versions.c.scope.in_(sa.bindparam("scopes", expanding=True)),
    rule_versions.c.status == "served",
)


def served(
    conn: Connection, workspace_id: WorkspaceId, scopes: Sequence[str]
) -> dict[str, RuleVersion]:
    """The served version of each scope that has one, in one round trip."""
    found = conn.execute(_SERVED, {"ws": workspace_id, "scopes": list(scopes)})
    return {r.scope: from_row(r) for r in found}


def next_number(conn: Connection, workspace_id: WorkspaceId, scope: str) -> int:
    top = conn.execute(
        sa.select(sa.func.max(rule_versions.c.version)).where(
            rule_versions.c.workspace_id == workspace_id, rule_versions.c.scope == scope
        )
    ).scalar()
    return int(top or 0) + 1


def insert(conn: Connection, **values: Any) -> None:
    conn.execute(rule_versions.insert().values(**values))


def decide(
    conn: Connection, workspace_id: WorkspaceId, version_id: str, status: str, by: str, at: Any
) -> None:
    conn.execute(
        rule_versions.update()
        .where(rule_versions.c.workspace_id == workspace_id, rule_versions.c.id == version_id)
        .values(status=status, decided_by=by, decided_at=at)
    )


def retire_served(conn: Connection, workspace_id: WorkspaceId, scope: str) -> None:
    """The served version of a scope becomes superseded (a newer one is about to serve)."""
    conn.execute(
        rule_versions.update()
        .where(
            rule_versions.c.workspace_id == workspace_id,
            rule_versions.c.scope == scope,
            rule_versions.c.status == "served",
        )
        .values(status="superseded")
    )
