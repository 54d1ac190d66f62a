"""Who is using the console, and the small helpers every page needs."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote

from fastapi import Request
from fastapi.responses import RedirectResponse

from memwise import errors
from memwise._clock import current_workspace
from memwise._domain.access import RANK, Kind, Principal
from memwise._domain.record import NOT_TEXT
from memwise._domain.tenancy import Role
from memwise._ids import WorkspaceId
from memwise._services.facade import Memwise

COOKIE = "memwise_console"
REBUILD_COOKIE = "memwise_rebuild"
MAX_FORM_BYTES = 600_000


class LoginRequired(Exception):
    """No valid console session: go to the login page."""


@dataclass(frozen=True)
class Operator:
    workspace_id: WorkspaceId
    role: Role
    key: str  # the session token: the CSRF token is derived from it
    user_id: str | None = None  # the staff user whose key opened the session, if one

    @property
    def actor(self) -> str:
        return f"console:{self.role.value}"

    @property
    def csrf(self) -> str:
        return hmac.new(self.key.encode(), b"memwise-console-csrf", hashlib.sha256).hexdigest()[:32]

    @property
    def principal(self) -> Principal:
        return Principal(
            Kind.key, self.workspace_id, self.role, token_id="console", user_id=self.user_id
        )

    @property
    def is_admin(self) -> bool:
        return RANK[self.role] >= RANK[Role.admin]

    def require_admin(self) -> None:
        if not self.is_admin:
            raise errors.Forbidden("this needs the admin role or higher", code="forbidden")


def mw_of(request: Request) -> Memwise:
    mw: Memwise = request.app.state.mw
    return mw


def operator(request: Request) -> Operator:
    """The console user of this request: a live server-side session (the cookie holds only
    its random token; logout, a revoked key or the idle and absolute expiry end it)."""
    token = request.cookies.get(COOKIE, "")
    settings = request.app.state.settings
    found = (
        mw_of(request).tenancy.session(token, idle_minutes=settings.console_idle_minutes)
        if token.startswith("cs_")
        else None
    )
    if not found or found.workspace_id is None or found.role is None:
        raise LoginRequired()
    current_workspace.set(found.workspace_id)
    return Operator(found.workspace_id, found.role, token, found.user_id)


def secure_request(request: Request) -> bool:
    """HTTPS as the browser sees it: behind a TLS-terminating proxy that the operator
    trusts (MEMWISE_FORWARDED_HEADER set), its X-Forwarded-Proto counts."""
    if request.url.scheme == "https":
        return True
    if request.app.state.settings.forwarded_header:
        return request.headers.get("x-forwarded-proto", "").split(",")[0].strip() == "https"
    return False


async def form(request: Request, who: Operator | None = None) -> dict[str, str]:
    """A url-encoded form body; with ``who``, its CSRF token must match."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise errors.Invalid("the console takes url-encoded forms only", code="invalid_form")
    body = await request.body()
    if len(body) > MAX_FORM_BYTES:
        raise errors.LimitExceeded("that form is too large", code="too_large")
    data = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
    if any(NOT_TEXT.search(v) or NOT_TEXT.search(k) for k, v in data.items()):
        raise errors.Invalid(
            "the form holds a NUL character, which cannot be stored as text",
            code="control_characters",
        )
    if who is not None and not hmac.compare_digest(data.get("csrf", ""), who.csrf):
        raise errors.Forbidden("the form expired; reload the page and try again", code="csrf")
    return data


def back(url: str, *, note: str | None = None, error: str | None = None) -> RedirectResponse:
    """Post/redirect/get, with a one-line message for the next page."""
    sep = "&" if "?" in url else "?"
    if note:
        url += f"{sep}note={quote(note)}"
    elif error:  # a message may quote the input; the URL stays short
        url += f"{sep}error={quote(error[:300])}"
    return RedirectResponse(url, status_code=303)


def params(**values: Any) -> str:
    return "&".join(f"{k}={quote(str(v))}" for k, v in values.items() if v not in (None, ""))
