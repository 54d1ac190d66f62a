"""Tenancy and the contact store behave the same on every backend."""

from __future__ import annotations

import pytest

from memwise import Memwise, errors


def test_workspace_gets_an_owner_key_that_authenticates(mw: Memwise) -> None:
    ws, key = mw.tenancy.create_workspace("Acme", "Europe/Berlin", "startup")
    assert ws.timezone == "Europe/Berlin" and ws.plan == "startup"
    assert ws.monthly_allowance == 1000
    assert ws.created_at.tzinfo is not None
    assert mw.tenancy.authenticate_key(key) == (ws.id, "owner")
    assert mw.tenancy.authenticate_key(key + "x") is None


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"name": "A", "timezone": "Mars/Olympus"}, "invalid_timezone"),
        ({"name": "  ", "timezone": "UTC"}, "invalid_name"),
        ({"name": "A", "timezone": "UTC", "plan": "gold"}, "invalid_plan"),
    ],
)
def test_bad_workspace_input_is_refused_and_nothing_written(
    mw: Memwise, kwargs: dict[str, str], code: str
) -> None:
    with pytest.raises(errors.Invalid) as exc:
        mw.tenancy.create_workspace(**kwargs)
    assert exc.value.code == code


def test_memory_needs_a_domain_first(mw: Memwise) -> None:
    ws, _ = mw.tenancy.create_workspace("Acme")
    with pytest.raises(errors.Conflict) as exc:
        mw.tenancy.create_agent(ws.id, "Eve", memory_enabled=True)
    assert exc.value.code == "domain_required"
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    with pytest.raises(errors.Conflict):
        mw.tenancy.update_agent(ws.id, agent.id, {"memory_enabled": True})
    agent = mw.tenancy.update_agent(ws.id, agent.id, {"domain": "Retail", "memory_enabled": True})
    assert agent.memory_enabled and agent.domain == "retail"
    assert agent.record_policy == "archive"


def test_objects_of_another_workspace_are_not_found(mw: Memwise) -> None:
    a, _ = mw.tenancy.create_workspace("A")
    b, _ = mw.tenancy.create_workspace("B")
    agent = mw.tenancy.create_agent(a.id, "Eve")
    contact = mw.tenancy.create_contact(a.id, "Ann", emails=["ann@example.com"])
    user = mw.tenancy.create_user(a.id, "Bob", "operator")
    with pytest.raises(errors.NotFound):
        mw.tenancy.get_agent(b.id, agent.id)
    with pytest.raises(errors.NotFound):
        mw.tenancy.get_contact(b.id, contact.id)
    with pytest.raises(errors.NotFound):
        mw.tenancy.get_user(b.id, user.id)
    assert mw.tenancy.find_contacts(b.id, "email", "ann@example.com") == []


def test_contact_store_normalises_identities(mw: Memwise) -> None:
    ws, _ = mw.tenancy.create_workspace("Acme")
    c = mw.tenancy.create_contact(
        ws.id,
        "Ann Lee",
        emails=["Ann@Example.com"],
        phones=["+49 (30) 1234-567"],
        account_refs=["ACC-1"],
        addresses=["1 Main St"],
    )
    assert c.emails == ["Ann@Example.com"] and c.account_refs == ["ACC-1"]
    assert mw.tenancy.find_contacts(ws.id, "email", "ann@example.COM") == [c.id]
    assert mw.tenancy.find_contacts(ws.id, "phone", "4930 1234567") == [c.id]
    with pytest.raises(errors.Invalid):
        mw.tenancy.create_contact(ws.id, "Bad", emails=["not-an-email"])
    with pytest.raises(errors.Invalid):
        mw.tenancy.create_contact(ws.id, "Bad", fax=["1"])


def test_telegram_id_maps_to_one_user(mw: Memwise) -> None:
    ws, _ = mw.tenancy.create_workspace("Acme")
    u = mw.tenancy.create_user(ws.id, "Bob", "member", telegram_id="4242")
    assert mw.tenancy.user_by_telegram(ws.id, "4242") == u
    with pytest.raises(errors.Conflict):
        mw.tenancy.create_user(ws.id, "Bobby", "member", telegram_id="4242")


def test_api_keys_only_for_staff_roles(mw: Memwise) -> None:
    ws, _ = mw.tenancy.create_workspace("Acme")
    key = mw.tenancy.create_api_key(ws.id, "operator")
    assert mw.tenancy.authenticate_key(key) == (ws.id, "operator")
    with pytest.raises(errors.Invalid):
        mw.tenancy.create_api_key(ws.id, "member")
