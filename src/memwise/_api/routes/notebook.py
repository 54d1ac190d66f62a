"""A staff user's notebook. Only workspace keys reach it: a visitor never writes a rule, and
only a key made for that user writes it (admins and owners may read it)."""

from __future__ import annotations

from typing import Any

from fastapi import Query, Response

from memwise import errors
from memwise._api import routes
from memwise._api.auth import MW, Operator, ws
from memwise._api.schemas import NotebookIn, out, page
from memwise.client import models as m

router = routes.router("/v1/users/{user_id}/notebook")


@router.get("", response_model=m.Page[m.NotebookEntry])
def entries(user_id: str, caller: Operator, mw: MW) -> dict[str, Any]:
    return page([out(e) for e in mw.notebook.entries(ws(caller), user_id, by=caller)], None)


@router.post("", status_code=201, response_model=m.NotebookAdded)
def add(user_id: str, body: NotebookIn, caller: Operator, mw: MW, response: Response) -> Any:
    added = mw.notebook.add(ws(caller), user_id, body.text, actor=caller.actor, by=caller)
    if added.duplicate:
        response.status_code = 200
        return {"duplicate": True, "entry": out(added.entry)}
    return out(added.entry, evicted=added.evicted)


@router.delete("/{entry_id}", response_model=m.Removed)
def forget(user_id: str, entry_id: str, caller: Operator, mw: MW) -> dict[str, int]:
    return {
        "removed": mw.notebook.forget(ws(caller), user_id, entry_id, actor=caller.actor, by=caller)
    }


@router.delete("", response_model=m.Removed)
def forget_phrase(
    user_id: str, caller: Operator, mw: MW, phrase: str = Query("", max_length=400)
) -> dict[str, int]:
    if not phrase.strip():
        raise errors.Invalid("give ?phrase= with a few words of the rule", code="empty_phrase")
    removed = mw.notebook.forget_phrase(ws(caller), user_id, phrase, actor=caller.actor, by=caller)
    return {"removed": removed}


@router.get("/block", response_model=m.NotebookBlock)
def block(user_id: str, caller: Operator, mw: MW) -> dict[str, Any]:
    b = mw.notebook.block(ws(caller), user_id, by=caller)
    return {
        "text": b.text,
        "entries": [out(e) for e in b.entries],
        "left_out": b.left_out,
        "chars": b.chars,
    }
