"""History recall over a contact's record: scoped to the contact, fresh as the record grows."""

from __future__ import annotations

from datetime import UTC, datetime

from memwise import FixedClock, Memwise
from tests.integration.conftest import ADMIN, Api


def test_recall_finds_earlier_turns_of_this_contact_only(mw_sqlite: Memwise) -> None:
    mw = mw_sqlite
    ws, _ = mw.tenancy.create_workspace("Shop", "UTC", "business")
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    ann = mw.tenancy.create_contact(ws.id, "Ann Lee")
    bob = mw.tenancy.create_contact(ws.id, "Bob Stone")
    old, _ = mw.record.start(ws.id, agent.id, "web", contact_id=ann.id)
    mw.record.append(
        ws.id, old.id, "customer", "The frame of my Trek bike cracked near the saddle."
    )
    mw.record.append(ws.id, old.id, "assistant", "Sorry to hear that, we can check the warranty.")
    other, _ = mw.record.start(ws.id, agent.id, "web", contact_id=bob.id)
    mw.record.append(ws.id, other.id, "customer", "My Trek frame is perfect, thanks.")

    hits = mw.history.recall(ws.id, ann.id, "which bike had the cracked frame?")
    assert [h.conversation_id for h in hits] == [old.id] * len(hits)
    assert hits[0].speaker == "Ann Lee" and "cracked" in hits[0].text

    assert mw.history.recall(ws.id, ann.id, "helmet size") == []  # unknown stays unknown
    assert (ws.id, ann.id) in mw.history._cache
    later, _ = mw.record.start(ws.id, agent.id, "web", contact_id=ann.id)
    mw.record.append(ws.id, later.id, "customer", "My helmet size is M.")
    assert mw.history.recall(ws.id, ann.id, "helmet size")[0].conversation_id == later.id


def test_the_route_is_scoped_to_the_workspace(api: Api) -> None:
    _, key = api.workspace()
    h = {"Authorization": f"Bearer {key}"}
    agent = api.client.post("/v1/agents", json={"name": "Eve"}, headers=h).json()["id"]
    ann = api.client.post("/v1/contacts", json={"name": "Ann"}, headers=h).json()["id"]
    conv = api.client.post(
        "/v1/conversations",
        json={"agent_id": agent, "channel": "web", "contact_id": ann},
        headers=h,
    ).json()["id"]
    api.client.post(
        f"/v1/conversations/{conv}/turns",
        json={"role": "customer", "text": "We keep the boat at Lake Garda."},
        headers=h,
    )
    r = api.client.get(f"/v1/contacts/{ann}/history", params={"q": "where is the boat?"}, headers=h)
    assert r.status_code == 200
    (hit,) = r.json()["items"]
    assert "Lake Garda" in hit["text"] and hit["role"] == "customer" and hit["score"] > 0
    _, other = api.workspace("Other")
    r = api.client.get(
        f"/v1/contacts/{ann}/history",
        params={"q": "boat"},
        headers={"Authorization": f"Bearer {other}"},
    )
    assert r.status_code == 404
    r = api.client.get(f"/v1/contacts/{ann}/history", params={"q": ""}, headers=h)
    assert r.status_code == 422
    # the admin token reaches no contact at all
    r = api.client.get(
        f"/v1/contacts/{ann}/history",
        params={"q": "boat"},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    assert r.status_code == 404


def test_a_deleted_contact_leaves_nothing_in_the_index(mw_sqlite: Memwise) -> None:
    mw = mw_sqlite
    ws, _ = mw.tenancy.create_workspace("Shop", "UTC", "business")
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    ann = mw.tenancy.create_contact(ws.id, "Ann Lee")
    conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=ann.id)
    mw.record.append(ws.id, conv.id, "customer", "My locker code is in the blue notebook.")
    assert mw.history.recall(ws.id, ann.id, "locker code")
    mw.data_requests.delete(ws.id, ann.id, actor="key:owner")
    assert (ws.id, ann.id) not in mw.history._cache


def test_a_named_month_is_read_on_the_workspaces_calendar(
    mw_sqlite: Memwise, clock: FixedClock
) -> None:
    """Asked at 05:00 UTC on 1 March 2026: still 28 February in Pago Pago (UTC−11), whose
    latest March is 2025's; already March in Berlin."""
    mw = mw_sqlite
    firsts = {}
    for zone in ("Pacific/Pago_Pago", "Europe/Berlin"):
        ws, _ = mw.tenancy.create_workspace(f"Shop {zone}", zone, "business")
        agent = mw.tenancy.create_agent(ws.id, "Eve")
        ann = mw.tenancy.create_contact(ws.id, "Ann Lee")
        for at, desk in (
            (datetime(2025, 3, 15, tzinfo=UTC), "walnut"),
            (datetime(2026, 2, 28, 3, tzinfo=UTC), "oak"),
        ):
            clock.set(at)
            conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=ann.id)
            mw.record.append(ws.id, conv.id, "customer", f"I ordered the {desk} desk.")
        clock.set(datetime(2026, 3, 1, 5, tzinfo=UTC))
        hits = mw.history.recall(ws.id, ann.id, "Which desk did I order in March?")
        firsts[zone] = hits[0].text
    assert "walnut" in firsts["Pacific/Pago_Pago"]  # March 2025
    assert "oak" in firsts["Europe/Berlin"]  # March 2026, widened by two days
