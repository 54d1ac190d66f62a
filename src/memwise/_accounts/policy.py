"""Which systems of record a workspace may reach: server configuration, never tenant input.

A workspace admin configures an account source (``PUT /v1/account-source``), but only within
what the server operator allowed:

- a SQL source's database must be on ``sql_urls`` (matched on driver, user, host, port and
  database; the password may come from either side), is never memwise's own database in any
  spelling, runs one read-only SELECT under a statement timeout, and is refused at lookup
  time if its role can read server files (a PostgreSQL superuser, ``pg_read_server_files``);
- an HTTP source's base URL must start with an entry of ``http_bases``; lookups are paths
  relative to it; its host must not resolve to a loopback, private, link-local or reserved
  address unless ``allow_private`` is set (account sources only: their bases are the
  operator's own list).

Event endpoints and a helpdesk's ticket webhook are URLs a tenant chooses: they reach an
internal address only when the operator names that host for that purpose, and for that
workspace, in ``private_hosts`` (``[ws_…=]events:host[:port]``, ``tickets:…``,
``accounts:…``) — never every internal address at once.

Each entry may be limited to one workspace: ``ws_…=URL``. Both lists are empty by default:
no SQL or HTTP source can be configured until the operator allows one.
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
import string
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import sqlalchemy as sa
from sqlalchemy.engine import URL

from memwise import errors
from memwise._ids import WorkspaceId

_SCOPED = re.compile(r"^(ws_[A-Za-z0-9_-]+)=(.+)$")
DEFAULT_PORTS = {"http": 80, "https": 443, "postgresql": 5432, "mysql": 3306}
PLACEHOLDERS = {"account", "id"}


class PolicyRefused(errors.Refused):
    """The server's account-source policy does not allow this."""

    code = "account_source_not_allowed"


@dataclass(frozen=True)
class AccountPolicy:
    sql_urls: tuple[str, ...] = ()
    http_bases: tuple[str, ...] = ()
    allow_private: bool = False  # account sources' allow-listed bases may be internal
    private_hosts: tuple[str, ...] = ()  # "[ws_…=]purpose:host[:port]": one host, one purpose
    statement_timeout_s: float = 5.0
    own_database: str | None = None  # memwise's own URL: never a source, whatever the lists

    def entries(self, values: Iterable[str], workspace_id: WorkspaceId) -> list[str]:
        out = []
        for raw in values:
            raw = raw.strip()
            scoped = _SCOPED.match(raw)
            if scoped:
                if scoped.group(1) == workspace_id:
                    out.append(scoped.group(2).strip())
            elif raw:
                out.append(raw)
        return out

    # -- HTTP --------------------------------------------------------------------------------
    def check_http(
        self,
        workspace_id: WorkspaceId,
        base_url: str,
        lookups: dict[str, str],
        headers: dict[str, str] | None = None,
    ) -> None:
        check_headers(headers or {})
        base = _http_parts(base_url)
        allowed = [_http_parts(e) for e in self.entries(self.http_bases, workspace_id)]
        if not any(_under(base, a) for a in allowed):
            raise PolicyRefused(
                "that base URL is not on this server's allow-list for account sources; the "
                "server operator adds it (MEMWISE_ACCOUNT_HTTP_BASES)"
            )
        for kind, template in lookups.items():
            check_lookup_path(kind, template)

    def check_host(
        self, base_url: str, *, purpose: str = "accounts", workspace_id: WorkspaceId | None = None
    ) -> str | None:
        """At call time: resolve the host and refuse internal addresses; returns the
        address to connect to (so a second resolution cannot rebind it), or None when an
        internal address is allowed for this purpose (and workspace) by the operator."""
        parts = urlsplit(base_url)
        host = parts.hostname or ""
        if self._private_allowed(purpose, workspace_id, host, parts.port):
            return None
        try:
            infos = socket.getaddrinfo(host, parts.port or 443, proto=socket.IPPROTO_TCP)
        except OSError as exc:
            raise errors.Unavailable(f"the host did not resolve: {host}") from exc
        found = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
        if not found or any(internal(a) for a in found):
            raise PolicyRefused(
                "the host resolves to an internal address; the server operator allows one "
                "host for one purpose explicitly (MEMWISE_PRIVATE_HOSTS)"
            )
        return str(found[0])

    def _private_allowed(
        self, purpose: str, workspace_id: WorkspaceId | None, host: str, port: int | None
    ) -> bool:
        if purpose == "accounts" and self.allow_private:
            return True  # an account source's base is on the operator's own allow-list
        for entry in self.entries(self.private_hosts, workspace_id or WorkspaceId("")):
            kind, _, where = entry.partition(":")
            name, _, wanted_port = (
                where.rpartition(":") if where.count(":") == 1 else (where, "", "")
            )
            if kind != purpose or not name:
                continue
            if name.lower() == host.lower() and (not wanted_port or wanted_port == str(port)):
                return True
        return False

    # -- SQL ---------------------------------------------------------------------------------
    def check_sql(self, workspace_id: WorkspaceId, url: str) -> URL:
        """The URL to connect with: the allow-list entry's own driver, user, host, port,
        database and options; the tenant's URL only picks the entry and may bring the
        password. No query parameter of the tenant's is used (they could override any of
        the checked parts)."""
        try:
            wanted = sa.make_url(url)
        except sa.exc.ArgumentError as exc:
            raise errors.Invalid(
                "the sql source's url is not a database URL", code="invalid_source"
            ) from exc
        _check_sql_url(wanted, "the sql source's url")
        own = sa.make_url(self.own_database) if self.own_database else None
        if own is not None and same_database(wanted, own):
            raise PolicyRefused("memwise's own database is never an account source")
        for entry in self.entries(self.sql_urls, workspace_id):
            try:
                allowed = sa.make_url(entry)
            except sa.exc.ArgumentError:
                continue
            if _sql_key(allowed) != _sql_key(wanted):
                continue
            if own is not None and same_database(allowed, own):
                break
            return allowed.set(password=wanted.password or allowed.password)
        raise PolicyRefused(
            "that database is not on this server's allow-list for account sources; the "
            "server operator adds it (MEMWISE_ACCOUNT_SQL_URLS)"
        )


def _check_sql_url(url: URL, what: str) -> None:
    if url.query:
        raise PolicyRefused(f"{what} takes no query parameters: the allow-list sets them")
    if url.get_backend_name() == "sqlite":
        path = url.database or ""
        if not path or path == ":memory:" or any(c in path for c in "#?%") or ".." in path:
            raise PolicyRefused(f"{what} must be a plain path to a database file")
        if path.startswith("file:"):
            raise PolicyRefused(f"{what} must be a plain path, not a file: URI")


_HOP_HEADERS = {
    "host",
    "content-length",
    "transfer-encoding",
    "connection",
    "upgrade",
    "te",
    "trailer",
    "proxy-authorization",
    "proxy-connection",
    "keep-alive",
    "expect",
}
_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$")


def check_headers(headers: dict[str, str]) -> None:
    """Header names are tokens, values printable ASCII; Host and hop headers are the
    transport's, never the tenant's."""
    for name, value in headers.items():
        if not _TOKEN.match(str(name)) or str(name).lower() in _HOP_HEADERS:
            raise PolicyRefused(f"the header {str(name)[:40]!r} may not be set")
        text = str(value)
        if len(text) > 4000 or any(not (32 <= ord(c) < 127) for c in text):
            raise PolicyRefused(
                f"the value of {name} must be printable ASCII of at most 4,000 characters"
            )


def pinned(url: str, address: str | None) -> tuple[str, dict[str, str], dict[str, str]]:
    """The request for ``url`` sent to ``address`` (the one ``check_host`` approved): the
    URL with that address, and the Host header and TLS name of the original host."""
    if address is None:
        return url, {}, {}
    parts = urlsplit(url)
    shown = f"[{address}]" if ":" in address else address
    netloc = shown + (f":{parts.port}" if parts.port else "")
    target = urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))
    return target, {"host": parts.netloc.rpartition("@")[2]}, {"sni_hostname": parts.hostname or ""}


def check_query(kind: str, query: str) -> str:
    """One read-only statement: SELECT or WITH … SELECT, nothing after it."""
    q = str(query).strip().rstrip(";").strip()
    head = q.split(None, 1)[0].lower() if q else ""
    if head not in ("select", "with") or ";" in q:
        raise PolicyRefused(
            f"the {kind} query must be one SELECT statement (with :account and :id)"
        )
    return q


def check_lookup_path(kind: str, template: str) -> None:
    """A lookup is a path below the base URL with only {account} and {id} in it."""
    bad = PolicyRefused(
        f"the {kind} lookup must be a path relative to the base URL, such as "
        "'/accounts/{account}/orders/{id}'"
    )
    t = str(template)
    if not t.startswith("/") or t.startswith("//") or "\\" in t or any(c in t for c in "\r\n\t "):
        raise bad
    if "://" in t or "/../" in f"{t}/" or "/./" in f"{t}/" or "@" in t.split("?")[0]:
        raise bad
    if "%" in t or "#" in t:
        raise bad
    try:
        fields = [f for _, f, spec, conv in string.Formatter().parse(t) if f is not None]
        specs = [(spec, conv) for _, f, spec, conv in string.Formatter().parse(t) if f is not None]
    except ValueError as exc:
        raise bad from exc
    if any(f not in PLACEHOLDERS for f in fields) or any(s or c for s, c in specs):
        raise PolicyRefused(f"the {kind} lookup may use only {{account}} and {{id}}")


def internal(addr: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Anything but a public unicast address: loopback, private, link-local, shared (CGNAT,
    cloud metadata), reserved, multicast, and IPv6 forms that embed one of those."""
    if isinstance(addr, ipaddress.IPv6Address):
        embedded = addr.ipv4_mapped or addr.sixtofour or (addr.teredo or (None, None))[1]
        if embedded is not None:
            return internal(embedded)
        if addr in ipaddress.ip_network("64:ff9b::/96"):  # NAT64: the last 32 bits
            return internal(ipaddress.IPv4Address(int(addr) & 0xFFFFFFFF))
    return bool(
        not addr.is_global
        or addr.is_loopback
        or addr.is_private
        or addr.is_link_local
        or addr.is_multicast
        or addr.is_reserved
        or addr.is_unspecified
    )


def _http_parts(url: str) -> tuple[str, str, int, str]:
    parts = urlsplit(str(url).strip())
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        raise errors.Invalid(
            "an http source needs base_url (http:// or https://)", code="invalid_source"
        )
    if parts.username or parts.password:
        raise errors.Invalid(
            "put credentials in headers, not in the base URL", code="invalid_source"
        )
    if parts.query or parts.fragment:
        raise errors.Invalid(
            "the base URL takes no query or fragment; put tokens in headers",
            code="invalid_source",
        )
    if any(bad in parts.path for bad in ("..", "%", "\\", "//", "/./")) or parts.path.endswith(
        "/."
    ):
        raise PolicyRefused("the base URL's path must be plain: no dot segments or escapes")
    try:
        port = parts.port or DEFAULT_PORTS[scheme]
    except ValueError as exc:
        raise errors.Invalid("the base URL's port is not a number", code="invalid_source") from exc
    return scheme, parts.hostname.lower().rstrip("."), port, parts.path.rstrip("/")


def _under(base: tuple[str, str, int, str], allowed: tuple[str, str, int, str]) -> bool:
    return base[:3] == allowed[:3] and (
        base[3] == allowed[3] or base[3].startswith(allowed[3] + "/")
    )


def _backend(url: URL) -> str:
    return url.get_backend_name()


def _sql_key(url: URL) -> tuple[str, str, str, int, str]:
    backend = _backend(url)
    if backend == "sqlite":
        return (backend, "", "", 0, _sqlite_path(url))
    return (
        backend,
        (url.username or "").lower(),
        _host(url),
        url.port or DEFAULT_PORTS.get(backend, 0),
        (url.database or "").lower(),
    )


def _host(url: URL) -> str:
    host = (url.host or str(url.query.get("host", "") or "")).lower().strip("[]").rstrip(".")
    if not host or host.startswith("/") or host == "localhost" or host.endswith(".localhost"):
        return "local"
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        return host
    return "local" if _is_local(addr) else str(addr)


def _is_local(addr: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Loopback, unspecified (0.0.0.0 reaches this host) or one of this host's addresses."""
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    return addr.is_loopback or addr.is_unspecified or str(addr) in _own_addresses()


def _own_addresses() -> set[str]:
    try:
        return set(socket.gethostbyname_ex(socket.gethostname())[2])
    except OSError:
        return set()


def _sqlite_path(url: URL) -> str:
    path = (url.database or "").removeprefix("file:").split("?")[0]
    return os.path.realpath(path) if path and path != ":memory:" else path


def same_database(a: URL, b: URL) -> bool:
    """Whether two URLs reach the same database, however they are spelled."""
    if _backend(a) != _backend(b):
        return False
    if _backend(a) == "sqlite":
        pa, pb = _sqlite_path(a), _sqlite_path(b)
        if pa == pb:
            return True
        try:
            return os.path.samefile(pa, pb)  # hard links and other spellings of one file
        except OSError:
            return False
    ka, kb = _sql_key(a), _sql_key(b)
    if ka[3:] != kb[3:]:
        return False
    return ka[2] == kb[2] or _addresses(ka[2]) & _addresses(kb[2]) != set()


def _addresses(host: str) -> set[str]:
    if host == "local":
        return {"local"}
    try:
        found = {str(i[4][0]).split("%")[0] for i in socket.getaddrinfo(host, None)}
    except OSError:
        return {host}
    return {"local" if _is_local(ipaddress.ip_address(a)) else a for a in found}
