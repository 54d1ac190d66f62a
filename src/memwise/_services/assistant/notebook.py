"""The notebook: a staff user's own working rules, taught on purpose."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy.engine import Connection

from memwise import errors
from memwise._domain.access import Principal
from memwise._domain.notebook import Entry
from memwise._domain.tenancy import Role
from memwise._ids import WorkspaceId, new_id
from memwise._policies.limits import NotebookLimits
from memwise._policies.notebook import (
    Block,
    build_block,
    check_entry,
    names_a_person,
    normalize,
    one_transaction,
)
from memwise._safety import pii
from memwise._safety.boundary import specific_operational
from memwise._services.platform import audit
from memwise._services.platform.runtime import Runtime
from memwise._storage.stores import notebook as store
from memwise._storage.stores.tenancy import account_refs, contact_details
from memwise._storage.stores.tenancy import user as require_user


@dataclass(frozen=True)
class Added:
    entry: Entry
    duplicate: bool
    evicted: list[str]


def check_not_customer_data(conn: Connection, workspace_id: WorkspaceId, text: str) -> None:
    """A working rule is the person's own: facts about a customer belong in their contact
    memory or the CRM card, and one order's state in the live account record."""
    if specific_operational(text) or one_transaction(text):
        raise errors.Refused(
            "a notebook keeps working rules, not the state of one order, invoice or payment: "
            "that is read fresh from the account record",
            code="operational_fact_in_notebook",
        )
    found = sorted(
        {f.kind for f in pii.find(conn, workspace_id, text) if f.kind.startswith("contact_")}
    )
    # an account reference however written ("ACC 55123", "acc55123", "55123")
    squashed = re.sub(r"[\W_]", "", text).casefold()
    numbers = set(re.findall(r"\d{4,}", re.sub(r"(?<=\d)[\s.-](?=\d)", "", text)))
    for _, ref in account_refs(conn, workspace_id):
        plain_ref = re.sub(r"[\W_]", "", ref).casefold()
        digits = re.sub(r"\D", "", ref)
        if (len(plain_ref) >= 4 and plain_ref in squashed) or (
            len(digits) >= 4 and digits in numbers
        ):
            found.append("contact_account")
            break
    names, identities = contact_details(conn, workspace_id)
    if "contact_phone" not in found:  # a phone number however written ("176 12345678")
        phones = {n[-8:] for kind, n in identities if kind == "phone" and len(n) >= 7}
        runs = [re.sub(r"\D", "", m) for m in re.findall(r"\+?\d[\d\s./()-]{5,}\d", text)]
        if any(len(r) >= 7 and r[-8:] in phones for r in runs):
            found.append("contact_phone")
    if not found:
        why = names_a_person(text, names)
        if why:
            found.append(why)
    if found:
        raise errors.Refused(
            "a notebook keeps working rules, not facts about one customer: those belong in "
            f"the contact's memory or the CRM card (found {', '.join(found)})",
            code="customer_fact_in_notebook",
            found=found,
        )


def may_write(by: Principal | None, user_id: str) -> None:
    """A notebook is its person's: only they write it — through a key made for them
    (``user_id``), their console session, their own staff conversation or Telegram. A
    library caller (``by`` None) is trusted like the workspace's owner."""
    if by is not None and by.user_id != user_id:
        raise errors.Forbidden(
            "a notebook is its person's own: only a key made for that staff user writes it",
            code="not_your_notebook",
        )


def may_read(by: Principal | None, user_id: str) -> None:
    """Its person reads it; others only with the admin role or higher (they answer for how
    the team works), never an operator."""
    if by is not None and by.user_id != user_id and not by.at_least(Role.admin):
        raise errors.Forbidden(
            "another person's notebook is shown only to admins and owners",
            code="not_your_notebook",
        )


class Notebook:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    @property
    def limits(self) -> NotebookLimits:
        return self.rt.limits.notebook

    def add(
        self,
        workspace_id: WorkspaceId,
        user_id: str,
        text: str,
        *,
        actor: str = "user",
        by: Principal | None = None,
    ) -> Added:
        """Save one rule. Duplicates are not saved; when full, the oldest makes room."""
        cleaned = check_entry(text, self.limits)
        norm = normalize(cleaned)
        with self.rt.db.write() as conn:
            require_user(conn, workspace_id, user_id)  # another workspace's user: NotFound
            may_write(by, user_id)
            check_not_customer_data(conn, workspace_id, cleaned)
            existing = store.same_words(conn, workspace_id, user_id, norm)
            if existing is not None:
                return Added(store.entry_from_row(existing), duplicate=True, evicted=[])
            evicted = self._make_room(conn, workspace_id, user_id)
            entry_id = new_id("nb")
            now = self.rt.clock.now()
            store.insert(
                conn,
                id=entry_id,
                workspace_id=workspace_id,
                user_id=user_id,
                text=cleaned,
                normalized=norm,
                created_at=now,
            )
            audit.log(
                conn,
                workspace_id=workspace_id,
                at=now,
                actor=actor,
                tool="remember_rule",
                args={"user_id": user_id, "entry_id": entry_id, "evicted": evicted},
                status="executed",
                result=f"saved ({len(cleaned)} chars)",
            )
        return Added(Entry(entry_id, cleaned, now), duplicate=False, evicted=evicted)

    def _make_room(self, conn: Connection, workspace_id: WorkspaceId, user_id: str) -> list[str]:
        ids = [r.id for r in store.owned(conn, workspace_id, user_id)]
        overflow = len(ids) - self.limits.max_entries + 1
        evicted = list(ids[: max(0, overflow)])
        store.delete(conn, workspace_id, user_id, evicted)
        return evicted

    def entries(
        self, workspace_id: WorkspaceId, user_id: str, *, by: Principal | None = None
    ) -> list[Entry]:
        """Every entry, oldest → newest (including those that no longer reach the model)."""
        with self.rt.db.read() as conn:
            require_user(conn, workspace_id, user_id)
            may_read(by, user_id)
            return [store.entry_from_row(r) for r in store.owned(conn, workspace_id, user_id)]

    def block(
        self, workspace_id: WorkspaceId, user_id: str, *, by: Principal | None = None
    ) -> Block:
        return build_block(self.entries(workspace_id, user_id, by=by), self.limits)

    def forget(
        self,
        workspace_id: WorkspaceId,
        user_id: str,
        entry_id: str,
        *,
        actor: str = "user",
        by: Principal | None = None,
    ) -> int:
        """Remove one entry by id; NotFound if this user has no such entry."""
        with self.rt.db.write() as conn:
            require_user(conn, workspace_id, user_id)
            may_write(by, user_id)
            gone = store.delete(conn, workspace_id, user_id, [entry_id])
            if not gone:
                raise errors.NotFound("no such notebook entry", code="entry_not_found")
            self._log_forget(conn, workspace_id, user_id, actor, {"entry_id": entry_id}, 1)
        return 1

    def forget_phrase(
        self,
        workspace_id: WorkspaceId,
        user_id: str,
        phrase: str,
        *,
        actor: str = "user",
        by: Principal | None = None,
    ) -> int:
        """Remove every entry containing ``phrase`` (normalised); returns how many."""
        needle = normalize(phrase or "")
        if len(needle) < 2:
            raise errors.Invalid("give a few words of the rule to forget", code="empty_phrase")
        with self.rt.db.write() as conn:
            require_user(conn, workspace_id, user_id)
            may_write(by, user_id)
            matching = [
                r.id for r in store.owned(conn, workspace_id, user_id) if needle in r.normalized
            ]
            store.delete(conn, workspace_id, user_id, matching)
            self._log_forget(conn, workspace_id, user_id, actor, {"phrase": phrase}, len(matching))
        return len(matching)

    def _log_forget(
        self,
        conn: Connection,
        ws: WorkspaceId,
        user_id: str,
        actor: str,
        args: dict[str, str],
        n: int,
    ) -> None:
        audit.log(
            conn,
            workspace_id=ws,
            at=self.rt.clock.now(),
            actor=actor,
            tool="forget_rule",
            args={"user_id": user_id, **args},
            status="executed",
            result=f"removed {n}",
        )
