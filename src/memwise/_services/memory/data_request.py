"""Data requests for one contact: export everything held, or delete it completely."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from memwise._domain.access import Principal, require_staff
from memwise._domain.tenancy import Role
from memwise._ids import ContactId, WorkspaceId
from memwise._services.platform import audit
from memwise._services.platform.runtime import Runtime
from memwise._services.platform.tenancy import Tenancy
from memwise._storage.stores import contact_data as store
from memwise._storage.stores import tenancy as tenancy_store


class DataRequests:
    def __init__(self, rt: Runtime, tenancy: Tenancy) -> None:
        self.rt = rt
        self.tenancy = tenancy
        # called after a deletion commits, to drop what is held in memory about the contact
        self.after_delete: list[Callable[[WorkspaceId, ContactId], None]] = []

    def export(
        self, workspace_id: WorkspaceId, contact_id: ContactId, *, by: Principal | None = None
    ) -> dict[str, Any]:
        """Everything held about one contact, as one JSON-ready document (admin+)."""
        require_staff(by, Role.admin)  # the rule holds for every door
        contact = self.tenancy.get_contact(workspace_id, contact_id)
        with self.rt.db.read() as conn:
            rows = store.export_rows(conn, workspace_id, contact_id)
        card = {
            k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in asdict(contact).items()
        }
        return {"contact": card, **rows}

    def held(
        self, workspace_id: WorkspaceId, contact_id: ContactId, *, by: Principal | None = None
    ) -> dict[str, int]:
        """What a deletion would remove: conversations, turns and memory items (admin+; the
        confirmation a person reads before deleting)."""
        require_staff(by, Role.admin)
        with self.rt.db.read() as conn:
            tenancy_store.contact_row(conn, workspace_id, contact_id)
            return store.held(conn, workspace_id, contact_id)

    def delete(
        self,
        workspace_id: WorkspaceId,
        contact_id: ContactId,
        *,
        actor: str,
        by: Principal | None = None,
    ) -> dict[str, int]:
        """Hard-delete one contact and everything about them, in one transaction (admin+).

        The audit entry records that a deletion happened and how much went, never what.
        """
        require_staff(by, Role.admin)  # the rule holds for every door
        with self.rt.db.write() as conn:
            tenancy_store.contact_row(conn, workspace_id, contact_id)
            counts = store.delete_all(conn, workspace_id, contact_id)
            digest = hashlib.sha256(contact_id.encode()).hexdigest()[:12]
            audit.log(
                conn,
                workspace_id=workspace_id,
                at=self.rt.clock.now(),
                actor=actor,
                tool="delete_contact",
                args={"contact_ref": digest},
                status="executed",
                result="deleted " + ", ".join(f"{n} {k}" for k, n in counts.items()),
            )
        for forget in self.after_delete:
            forget(workspace_id, contact_id)
        return counts
