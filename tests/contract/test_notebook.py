"""The notebook on every backend: 80/81 entries, duplicates, forget, per-person, audit."""

from __future__ import annotations

import pytest

from memwise import FixedClock, Memwise, errors


def _ws(mw: Memwise) -> tuple[str, str]:
    ws, _ = mw.tenancy.create_workspace("Acme")
    return ws.id, mw.tenancy.create_user(ws.id, "Mira", "operator").id


def test_80_entries_fit_and_the_81st_evicts_the_oldest(mw: Memwise, clock: FixedClock) -> None:
    ws, user = _ws(mw)
    for i in range(80):
        added = mw.notebook.add(ws, user, f"rule number {i}")
        assert not added.duplicate and added.evicted == []
        clock.advance(seconds=1)
    assert len(mw.notebook.entries(ws, user)) == 80
    first = mw.notebook.entries(ws, user)[0]
    added = mw.notebook.add(ws, user, "rule number 80")
    assert added.evicted == [first.id]
    texts = [e.text for e in mw.notebook.entries(ws, user)]
    assert len(texts) == 80 and texts[0] == "rule number 1" and texts[-1] == "rule number 80"


def test_duplicates_are_not_saved_and_the_caller_is_told(mw: Memwise) -> None:
    ws, user = _ws(mw)
    first = mw.notebook.add(ws, user, "Format prices as 1.234,56 EUR")
    again = mw.notebook.add(ws, user, "  format PRICES as 1.234,56 eur! ")
    assert again.duplicate and again.entry.id == first.entry.id
    assert len(mw.notebook.entries(ws, user)) == 1


def test_too_long_and_secret_rules_save_nothing(mw: Memwise) -> None:
    ws, user = _ws(mw)
    mw.notebook.add(ws, user, "x" * 400)
    with pytest.raises(errors.Invalid) as exc:
        mw.notebook.add(ws, user, "y" * 401)
    assert exc.value.code == "too_long"
    with pytest.raises(errors.Refused):
        mw.notebook.add(ws, user, "the CRM password is Tr0ub4dor&3")
    assert [e.text for e in mw.notebook.entries(ws, user)] == ["x" * 400]


def test_forget_by_id_and_by_phrase(mw: Memwise) -> None:
    ws, user = _ws(mw)
    a = mw.notebook.add(ws, user, "CRM means the deals board").entry
    mw.notebook.add(ws, user, "Monday report: pipeline by stage")
    mw.notebook.add(ws, user, "Send the Monday report as PDF")
    mw.notebook.add(ws, user, "Answer in German")
    assert mw.notebook.forget(ws, user, a.id) == 1
    with pytest.raises(errors.NotFound):
        mw.notebook.forget(ws, user, a.id)
    assert mw.notebook.forget_phrase(ws, user, "monday REPORT") == 2
    assert mw.notebook.forget_phrase(ws, user, "nothing like this") == 0
    assert [e.text for e in mw.notebook.entries(ws, user)] == ["Answer in German"]
    tools = [(e.tool, e.result) for e in mw.audit.entries(ws)]
    assert ("forget_rule", "removed 2") in tools and ("remember_rule", "saved (25 chars)") in tools


def test_notebook_belongs_to_one_person(mw: Memwise) -> None:
    ws, mira = _ws(mw)
    colleague = mw.tenancy.create_user(ws, "Tom", "operator").id
    mw.notebook.add(ws, mira, "Answer in German")
    assert mw.notebook.entries(ws, colleague) == []
    newcomer = mw.tenancy.create_user(ws, "New", "member").id
    assert mw.notebook.block(ws, newcomer).text == ""
    other_ws, _ = mw.tenancy.create_workspace("Other")
    with pytest.raises(errors.NotFound):
        mw.notebook.entries(other_ws.id, mira)


def test_block_over_the_budget_keeps_the_rest_listable(mw: Memwise, clock: FixedClock) -> None:
    ws, user = _ws(mw)
    for i in range(10):
        mw.notebook.add(ws, user, f"{i:02d} " + "r" * 397)
        clock.advance(seconds=1)
    block = mw.notebook.block(ws, user)
    assert len(block.entries) == 7 and block.left_out == 3
    assert block.entries[0].text.startswith("03") and block.entries[-1].text.startswith("09")
    assert len(mw.notebook.entries(ws, user)) == 10


def test_the_notebook_keeps_rules_not_customer_or_order_facts(mw: Memwise) -> None:
    from memwise import errors

    ws, _ = mw.tenancy.create_workspace("Acme")
    dana = mw.tenancy.create_user(ws.id, "Dana", "operator")
    mw.tenancy.create_contact(
        ws.id, "Ann Lee", emails=["ann.lee@example.com"], account_refs=["ACC-1001"]
    )
    for text, code in (
        ("Ann Lee prefers email and is vegetarian", "customer_fact_in_notebook"),
        ("ann.lee@example.com wants invoices in German", "customer_fact_in_notebook"),
        ("ACC-1001 gets priority handling", "customer_fact_in_notebook"),
        ("Order 4411 has shipped", "operational_fact_in_notebook"),
        ("Invoice INV-2231 is still unpaid", "operational_fact_in_notebook"),
    ):
        with pytest.raises(errors.Refused) as refused:
            mw.notebook.add(ws.id, dana.id, text)
        assert refused.value.code == code, text
    for rule in (
        "Always ask for the order number first",
        "Refunds over 500 EUR need a manager's approval",
        "Sign emails with my first name only",
    ):
        assert not mw.notebook.add(ws.id, dana.id, rule).duplicate
    assert len(mw.notebook.entries(ws.id, dana.id)) == 3


@pytest.mark.parametrize(
    "text",
    [
        "Ann is allergic to peanuts",  # a contact's first name
        "Ms Lee is allergic to peanuts",  # a title and a surname
        "Lee, Ann: vegan, lives in Kiel",
        "AnnLee prefers email",
        "Bob lives in Hamburg",  # a one-word contact name
        "ann(at)example.com wants invoices in German",
        "Carla prefers email",  # not a contact (yet): still a fact about a person
        "Dieter's wife is vegan",
    ],
)
def test_a_fact_about_one_person_is_refused_however_written(mw: Memwise, text: str) -> None:
    from memwise import errors

    ws, _ = mw.tenancy.create_workspace("Acme")
    dana = mw.tenancy.create_user(ws.id, "Dana", "operator")
    mw.tenancy.create_contact(ws.id, "Ann Lee", emails=["ann.lee@example.com"])
    mw.tenancy.create_contact(ws.id, "Bob")
    with pytest.raises(errors.Refused) as refused:
        mw.notebook.add(ws.id, dana.id, text)
    assert refused.value.code == "customer_fact_in_notebook", text
    assert mw.notebook.entries(ws.id, dana.id) == []


@pytest.mark.parametrize(
    "text",
    [
        "Ann's parcel arrived yesterday",
        "The parcel arrived yesterday",
        "Bob's refund went through on Monday",
        "Her account is frozen",
        "The customer owes us three hundred euros",
        "The card on file was declined",
    ],
)
def test_one_transactions_state_is_refused_without_a_number(mw: Memwise, text: str) -> None:
    from memwise import errors

    ws, _ = mw.tenancy.create_workspace("Acme")
    dana = mw.tenancy.create_user(ws.id, "Dana", "operator")
    with pytest.raises(errors.Refused) as refused:
        mw.notebook.add(ws.id, dana.id, text)
    assert refused.value.code == "operational_fact_in_notebook", text


def test_working_rules_that_mention_names_or_orders_are_kept(mw: Memwise) -> None:
    ws, _ = mw.tenancy.create_workspace("Acme")
    dana = mw.tenancy.create_user(ws.id, "Dana", "operator")
    mw.tenancy.create_contact(ws.id, "Mark Twain")
    for rule in (
        "Mark urgent tickets red",  # a contact's name as an ordinary word
        "When the parcel has not arrived after 5 days, open a claim",
        "If the payment failed, send the link again",
        "Management prefers weekly reports on Fridays",
        "Sign emails with my first name only",
    ):
        assert not mw.notebook.add(ws.id, dana.id, rule).duplicate, rule


@pytest.mark.parametrize(
    "text",
    [
        "Ann really prefers email",
        "Ann (Kiel) is vegan",
        "Ann - vegan",
        "Ann from Kiel is vegan",
        "Ann picks up on Friday",
        "Remember: Ann vegan",
        "Vegan customer: Ann",
        "ann is allergic to peanuts",
        "ANN is vegan",
        "Ann\u200b is vegan",  # an invisible character
        "\u0410nn is vegan",  # a Cyrillic A
        "Ann_Lee is vegan",
        "Robert S. prefers email",
        "Mrs. L. is vegan",
        "The Smiths are vegan",
        "Lee household prefers email",
        "Always greet Ann warmly",
        "rob.smith @ example.com is vegan",
        "rob.smith[at]example[.]com is vegan",
        "The customer on 176 12345678 is vegan",
        "Account ACC 55123 is vegan",
        "acc55123 gets the blue catalogue",
        "The guy from Kiel with the red car is allergic to peanuts",
        "Carla vegan",  # not a contact, but a person and what she is
    ],
)
def test_a_second_reviews_customer_facts_are_refused(mw: Memwise, text: str) -> None:
    from memwise import errors

    ws, _ = mw.tenancy.create_workspace("Acme")
    dana = mw.tenancy.create_user(ws.id, "Dana", "operator")
    mw.tenancy.create_contact(ws.id, "Ann Lee")
    mw.tenancy.create_contact(
        ws.id,
        "Robert Smith",
        emails=["rob.smith@example.com"],
        phones=["+49 176 12345678"],
        account_refs=["ACC-55123"],
    )
    with pytest.raises(errors.Refused) as refused:
        mw.notebook.add(ws.id, dana.id, text)
    assert refused.value.code == "customer_fact_in_notebook", text


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Parcel arrived yesterday", "operational_fact_in_notebook"),
        ("The big blue parcel arrived yesterday", "operational_fact_in_notebook"),
        ("The refund for the blender was approved", "operational_fact_in_notebook"),
        ("Refund approved for the blender", "operational_fact_in_notebook"),
        ("The March invoice remains unpaid", "operational_fact_in_notebook"),
        ("Order four four one one has shipped", "operational_fact_in_notebook"),
        ("The card on file expired", "operational_fact_in_notebook"),
        ("Kiel customer owes 300", "operational_fact_in_notebook"),
        ("The order is paid before it ships.", None),
        ("The refund is processed within 14 days.", None),
        ("The account is frozen after three failed logins.", None),
        ("Orders to Paris ship from the Lyon warehouse.", None),
        ("In April we run the spring sale.", None),
        ("Use Brown boxes for returns.", None),
        ("Call Marco at the warehouse for stock questions.", None),  # a colleague
    ],
)
def test_states_and_procedures_and_place_names(mw: Memwise, text: str, code: str | None) -> None:
    from memwise import errors

    ws, _ = mw.tenancy.create_workspace("Acme")
    dana = mw.tenancy.create_user(ws.id, "Dana", "operator")
    for name in ("Paris Hilton", "April Jones", "Chelsea Brown"):
        mw.tenancy.create_contact(ws.id, name)
    if code is None:
        assert not mw.notebook.add(ws.id, dana.id, text).duplicate
        return
    with pytest.raises(errors.Refused) as refused:
        mw.notebook.add(ws.id, dana.id, text)
    assert refused.value.code == code, text
