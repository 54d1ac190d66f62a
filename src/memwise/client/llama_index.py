"""memwise in LlamaIndex: a memory block that brings one customer's memory into an agent's
``Memory`` and hands the messages it flushes to memwise (``pip install 'memwise[llamaindex]'``).

    from llama_index.core.memory import Memory
    from memwise.client import Client
    from memwise.client.llama_index import MemwiseMemoryBlock

    block = MemwiseMemoryBlock(client=Client(url, api_key), external_id="crm-42")
    memory = Memory.from_defaults(session_id="crm-42", memory_blocks=[block])

Reading (``aget``) asks memwise what it recalls about the customer for the latest user
message: quote-backed, dated lines with their trust, never instructions. Writing (``aput``,
the messages short-term memory lets go) records them as one memwise conversation and
extracts it now, under the same harness and write boundary as every other door.
"""

from __future__ import annotations

import asyncio
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.bridge.pydantic import Field
from llama_index.core.memory import BaseMemoryBlock

from memwise.client.adapting import contact_of, message_text

__all__ = ["MemwiseMemoryBlock"]

_ROLES = {MessageRole.USER: "customer", MessageRole.ASSISTANT: "assistant"}


def _latest_question(messages: list[ChatMessage] | None) -> str:
    for message in reversed(messages or []):
        if message.role == MessageRole.USER:
            text = message_text(message.blocks or message.content).strip()
            if text:
                return text
    return ""


class MemwiseMemoryBlock(BaseMemoryBlock[str]):
    """One customer's memwise memory as a LlamaIndex memory block.

    The customer is ``contact_id`` or your own ``external_id`` for them (made on the first
    write). ``client`` is a :class:`memwise.client.Client`; its calls run off the event loop.
    With no user message yet, the block asks for what memwise knows about the customer."""

    name: str = Field(default="customer_memory", description="The name of the memory block.")
    description: str | None = Field(
        default="What memwise remembers about this customer, with dates and trust.",
        description="A description of the memory block.",
    )
    client: Any = Field(description="A memwise.client.Client.")
    contact_id: str | None = Field(default=None, description="memwise's id for the customer.")
    external_id: str | None = Field(default=None, description="Your own id for the customer.")
    limit: int = Field(default=10, description="At most this many lines of recall.")
    agent_id: str | None = Field(default=None, description="The agent; the default one if not.")

    async def _aget(self, messages: list[ChatMessage] | None = None, **_: Any) -> str:
        return await asyncio.to_thread(self._read, _latest_question(messages))

    async def _aput(self, messages: list[ChatMessage]) -> None:
        turns = [
            {"role": _ROLES[message.role], "text": text}
            for message in messages
            if message.role in _ROLES and (text := message_text(message.blocks).strip())
        ]
        if turns:
            await asyncio.to_thread(self._write, turns)

    def _read(self, question: str) -> str:
        contact = contact_of(self.client, self.contact_id, self.external_id)
        if contact is None:
            return ""
        recall = self.client.recall(
            contact, question or "what do we know about this customer?", limit=self.limit
        )
        lines = [*recall.profile, *recall.notes]
        return "\n".join(
            f"- {line.text}" + (f" ({line.trust})" if line.trust else "") for line in lines
        )

    def _write(self, turns: list[dict[str, str]]) -> None:
        done = self.client.remember(
            self.contact_id,
            turns,
            user_id=None if self.contact_id else self.external_id,
            agent_id=self.agent_id,
        )
        if self.contact_id is None and done.contact_id:
            self.contact_id = done.contact_id
