"""Every error memwise raises on purpose.

    MemwiseError
     +-- NotFound          the object does not exist (or is outside the caller's scope)
     +-- Conflict          the request clashes with the current state
     +-- Invalid           the input is malformed or breaks a rule
     |    +-- Refused      the input is understood and refused by a rule (secrets, contact details)
     +-- LimitExceeded     a configured limit or allowance would be exceeded
     +-- Unauthorized      no valid credentials
     +-- Forbidden         valid credentials, but the role may not do this
     +-- Unavailable       an outside system could not be asked

Each class's docstring is its default message. ``code`` is a stable snake_case identifier
that the HTTP API and the CLI show; ``details`` carries structured context.
"""

from __future__ import annotations

from typing import Any, ClassVar


class MemwiseError(Exception):
    """Something went wrong in memwise."""

    code: ClassVar[str] = "error"

    def __init__(
        self, message: str | None = None, *, code: str | None = None, **details: Any
    ) -> None:
        self.message = message or (self.__doc__ or "").strip()
        if code is not None:
            self.code = code  # type: ignore[misc]
        self.details = details
        super().__init__(self.message)


class NotFound(MemwiseError):
    """The object was not found."""

    code = "not_found"


class Conflict(MemwiseError):
    """The request conflicts with the current state."""

    code = "conflict"


class Invalid(MemwiseError):
    """The input is not valid."""

    code = "invalid"


class Refused(Invalid):
    """The input was refused by a rule."""

    code = "refused"


class LimitExceeded(MemwiseError):
    """A limit would be exceeded."""

    code = "limit_exceeded"


class Unauthorized(MemwiseError):
    """Missing or invalid credentials."""

    code = "unauthorized"


class Forbidden(MemwiseError):
    """This role may not do that."""

    code = "forbidden"


class Unavailable(MemwiseError):
    """An outside system could not be reached."""

    code = "unavailable"
