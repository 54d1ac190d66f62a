"""The workspace's account source, lookups for a conversation's bound account, identification."""

from __future__ import annotations

from typing import Any

from fastapi.encoders import jsonable_encoder

from memwise import Memwise, errors
from memwise._api import routes
from memwise._api.auth import MW, Admin, Caller, Operator, conversation_scope, ws
from memwise._api.schemas import AccountSourceIn, IdentifyIn, LookupIn
from memwise._domain.access import Principal
from memwise._web.threads import waiting
from memwise.client import models as m

router = routes.router("/v1")


@router.put("/account-source", response_model=m.Settings)
def put_source(body: AccountSourceIn, caller: Admin, mw: MW) -> dict[str, Any]:
    data = body.model_dump(exclude_none=True)
    return mw.accounts.configure(ws(caller), data.pop("type"), data)


@router.get("/account-source", response_model=m.Settings)
def get_source(caller: Operator, mw: MW) -> dict[str, Any]:
    shown = mw.accounts.shown(ws(caller))
    if shown is None:
        raise errors.NotFound("no account source is configured", code="no_account_source")
    return shown


@router.post("/accounts/lookup", response_model=m.AccountLookup)
async def lookup(body: LookupIn, caller: Caller, mw: MW) -> dict[str, Any]:
    """A lookup for the conversation's bound account (visitors: their own conversation)."""
    return await waiting(
        _lookup, body, caller, mw, share_of=caller.workspace_id
    )  # the account source answers in its time


def _lookup(body: LookupIn, caller: Principal, mw: Memwise) -> dict[str, Any]:
    workspace = conversation_scope(caller, body.conversation_id)
    if caller.is_visitor:  # a door switched off serves its visitors nothing more
        mw.record.require_open_door(workspace, body.conversation_id)
    answer = mw.accounts.lookup(
        workspace,
        body.conversation_id,
        body.kind,
        body.id,
        account=body.account,
        actor=caller.actor,
    )
    r = answer.result
    return {
        "status": r.status,
        "kind": r.kind,
        "data": jsonable_encoder(r.data),  # NUMERIC balances stay numbers
        "read_at": r.read_at.isoformat() if r.read_at else None,
        "sentence": answer.sentence,
    }


@router.post("/identify", response_model=m.Identification)
def identify(body: IdentifyIn, caller: Operator, mw: MW) -> dict[str, Any]:
    return vars(mw.accounts.identify(ws(caller), body.kind, body.value))
