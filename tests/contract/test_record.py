"""The record: append-only turns, policies, search — the same on every backend."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memwise import FixedClock, Memwise, errors
from memwise._services.conversation.record import NewTurn


def _setup(mw: Memwise, policy: str = "archive") -> tuple[str, str, str]:
    ws, _ = mw.tenancy.create_workspace("Acme", "Europe/Berlin")
    agent = mw.tenancy.create_agent(ws.id, "Eve", record_policy=policy)
    contact = mw.tenancy.create_contact(ws.id, "Ann", account_refs=["ACC-1"])
    return ws.id, agent.id, contact.id


def test_turns_are_appended_in_order_with_their_channel(mw: Memwise, clock: FixedClock) -> None:
    ws, agent, contact = _setup(mw)
    conv, token = mw.record.start(ws, agent, "email", contact_id=contact, account_ref="ACC-1")
    assert token.startswith("vt_") and conv.account_ref == "ACC-1"
    t1 = mw.record.append(ws, conv.id, "customer", "Where is my parcel?")
    clock.advance(minutes=1)
    t2 = mw.record.append(ws, conv.id, "assistant", "Let me check.")
    listed = mw.record.turns(ws, conv.id)
    assert [t.id for t in listed] == [t1.id, t2.id]
    assert listed[0].channel == "email" and listed[0].at.tzinfo is not None
    assert mw.record.get(ws, conv.id).last_activity_at == clock.now()
    assert mw.record.by_visitor_token(token) == mw.record.get(ws, conv.id)


def test_client_supplied_time_is_kept_for_imports(mw: Memwise) -> None:
    ws, agent, contact = _setup(mw)
    conv, _ = mw.record.start(ws, agent, "web", contact_id=contact)
    past = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    (t,) = mw.record.append_many(ws, conv.id, [NewTurn("customer", "hello", past)])
    assert t.at == past


def test_audit_only_stores_no_text(mw: Memwise) -> None:
    ws, agent, contact = _setup(mw, "audit_only")
    conv, _ = mw.record.start(ws, agent, "web", contact_id=contact)
    t = mw.record.append(ws, conv.id, "customer", "my secret plan")
    assert t.text is None
    assert mw.record.search(ws, "secret") == []


def test_batch_is_all_or_nothing(mw: Memwise) -> None:
    ws, agent, contact = _setup(mw)
    conv, _ = mw.record.start(ws, agent, "web", contact_id=contact)
    with pytest.raises(errors.Invalid):
        mw.record.append_many(
            ws, conv.id, [NewTurn("customer", "fine"), NewTurn("customer", "   ")]
        )
    assert mw.record.turns(ws, conv.id) == []


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"contact_id": None, "user_id": None}, "one_participant"),
        ({"account_ref": "ACC-999"}, "account_not_linked"),
        ({"channel": "pigeon"}, "invalid_channel"),
    ],
)
def test_bad_conversations_are_refused(mw: Memwise, kwargs: dict[str, str], code: str) -> None:
    ws, agent, contact = _setup(mw)
    args = {"channel": "web", "contact_id": contact, **kwargs}
    channel = args.pop("channel")
    with pytest.raises(errors.Invalid) as exc:
        mw.record.start(ws, agent, channel, **args)
    assert exc.value.code == code


def test_roles_must_match_the_participant(mw: Memwise) -> None:
    ws, agent, contact = _setup(mw)
    user = mw.tenancy.create_user(ws, "Bob")
    staff, _ = mw.record.start(ws, agent, "telegram", user_id=user.id)
    customer, _ = mw.record.start(ws, agent, "web", contact_id=contact)
    with pytest.raises(errors.Invalid):
        mw.record.append(ws, staff.id, "customer", "hi")
    with pytest.raises(errors.Invalid):
        mw.record.append(ws, customer.id, "user", "hi")
    with pytest.raises(errors.Invalid):
        mw.record.append(ws, customer.id, "robot", "hi")


def test_search_finds_highlighted_hits_in_one_workspace_only(mw: Memwise) -> None:
    ws, agent, contact = _setup(mw)
    other, _o, other_contact = _setup(mw)
    conv, _ = mw.record.start(ws, agent, "web", contact_id=contact)
    mw.record.append(ws, conv.id, "customer", "The <b>invoice</b> for March is wrong")
    mw.record.append(ws, conv.id, "customer", "Also the delivery was late")
    oconv, _ = mw.record.start(other, _o, "web", contact_id=other_contact)
    mw.record.append(other, oconv.id, "customer", "invoice question from elsewhere")
    hits = mw.record.search(ws, "invoices march")
    assert len(hits) == 1
    assert hits[0].conversation_id == conv.id
    assert "<mark>" in hits[0].highlight and "<b>" not in hits[0].highlight  # safe HTML
    assert mw.record.search(ws, 'NEAR("a" "b") OR * -') == []  # operators are plain words
    assert [h.conversation_id for h in mw.record.search(other, "invoice")] == [oconv.id]
    with pytest.raises(errors.Invalid):
        mw.record.search(ws, "   ")


def test_search_ranks_better_matches_first(mw: Memwise, clock: FixedClock) -> None:
    ws, agent, contact = _setup(mw)
    conv, _ = mw.record.start(ws, agent, "web", contact_id=contact)
    mw.record.append(ws, conv.id, "customer", "refund refund refund for the blender refund")
    clock.advance(seconds=timedelta(minutes=1).total_seconds())
    mw.record.append(ws, conv.id, "customer", "a long message about many things and one refund")
    hits = mw.record.search(ws, "refund")
    assert len(hits) == 2 and hits[0].score >= hits[1].score
    assert "blender" in hits[0].highlight


def test_search_within_one_conversation(mw: Memwise) -> None:
    ws, agent, contact = _setup(mw)
    a, _ = mw.record.start(ws, agent, "web", contact_id=contact)
    b, _ = mw.record.start(ws, agent, "web", contact_id=contact)
    mw.record.append(ws, a.id, "customer", "parcel lost in transit")
    mw.record.append(ws, b.id, "customer", "parcel arrived fine")
    hits = mw.record.search(ws, "parcel", conversation_id=b.id)
    assert [h.conversation_id for h in hits] == [b.id]
    assert len(mw.record.search(ws, "parcel")) == 2


def test_search_widens_slice_by_slice_and_stops_when_enough_are_found(
    mw: Memwise, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recency-bounded candidates: a common word is ranked among the newest matches of
    the first window that holds enough; a word only the oldest turn holds is still found;
    no turn is looked at twice."""
    from memwise._storage import search

    ws, agent, contact = _setup(mw)
    conv, _ = mw.record.start(ws, agent, "web", contact_id=contact)
    oldest = mw.record.append(ws, conv.id, "customer", "the zeppelin parcel was common")
    mw.record.append_many(
        ws, conv.id, [NewTurn("customer", f"common parcel note {n}") for n in range(40)]
    )
    backend = mw.rt.db.backend
    monkeypatch.setattr(backend, "first_window", lambda conn, q: 5, raising=False)
    monkeypatch.setattr(search, "ENOUGH", 8)
    slices: list[tuple[int, int]] = []
    real = type(backend).candidates

    def spy(
        self: object,
        conn: object,
        q: str,
        w: str,
        c: object,
        above: int,
        below: int,
        cap: int,
        span: object = None,
    ) -> object:
        slices.append((above, below))
        return real(backend, conn, q, w, c, above, below, cap, span)  # type: ignore[arg-type]

    monkeypatch.setattr(type(backend), "candidates", spy)
    hits = mw.record.search(ws, "common parcel", limit=5)
    assert len(hits) == 5 and oldest.id not in {h.turn_id for h in hits}
    assert len(slices) == 2  # 5 turns held too few; the next, four times wider, enough
    (a1, b1), (a2, b2) = slices
    assert b2 == a1 and b1 - a1 == 5 and b1 - a2 == 20  # each slice older than the last
    slices.clear()
    (found,) = mw.record.search(ws, "zeppelin")  # only the oldest turn: widened to the start
    assert found.turn_id == oldest.id and slices[-1][0] == 0
    seen = [s for pair in slices for s in range(pair[0] + 1, pair[1] + 1)]
    assert len(seen) == len(set(seen))
