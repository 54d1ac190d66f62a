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
     +-- ApiError          the HTTP API answered with an error (the client raises it)

A client's ``ApiError`` is also an instance of the class its answer stands for — the one the
server names in the answer's ``kind`` (a refusal is a ``Refused``), else the status's (a
404 is a ``NotFound``) — so the same ``except errors.NotFound`` serves the library and the
HTTP client.

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


class ApiError(MemwiseError):
    """The memwise server answered with an error."""

    code = "http_error"

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(message, code=code)
        self.status = status
        self.details = dict(details) if isinstance(details, dict) else {}
        self.args = (f"{status} {code}: {message}",)

    def __str__(self) -> str:
        return str(self.args[0])

    def __reduce__(self) -> tuple[Any, ...]:  # pickles (a worker's, a queue's) as it was made
        return (type(self), (self.status, self.code, self.message, self.details))


# An answer's error is an ApiError and the library's class its kind names, so ``except
# NotFound`` catches a 404 from the server as it catches one from the library.
class ApiNotFound(ApiError, NotFound):
    """The server answered: not found."""


class ApiConflict(ApiError, Conflict):
    """The server answered: a conflict."""


class ApiInvalid(ApiError, Invalid):
    """The server answered: invalid input."""


class ApiRefused(ApiError, Refused):
    """The server answered: refused."""


class ApiLimitExceeded(ApiError, LimitExceeded):
    """The server answered: a limit was reached."""


class ApiUnauthorized(ApiError, Unauthorized):
    """The server answered: not authenticated."""


class ApiForbidden(ApiError, Forbidden):
    """The server answered: not allowed."""


class ApiUnavailable(ApiError, Unavailable):
    """The server answered: unavailable."""


_BY_STATUS: dict[int, type[MemwiseError]] = {
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: Invalid,
    422: Invalid,
    429: LimitExceeded,
    503: Unavailable,
}
_PUBLIC = (NotFound, Conflict, Invalid, Refused, LimitExceeded, Unauthorized, Forbidden)
KINDS: dict[str, type[MemwiseError]] = {kind.code: kind for kind in (*_PUBLIC, Unavailable)}
_API_KINDS: dict[type[MemwiseError], type[ApiError]] = {
    NotFound: ApiNotFound,
    Conflict: ApiConflict,
    Invalid: ApiInvalid,
    Refused: ApiRefused,
    LimitExceeded: ApiLimitExceeded,
    Unauthorized: ApiUnauthorized,
    Forbidden: ApiForbidden,
    Unavailable: ApiUnavailable,
}


def from_answer(
    status: int, code: str, message: str, details: Any = None, kind_name: str | None = None
) -> ApiError:
    """The error an HTTP answer stands for: an ``ApiError`` that is also the class the
    answer's ``kind`` names (the server says it), else the class of the status."""
    kind = KINDS.get(kind_name or "") or _BY_STATUS.get(status)
    if kind is None:
        return ApiError(status, code, message, details)
    return _API_KINDS.get(kind, ApiError)(status, code, message, details)
