"""memwise in LangChain: a chat message history kept in memwise's record, and a retriever
over one customer's memory (``pip install 'memwise[langchain]'``).

    from memwise.client import Client
    from memwise.client.langchain import MemwiseChatMessageHistory, MemwiseRetriever

    mw = Client("http://127.0.0.1:8080", api_key)
    history = MemwiseChatMessageHistory(mw, external_id="crm-42")
    retriever = MemwiseRetriever(client=mw, external_id="crm-42")

The history's messages are the turns of one memwise conversation; ``clear()`` ends it, so
memwise extracts the customer's memory from it (the record keeps every turn), and the next
message starts a new conversation. The retriever returns what memwise would show the
assistant about that customer for a query: quote-backed, dated, with trust — never an
instruction. Both speak the HTTP API through :class:`memwise.client.Client`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.documents import Document
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.retrievers import BaseRetriever

from memwise.client import Client
from memwise.client.adapting import contact_of, message_text, record_lines

__all__ = ["MemwiseChatMessageHistory", "MemwiseRetriever"]

_ROLES = {"customer", "user", "assistant", "operator", "tool"}


def _role(message: BaseMessage) -> str | None:
    """memwise's turn role for a LangChain message; None for a system prompt, which is the
    application's instruction to its model, not a turn of the conversation."""
    if isinstance(message, HumanMessage):
        return "customer"
    if isinstance(message, AIMessage):
        return "assistant"
    if isinstance(message, ToolMessage):
        return "tool"
    if isinstance(message, SystemMessage):
        return None
    if isinstance(message, ChatMessage) and message.role in _ROLES:
        return message.role
    raise ValueError(f"a {type(message).__name__} has no turn role in memwise")


def _message(role: str, text: str) -> BaseMessage:
    if role in ("customer", "user"):
        return HumanMessage(content=text)
    if role == "assistant":
        return AIMessage(content=text)
    return ChatMessage(role=role, content=text)


class MemwiseChatMessageHistory(BaseChatMessageHistory):
    """One customer's conversation in memwise's record, as LangChain chat history.

    The customer is ``contact_id`` or your own ``external_id`` for them (found or made);
    ``agent_id`` defaults to the workspace's default agent. Give ``conversation_id`` to go on
    with a conversation already open."""

    def __init__(
        self,
        client: Client,
        *,
        contact_id: str | None = None,
        external_id: str | None = None,
        agent_id: str | None = None,
        channel: str = "api",
        conversation_id: str | None = None,
    ) -> None:
        if (contact_id is None) == (external_id is None):
            raise ValueError("name the customer by one of contact_id or external_id")
        self.client = client
        self.contact_id = contact_id
        self.external_id = external_id
        self.agent_id = agent_id
        self.channel = channel
        self.conversation_id = conversation_id

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        if self.conversation_id is None:
            return []
        turns = self.client.turns(self.conversation_id).items
        return [_message(t.role, t.text) for t in turns if t.text is not None]

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        turns = [(role, message_text(m.content)) for m in messages if (role := _role(m))]
        turns = [(role, text) for role, text in turns if text.strip()]
        if not turns:
            return
        conversation = self.conversation_id
        if conversation is None:
            started = self.client.start_conversation(
                self.agent_id,
                self.channel,
                contact_id=self.contact_id,
                external_id=self.external_id,
            )
            conversation = self.conversation_id = started.id
        self.client.add_turns(conversation, turns)

    def clear(self) -> None:
        """End the conversation: memwise extracts memory from it and keeps its turns in the
        record; the next message starts a new conversation with the same customer."""
        if self.conversation_id is not None:
            self.client.end_conversation(self.conversation_id)
            self.conversation_id = None


class MemwiseRetriever(BaseRetriever):
    """What memwise recalls about one customer for a query, as LangChain documents.

    Each document is one line of recall (a profile fact or a dated note) with its ``trust``
    and memory item ``ids`` in the metadata; with ``record=True`` the customer's past turns
    that best answer the query follow (``source`` says which is which). A customer memwise
    does not know gives no documents."""

    client: Any
    contact_id: str | None = None
    external_id: str | None = None
    k: int = 10
    record: bool = False

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        contact = contact_of(self.client, self.contact_id, self.external_id)
        if contact is None or not query.strip():
            return []
        recall = self.client.recall(contact, query, limit=self.k)
        documents = [
            Document(
                page_content=line.text,
                metadata={
                    "source": "memwise.memory",
                    "part": line.part,
                    "trust": line.trust,
                    "ids": list(line.ids),
                    "contact_id": contact,
                },
            )
            for line in [*recall.profile, *recall.notes]
        ]
        if self.record:
            hits = self.client.recall_record(contact, query, limit=self.k).items
            documents += [
                Document(page_content=text, metadata={"source": "memwise.record", **meta})
                for text, meta in record_lines(hits)
            ]
        return documents
