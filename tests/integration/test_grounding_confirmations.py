"""A model's items are held to what the customer said: a booking the customer confirms by its
date alone ("Thursday the 19th at 8:15 is perfect") takes the thing booked from the offer it
answers; nothing else does — not a diagnosis in the assistant's offer, not a number the
customer did not say, not a detail they did not say, not another verb for what they said (an
antonym reads as close as a synonym: "Safe with penicillin" for "I am allergic to
penicillin"), not a fact or a want a question only asks about. Every proposal not kept is
named in the extraction result and on the console's conversation page, with why, its
secrets masked."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from memwise import FixedClock, Memwise
from memwise._extraction.types import Proposal
from memwise.testing import ScriptedExtractor
from tests.integration.conftest import Api
from tests.integration.test_console import business, logged_in

TURNS = [
    ("customer", "Hi, I have transferred to Pune for work. I have a dog, by the way."),
    ("assistant", "We have a cleaning on Thursday the 19th at 8:15 or Friday the 20th at 9."),
    ("customer", "Thursday the 19th at 8:15 is perfect."),
    ("customer", "could ye text me from now on rather than ringing? Can I bring my dog?"),
    ("customer", "My card is 4111 1111 1111 1111 if you need it. I am allergic to penicillin."),
    ("assistant", "Your scan shows a tumour. Follow-up Monday the 23rd at 10:30?"),
    ("customer", "Monday the 23rd at 10:30 is fine."),
]

KEPT = {
    "Cleaning appointment Thursday 19th at 8:15": ("event", "Thursday the 19th at 8:15 is perfect"),
    "Has a dog": ("fact", "I have a dog"),
    "Follow-up Monday 23rd at 10:30": ("event", "Monday the 23rd at 10:30 is fine"),
}
REFUSED = {
    "Has a golden retriever": ("fact", "I have a dog"),  # a detail never said
    "Root canal Thursday 19th at 8:15": ("event", "Thursday the 19th at 8:15 is perfect"),
    "Cleaning on Friday 20th at 9": ("event", "Thursday the 19th at 8:15 is perfect"),
    "Has a tumour, follow-up Monday 23rd at 10:30": ("fact", "Monday the 23rd at 10:30 is fine"),
    "Is 15 years old": ("fact", "Thursday the 19th at 8:15 is perfect"),
    "Relocated to Pune for work": ("fact", "I have transferred to Pune for work"),
    "Safe with penicillin": ("fact", "I am allergic to penicillin"),
    "Prefers texts to phone calls": ("preference", "could ye text me from now on rather than"),
    "Wants to bring dog; has a dog": ("fact", "Can I bring my dog?"),  # a question, not a fact
    "Card 4111 1111 1111 1111 on file": ("fact", "My card is 4111 1111 1111 1111"),
}


def _extract(mw: Memwise, ws_id: str) -> tuple[str, str, dict[str, Any]]:
    agent = mw.tenancy.create_agent(ws_id, "Desk", memory_enabled=True, domain="general")
    ann = mw.tenancy.create_contact(ws_id, "Ann")
    conv, _ = mw.record.start(ws_id, agent.id, "web", contact_id=ann.id)
    for role, text in TURNS:
        mw.record.append(ws_id, conv.id, role, text)
    mw.record.end(ws_id, conv.id)
    mw.extraction.extractor = ScriptedExtractor(
        [Proposal(kind, text, [quote]) for text, (kind, quote) in {**KEPT, **REFUSED}.items()]
    )
    mw.worker().run_once()
    job = mw.jobs.by_key(ws_id, f"extract:{conv.id}")
    assert job is not None and job.result is not None
    return ann.id, conv.id, job.result


def test_items_said_in_other_words_are_kept_and_details_never_said_are_not() -> None:
    mw = Memwise.open("sqlite:///:memory:", clock=FixedClock(datetime(2026, 3, 2, 10, tzinfo=UTC)))
    try:
        ws, _ = mw.tenancy.create_workspace("Clinic", "Europe/London", "business")
        ann, _, result = _extract(mw, ws.id)
        texts = {s.item.text for s in mw.memory.items(ws.id, ann)}
        assert texts >= set(KEPT), texts
        assert not texts & set(REFUSED), texts
        why = {x["text"]: x["why"] for x in result["refusals"]}
        for text in REFUSED:
            if "4111" not in text:
                assert why[text] == "not_grounded", (text, why)
        masked = [t for t in why if "[card]" in t]  # named, its secret masked
        assert masked and not any("4111" in t for t in why), why
        assert len(result["refusals"]) == len(REFUSED)
    finally:
        mw.close()


def test_the_console_lists_what_was_refused_and_why(api: Api) -> None:
    ws, key, mw = business(api)
    _, conv, _ = _extract(mw, ws)
    page = logged_in(api, key).get(f"/console/conversations/{conv}")
    assert page.status_code == 200
    assert "Has a golden retriever" in page.text and "not_grounded" in page.text
    assert "4111" not in page.text.split("What memory took from it")[1]
