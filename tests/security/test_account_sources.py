"""Attacks 1, 2 and 8: a hostile workspace admin points the account source at memwise's own
database, at internal hosts, or reads the stored secrets back."""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from memwise._accounts.policy import AccountPolicy, PolicyRefused, same_database
from memwise._accounts.source import SQLAccountSource
from tests.conftest import PG_ADMIN_URL
from tests.integration.conftest import Api
from tests.security.conftest import conversation, staff

ORDER = "SELECT id, status FROM orders WHERE account = :account AND id = :id"


def _put(api: Api, key: str, **body: Any) -> Any:
    return api.call("PUT", "/v1/account-source", key, json=body)


def _spellings(url: str) -> list[str]:
    """memwise's own database URL as an attacker would write it."""
    u = sa.make_url(url)
    if u.get_backend_name() == "sqlite":
        path = Path(u.database or "")
        return [
            url,
            f"sqlite:///{path.parent}/./{path.name}",
            f"sqlite:///{path.parent}/../{path.parent.name}/{path.name}",
            f"sqlite:///file:{path}?mode=ro&uri=true",
        ]
    rendered = u.render_as_string(hide_password=False)
    return [
        rendered,
        rendered.replace("postgresql+psycopg", "postgresql"),
        rendered.replace("127.0.0.1", "localhost"),
        rendered.replace("127.0.0.1", "LOCALHOST"),
        rendered.replace("@127.0.0.1:5432", "@127.0.0.1"),
        rendered.replace("127.0.0.1", "0.0.0.0"),
        rendered.replace("127.0.0.1", "[::ffff:127.0.0.1]"),
        rendered.replace("127.0.0.1", "[::1]"),
        u.set(host="", query={"host": "/var/run/postgresql"}).render_as_string(False),
    ]


def test_memwise_own_database_is_never_a_source_in_any_spelling(
    sec: Api, database_url: str
) -> None:
    s = staff(sec)
    own = _spellings(database_url)
    # Even a careless server operator who allow-lists it cannot make it a source.
    sec.mw.accounts.allow(AccountPolicy(sql_urls=tuple(own)))
    for url in own:
        r = _put(sec, s["admin"], type="sql", url=url, queries={"order": ORDER})
        assert r.status_code == 422, (url, r.text)
        assert r.json()["error"]["code"] == "account_source_not_allowed"
    assert sec.call("GET", "/v1/account-source", s["admin"]).status_code == 404


def test_sql_sources_need_the_server_allow_list(sec: Api, tmp_path: Path) -> None:
    s = staff(sec)
    crm = tmp_path / "crm.db"
    sqlite3.connect(crm).close()
    r = _put(sec, s["admin"], type="sql", url=f"sqlite:///{crm}", queries={"order": ORDER})
    assert r.status_code == 422 and "allow-list" in r.json()["error"]["message"]
    # Allowed for another workspace only: still refused here.
    sec.mw.accounts.allow(AccountPolicy(sql_urls=(f"ws_other=sqlite:///{crm}",)))
    r = _put(sec, s["admin"], type="sql", url=f"sqlite:///{crm}", queries={"order": ORDER})
    assert r.status_code == 422
    sec.mw.accounts.allow(AccountPolicy(sql_urls=(f"{s['ws']}=sqlite:///{crm}",)))
    ok = _put(sec, s["admin"], type="sql", url=f"sqlite:///{crm}", queries={"order": ORDER})
    assert ok.status_code == 200, ok.text
    # Operators and visitors configure nothing.
    assert _put(sec, s["op"], type="demo").status_code == 403
    conv = conversation(sec, s)
    assert _put(sec, conv["visitor"], type="demo").status_code == 404


@pytest.mark.parametrize(
    "query",
    [
        "UPDATE orders SET status = 'x'",
        "SELECT 1; DROP TABLE orders",
        "ATTACH DATABASE '/tmp/x.db' AS x",
        "PRAGMA table_info(orders)",
        "DELETE FROM orders",
    ],
)
def test_only_one_select_statement(sec: Api, tmp_path: Path, query: str) -> None:
    s = staff(sec)
    crm = tmp_path / "crm.db"
    sqlite3.connect(crm).close()
    sec.mw.accounts.allow(AccountPolicy(sql_urls=(f"sqlite:///{crm}",)))
    r = _put(sec, s["admin"], type="sql", url=f"sqlite:///{crm}", queries={"order": query})
    assert r.status_code == 422 and r.json()["error"]["code"] == "account_source_not_allowed"


def test_sqlite_source_reads_only_and_stops_at_the_timeout(sec: Api, tmp_path: Path) -> None:
    crm = tmp_path / "crm.db"
    with sqlite3.connect(crm) as db:
        db.execute("CREATE TABLE orders (account TEXT, id TEXT, status TEXT)")
        db.execute("INSERT INTO orders VALUES ('ACC-1001', '4411', 'packed')")
    slow = (
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
        "SELECT count(*) AS c FROM n WHERE :account = :account AND :id = :id"
    )
    source = SQLAccountSource(
        sec.mw.clock,
        f"sqlite:///{crm}",
        {"order": ORDER, "invoice": slow, "shipment": "SELECT load_extension('x') AS y"},
        timeout_s=0.3,
    )
    assert source.lookup("order", "ACC-1001", "4411").status == "found"
    assert source.lookup("invoice", "ACC-1001", "1").status == "unavailable"  # interrupted
    assert source.lookup("shipment", "ACC-1001", "1").status == "unavailable"
    with source.engine.connect() as conn, pytest.raises(sa.exc.DatabaseError):
        conn.exec_driver_sql("INSERT INTO orders VALUES ('a', 'b', 'c')")  # refused by the link


@pytest.fixture
def crm_role() -> Iterator[str]:
    """A least-privilege PostgreSQL role and database, as the docs ask operators to make."""
    admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    name = f"mw_crm_{uuid.uuid4().hex[:8]}"
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE ROLE "{name}" LOGIN')
            conn.exec_driver_sql(f'CREATE DATABASE "{name}" OWNER "{name}"')
    except sa.exc.OperationalError as exc:
        pytest.skip(f"PostgreSQL is not reachable: {exc}")
    crm = sa.make_url(PG_ADMIN_URL).set(username=name, database=name)
    engine = sa.create_engine(crm)
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE orders (account text, id text, status text)")
        conn.exec_driver_sql("INSERT INTO orders VALUES ('ACC-1001', '4411', 'packed')")
    engine.dispose()
    yield crm.render_as_string(hide_password=False)
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.exec_driver_sql(f'DROP ROLE IF EXISTS "{name}"')
    admin.dispose()


@pytest.mark.postgres
def test_postgres_source_is_read_only_bounded_and_never_a_superuser(
    sec: Api, crm_role: str
) -> None:
    s = staff(sec)
    conv = conversation(sec, s, account_ref="ACC-1001")
    superuser = sa.make_url(crm_role).set(username=sa.make_url(PG_ADMIN_URL).username)
    sec.mw.accounts.allow(
        AccountPolicy(
            sql_urls=(crm_role, superuser.render_as_string(False)), statement_timeout_s=0.5
        )
    )
    queries = {
        "order": ORDER,
        "invoice": "SELECT pg_sleep(5) AS slept, :account AS a, :id AS i",
        "shipment": "SELECT pg_read_file('/etc/passwd') AS f, :account AS a, :id AS i",
        "card": "WITH w AS (UPDATE orders SET status = 'hacked' RETURNING 1) "
        "SELECT * FROM w WHERE :account = :account",
    }
    assert _put(sec, s["admin"], type="sql", url=crm_role, queries=queries).status_code == 200

    def lookup(kind: str, item: str | None = "4411") -> dict[str, Any]:
        body = {"conversation_id": conv["id"], "kind": kind, "id": item}
        out: dict[str, Any] = sec.call("POST", "/v1/accounts/lookup", s["op"], json=body).json()
        return out

    assert lookup("order")["status"] == "found"
    assert lookup("invoice")["status"] == "unavailable"  # cancelled by the statement timeout
    assert lookup("shipment")["status"] == "unavailable"  # no role to read server files
    assert lookup("card", None)["status"] == "unavailable"  # a read-only transaction
    with sa.create_engine(crm_role).connect() as conn:
        assert conn.exec_driver_sql("SELECT status FROM orders").scalar() == "packed"
    # The same database through a superuser is refused at lookup time.
    as_super = superuser.render_as_string(False)
    assert _put(sec, s["admin"], type="sql", url=as_super, queries=queries).status_code == 200
    refused = lookup("order")
    assert refused["status"] == "unavailable"
    entries = sec.call("GET", "/v1/audit", s["op"], params={"tool": "lookup_account"}).json()
    assert any("least privilege" in e["result"] for e in entries["items"])


class Recorder(BaseHTTPRequestHandler):
    hits: list[str]

    def log_message(self, *a: Any) -> None:
        pass

    def do_GET(self) -> None:
        type(self).hits.append(self.path)
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"status": "internal secret"}')


@pytest.fixture
def internal() -> Iterator[tuple[str, list[str]]]:
    hits: list[str] = []
    handler = type("H", (Recorder,), {"hits": hits})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", hits
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(
    "template",
    [
        "http://127.0.0.1:1/steal",
        "//127.0.0.1:1/steal",
        "https://attacker.example/{account}",
        "/a/../../admin",
        "/x/{account.__class__}",
        "/x/{0}",
        "/x/{id!r}",
        "relative/{id}",
        "/a\\b",
    ],
)
def test_lookups_are_paths_below_the_base_url(sec: Api, template: str) -> None:
    s = staff(sec)
    sec.mw.accounts.allow(AccountPolicy(http_bases=("https://crm.example.com",)))
    r = _put(
        sec,
        s["admin"],
        type="http",
        base_url="https://crm.example.com",
        lookups={"order": template},
    )
    assert r.status_code == 422, template


def test_no_request_reaches_an_internal_host(sec: Api, internal: tuple[str, list[str]]) -> None:
    url, hits = internal
    s = staff(sec)
    conv = conversation(sec, s, account_ref="ACC-1001")
    assert _put(sec, s["admin"], type="http", base_url=url).status_code == 422  # not allowed
    sec.mw.accounts.allow(AccountPolicy(http_bases=(url,)))  # allowed, but it is loopback
    assert _put(sec, s["admin"], type="http", base_url=url).status_code == 200
    body = {"conversation_id": conv["id"], "kind": "order", "id": "4411"}
    r = sec.call("POST", "/v1/accounts/lookup", conv["visitor"], json=body).json()
    assert r["status"] == "unavailable" and r["data"] == {} and "internal secret" not in str(r)
    assert hits == []
    # Only an explicit operator decision opens private addresses.
    sec.mw.accounts.allow(AccountPolicy(http_bases=(url,), allow_private=True))
    r = sec.call("POST", "/v1/accounts/lookup", conv["visitor"], json=body).json()
    assert r["status"] == "found" and hits == ["/accounts/ACC-1001/orders/4411"]


def test_a_stored_source_is_checked_again_against_todays_policy(sec: Api) -> None:
    s = staff(sec)
    conv = conversation(sec, s, account_ref="ACC-1001")
    sec.mw.accounts.allow(AccountPolicy(http_bases=("https://crm.example.com",)))
    assert _put(sec, s["admin"], type="http", base_url="https://crm.example.com").status_code == 200
    sec.mw.accounts.allow(AccountPolicy())  # the operator withdrew it
    body = {"conversation_id": conv["id"], "kind": "balance"}
    r = sec.call("POST", "/v1/accounts/lookup", s["op"], json=body).json()
    assert r["status"] == "unavailable"


def test_secrets_are_write_only(sec: Api, tmp_path: Path) -> None:
    s = staff(sec)
    sec.mw.accounts.allow(AccountPolicy(http_bases=("https://crm.example.com",)))
    put = _put(
        sec,
        s["admin"],
        type="http",
        base_url="https://crm.example.com/v2",
        headers={"X-Custom-Token": "tok-123", "Authorization": "Bearer abc", "Accept": "json"},
        lookups={"order": "/o/{account}/{id}?access_token=qs-secret&x=1"},
    )
    assert put.status_code == 200, put.text
    shown = sec.call("GET", "/v1/account-source", s["op"])
    for secret in ("tok-123", "abc", "qs-secret", "json"):
        assert secret not in put.text and secret not in shown.text
    assert shown.json()["headers"] == {
        "X-Custom-Token": "•••",
        "Authorization": "•••",
        "Accept": "•••",
    }
    # Credentials in a URL are refused outright: they belong in headers.
    userinfo = _put(sec, s["admin"], type="http", base_url="https://u:pw@crm.example.com")
    assert userinfo.status_code == 422 and "pw" not in userinfo.text
    crm = tmp_path / "crm.db"
    sqlite3.connect(crm).close()
    sec.mw.accounts.allow(AccountPolicy(sql_urls=(f"sqlite:///{crm}",)))
    r = _put(sec, s["admin"], type="sql", url=f"sqlite:///{crm}", queries={"order": ORDER})
    assert r.status_code == 200
    sec.mw.accounts.allow(
        AccountPolicy(sql_urls=("postgresql://crm@crm.internal:5432/crm?sslmode=require",))
    )
    pg = "postgresql://crm:hunter2@crm.internal:5432/crm"
    r = _put(sec, s["admin"], type="sql", url=pg, queries={"order": ORDER})
    assert r.status_code == 200
    text = sec.call("GET", "/v1/account-source", s["op"]).text
    assert "hunter2" not in text and "hunter2" not in r.text


@pytest.mark.parametrize(
    "query",
    [
        "dbname=memwise",
        "user=postgres",
        "host=127.0.0.1&port=15432",
        "options=-crole%3Dpostgres",
        "hostaddr=127.0.0.1",
    ],
)
def test_tenant_query_parameters_never_override_the_allow_list(sec: Api, query: str) -> None:
    s = staff(sec)
    entry = "postgresql+psycopg://crm_ro:operator-secret@crm.internal:5432/crm"
    sec.mw.accounts.allow(AccountPolicy(sql_urls=(entry,)))
    url = f"postgresql+psycopg://crm_ro@crm.internal:5432/crm?{query}"
    r = _put(sec, s["admin"], type="sql", url=url, queries={"order": ORDER})
    assert r.status_code == 422 and r.json()["error"]["code"] == "account_source_not_allowed"
    # Without a password the operator's is used, and only ever towards the listed host.
    connect = sec.mw.accounts.policy.check_sql(s["ws"], entry.replace(":operator-secret", ""))
    assert connect.host == "crm.internal" and connect.password == "operator-secret"
    assert dict(connect.query) == {}


@pytest.mark.parametrize("suffix", ["#/../crm.db", "?mode=rw", "%23/../crm.db", "/../x.db"])
def test_sqlite_paths_are_plain(sec: Api, database_url: str, tmp_path: Path, suffix: str) -> None:
    s = staff(sec)
    crm = tmp_path / "crm.db"
    sqlite3.connect(crm).close()
    sec.mw.accounts.allow(AccountPolicy(sql_urls=(f"sqlite:///{crm}",)))
    own = sa.make_url(database_url).database or str(tmp_path / "memwise.db")
    url = f"sqlite:///{own}{suffix}"
    r = _put(sec, s["admin"], type="sql", url=url, queries={"order": ORDER})
    assert r.status_code == 422, url


def test_a_memwise_database_is_refused_whatever_its_url(sec: Api, tmp_path: Path) -> None:
    """A copy (or another spelling) of a memwise database, even allow-listed, reads nothing."""
    import shutil

    s = staff(sec)
    conv = conversation(sec, s, account_ref="ACC-1001")
    copy = tmp_path / "innocent.db"
    own = sa.make_url(str(sec.mw.rt.db.url.render_as_string(False)))
    if own.get_backend_name() == "sqlite":
        shutil.copy(own.database or "", copy)
    else:
        from memwise._storage.engine import Database

        Database(f"sqlite:///{copy}").migrate()
    sec.mw.accounts.allow(AccountPolicy(sql_urls=(f"sqlite:///{copy}",)))
    secret_query = "SELECT secret FROM webhook_secrets WHERE :account = :account AND :id = :id"
    r = _put(sec, s["admin"], type="sql", url=f"sqlite:///{copy}", queries={"order": secret_query})
    assert r.status_code == 200
    body = {"conversation_id": conv["id"], "kind": "order", "id": "1"}
    found = sec.call("POST", "/v1/accounts/lookup", s["op"], json=body).json()
    assert found["status"] == "unavailable" and found["data"] == {}


def test_same_database_sees_through_spellings(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    own = sa.make_url(f"sqlite:///{db}")
    assert same_database(sa.make_url(f"sqlite:///{tmp_path}/./a.db"), own)
    assert not same_database(sa.make_url(f"sqlite:///{tmp_path}/b.db"), own)
    pg = sa.make_url("postgresql+psycopg://postgres@127.0.0.1:5432/mw")
    assert same_database(sa.make_url("postgresql://x@localhost/mw"), pg)
    assert same_database(sa.make_url("postgresql://x@[::1]:5432/MW"), pg)
    assert not same_database(sa.make_url("postgresql://x@127.0.0.1/other"), pg)
    with pytest.raises(PolicyRefused):
        AccountPolicy(own_database=str(own)).check_sql("ws_x", f"sqlite:///{db}")


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "169.254.169.254",
        "100.100.100.200",
        "::1",
        "fe80::1",
        "::ffff:10.0.0.1",
        "2002:7f00:1::1",
        "64:ff9b::a9fe:a9fe",
        "fc00::1",
        "0.0.0.0",
        "224.0.0.1",
    ],
)
def test_internal_addresses_in_every_form(address: str) -> None:
    import ipaddress

    from memwise._accounts.policy import internal

    assert internal(ipaddress.ip_address(address))
    assert not internal(ipaddress.ip_address("93.184.216.34"))


def test_the_checked_address_is_the_one_connected(monkeypatch: pytest.MonkeyPatch) -> None:
    """No DNS rebinding: the request goes to the address that passed the check."""
    import socket

    import httpx

    from memwise import FixedClock
    from memwise._accounts.source import HTTPAccountSource

    answers = iter(["93.184.216.34", "127.0.0.1"])  # public once, then loopback

    def resolve(host: str, *a: Any, **k: Any) -> list[Any]:
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (next(answers), 443))]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"status": "ok"})

    policy = AccountPolicy(http_bases=("https://crm.example.com",))
    source = HTTPAccountSource(
        FixedClock(),
        "https://crm.example.com",
        transport=httpx.MockTransport(handler),
        policy=policy,
        retries=0,
    )
    assert source.lookup("balance", "ACC-1", None).status == "found"
    (request,) = seen
    assert request.url.host == "93.184.216.34" and request.headers["host"] == "crm.example.com"
    assert request.extensions["sni_hostname"] == "crm.example.com"


def test_answers_are_capped_while_they_arrive(internal: tuple[str, list[str]]) -> None:
    import httpx

    from memwise import FixedClock
    from memwise._accounts.source import HTTPAccountSource

    sent = {"bytes": 0}

    def endless(request: httpx.Request) -> httpx.Response:
        async def chunks() -> AsyncIterator[bytes]:  # lookups read their answers async
            for _ in range(10_000):  # 640 MB if it were all read
                sent["bytes"] += 65_536
                yield b" " * 65_536

        return httpx.Response(200, content=chunks())

    source = HTTPAccountSource(
        FixedClock(), "https://crm.example.com", transport=httpx.MockTransport(endless), retries=0
    )
    assert source.lookup("balance", "ACC-1", None).reason == "the source's answer was too large"
    assert sent["bytes"] < 2_000_000


@pytest.mark.parametrize(
    ("base", "headers"),
    [
        ("https://crm.example.com/api/../admin", {}),
        ("https://crm.example.com/api/%2e%2e/admin", {}),
        ("https://crm.example.com/api", {"Host": "admin.internal"}),
        ("https://crm.example.com/api", {"X-Token": "caf\u00e9"}),
        ("https://crm.example.com/api", {"Bad Name": "x"}),
        ("https://crm.example.com/api", {"X-Token": "a\r\nSet-Cookie: x"}),
    ],
)
def test_base_paths_and_headers_are_plain(sec: Api, base: str, headers: dict[str, str]) -> None:
    s = staff(sec)
    sec.mw.accounts.allow(AccountPolicy(http_bases=("https://crm.example.com/api",)))
    r = _put(sec, s["admin"], type="http", base_url=base, headers=headers)
    assert r.status_code == 422, (base, headers, r.text)


def test_a_dot_reference_stays_one_segment() -> None:
    from memwise._accounts.source import _seg

    assert _seg("..") == "%2E%2E" and _seg(".") == "%2E" and _seg("a/b") == "a%2Fb"


@pytest.mark.postgres
def test_a_member_of_a_superuser_role_is_refused_too(sec: Api, crm_role: str) -> None:
    """A login that may SET ROLE to a superuser once switched role in one SELECT and read
    /etc/passwd on the database server."""
    s = staff(sec)
    conv = conversation(sec, s, account_ref="ACC-1001")
    admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    member = sa.make_url(crm_role).username
    top = sa.make_url(PG_ADMIN_URL).username
    with admin.connect() as conn:
        conn.exec_driver_sql(f'GRANT "{top}" TO "{member}"')
    try:
        sec.mw.accounts.allow(AccountPolicy(sql_urls=(crm_role,), statement_timeout_s=2))
        queries = {
            "order": "SELECT set_config('role', '" + str(top) + "', true) AS r,"
            " pg_read_file('/etc/passwd') AS status, :account AS a, :id AS i"
        }
        assert _put(sec, s["admin"], type="sql", url=crm_role, queries=queries).status_code == 200
        body = {"conversation_id": conv["id"], "kind": "order", "id": "4411"}
        got = sec.call("POST", "/v1/accounts/lookup", s["op"], json=body)
        assert got.json()["status"] == "unavailable" and "root:" not in got.text
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'REVOKE "{top}" FROM "{member}"')
        admin.dispose()
