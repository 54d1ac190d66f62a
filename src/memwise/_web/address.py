"""The caller's address, as the operator's proxy settings say to read it."""

from __future__ import annotations

from starlette.requests import Request


def client_address(request: Request) -> str:
    """The caller's address: the proxy's forwarded header only when the operator trusts it."""
    settings = request.app.state.settings
    header = settings.forwarded_header
    if header:
        forwarded = request.headers.get(header, "")
        if forwarded:  # the address the trusted proxy saw: the rightmost, not the client's
            return forwarded.split(",")[-1].strip()[:64]
    return request.client.host if request.client else "unknown"
