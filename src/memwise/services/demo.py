"""Load the sample business into a workspace (used by ``memwise demo``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from memwise import samples
from memwise.services.facade import Memwise
from memwise.services.record import NewTurn


@dataclass
class DemoWorkspace:
    workspace_id: str
    api_key: str
    agent_id: str
    contact_ids: list[str] = field(default_factory=list)
    conversation_ids: list[str] = field(default_factory=list)


def load(mw: Memwise) -> DemoWorkspace:
    data = samples.conversations()
    ws, key = mw.tenancy.create_workspace(**data["workspace"])
    agent = mw.tenancy.create_agent(ws.id, **data["agent"])
    for person in data["staff"]:
        mw.tenancy.create_user(ws.id, **person)
    demo = DemoWorkspace(ws.id, key, agent.id)
    for person in data["contacts"]:
        convs = person.pop("conversations")
        contact = mw.tenancy.create_contact(ws.id, **person)
        demo.contact_ids.append(contact.id)
        for c in convs:
            turns = [
                NewTurn(role, text, datetime.fromisoformat(at)) for role, at, text in c["turns"]
            ]
            conv, _ = mw.record.start(
                ws.id, agent.id, c["channel"], contact_id=contact.id, at=turns[0].at
            )
            mw.record.append_many(ws.id, conv.id, turns)
            demo.conversation_ids.append(conv.id)
    return demo
