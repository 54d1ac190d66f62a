"""The API's routers are matched in the order of ROUTERS, hot paths first. That order must
decide nothing but speed: no path of one router may be answered by another's route."""

from __future__ import annotations

import re

from starlette.routing import Match

from memwise._config import Settings
from memwise._server.app import ROUTERS, create_app


def _scope(path: str, method: str) -> dict[str, object]:
    return {
        "type": "http",
        "path": path,
        "method": method,
        "root_path": "",
        "headers": [],
        "query_string": b"",
    }


def test_no_path_of_one_router_is_answered_by_another(sqlite_url: str) -> None:
    create_app(Settings(database_url=sqlite_url, admin_token="x"))  # the app builds
    clashes = []
    checked = 0
    for mine in ROUTERS:
        for route in mine.router.routes:
            path = getattr(route, "path", "")
            sample = re.sub(r"\{[^}]+\}", "x1", path)
            for method in getattr(route, "methods", None) or ["GET"]:
                scope = _scope(sample, method)
                checked += 1
                for other in ROUTERS:
                    if other is mine:
                        continue
                    for theirs in other.router.routes:
                        if theirs.matches(scope)[0] == Match.FULL:
                            clashes.append((method, path, getattr(theirs, "path", "")))
    assert checked > 50 and clashes == []


def test_every_turn_paths_come_first() -> None:
    names = [m.__name__.rsplit(".", 1)[-1] for m in ROUTERS]
    assert names[:2] == ["assistant", "conversations"]
