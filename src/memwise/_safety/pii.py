"""Contact details never enter knowledge: found against the contact store and generic patterns.

The same detector redacts questions for the question book (placeholders instead of details).
Telephone numbers are found by python-phonenumbers (:mod:`memwise._safety.phones`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy.engine import Connection

from memwise import _ids as ids
from memwise import errors
from memwise._safety import secrets
from memwise._safety.phones import Phones, region
from memwise._storage.stores.tenancy import contact_details, workspace

# The same addresses as before in linear time (no library finds them in prose): a match starts
# only where a run of address characters starts, each part bounded as RFC 5321 bounds it (64
# before the @, 63 a label): a long run without an @ is read once, not from every position.
EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}\b")


@dataclass(frozen=True)
class Found:
    kind: str  # contact_name, contact_email, contact_phone, contact_address, email, phone …
    span: tuple[int, int]


def _digits(s: str) -> str:
    return re.sub(r"\D", "", s)


def find(conn: Connection | None, workspace_id: ids.WorkspaceId | None, text: str) -> list[Found]:
    """Every contact detail in ``text``: the workspace's contacts first, then generic PII."""
    found: list[Found] = []
    low = text.casefold()
    zone = workspace(conn, workspace_id).timezone if conn and workspace_id else None
    read = Phones(text, region(zone))
    if conn is not None and workspace_id is not None:
        names, identities = contact_details(conn, workspace_id)
        for name in names:
            if len(name.split()) >= 2:  # a full name; single words collide with ordinary text
                for m in re.finditer(rf"\b{re.escape(name.casefold())}\b", low):
                    found.append(Found("contact_name", m.span()))
        digits = _digits(text)  # once: a workspace may hold thousands of numbers
        for kind, norm in identities:
            if kind == "phone" and len(norm) >= 7 and norm[-8:] in digits:
                found += [Found("contact_phone", span) for span in read.of(norm)]
            elif len(norm) >= 6:
                start = low.find(norm)
                if start >= 0:
                    found.append(Found(f"contact_{kind}", (start, start + len(norm))))
    found += [Found("email", m.span()) for m in EMAIL.finditer(text)]
    found += [Found("phone", span) for span in read.spans()]
    for f in secrets.find(text):  # cards, IBANs, passwords and keys: never shown again
        found.append(Found(f.kind, f.span))
    return found


def check(conn: Connection, ws: ids.WorkspaceId, text: str, where: str = "knowledge") -> None:
    """Refuse (``contact_details_in_knowledge``) naming what was found."""
    found = find(conn, ws, text)
    if found:
        kinds = sorted({f.kind for f in found})
        raise errors.Refused(
            f"contact details never enter {where}: found {', '.join(kinds)}",
            code="contact_details_in_knowledge",
            found=kinds,
        )


def redact(conn: Connection | None, workspace_id: ids.WorkspaceId | None, text: str) -> str:
    """``text`` with every detail replaced by a placeholder such as [email] or [contact_name]."""
    spans: list[Found] = []
    for f in sorted(
        (f for f in find(conn, workspace_id, text) if f.span != (0, 0)), key=lambda f: f.span
    ):
        if spans and f.span[0] < spans[-1].span[1]:  # overlapping: one placeholder for both
            last = spans[-1]
            spans[-1] = Found(last.kind, (last.span[0], max(last.span[1], f.span[1])))
        else:
            spans.append(f)
    out, last_end = [], 0
    for f in spans:
        out += [text[last_end : f.span[0]], f"[{f.kind}]"]
        last_end = f.span[1]
    return "".join(out) + text[last_end:]
