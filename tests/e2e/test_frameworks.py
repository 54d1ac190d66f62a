"""The LangChain and LlamaIndex adapters, with the real libraries, against a real server."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.runnables.history import RunnableWithMessageHistory
from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.memory import Memory

from memwise.client import Client
from memwise.client.langchain import MemwiseChatMessageHistory, MemwiseRetriever
from memwise.client.llama_index import MemwiseMemoryBlock
from tests.e2e.conftest import ADMIN, Server


def _workspace(server: Server) -> Client:
    with Client(server.url, ADMIN) as admin:
        key = admin.create_workspace("Harbour Cycles").api_key
    assert key
    return Client(server.url, key)


def test_langchain_history_is_a_memwise_conversation(server: Server) -> None:
    with _workspace(server) as mw:
        history = MemwiseChatMessageHistory(mw, external_id="crm-1")
        assert history.messages == []
        history.add_messages(
            [
                SystemMessage(content="You are the front desk."),  # not a turn: not kept
                HumanMessage(content="I'm vegetarian and I prefer email, please."),
                AIMessage(content="Noted, we'll write by email."),
            ]
        )
        assert [(type(m), m.content) for m in history.messages] == [
            (HumanMessage, "I'm vegetarian and I prefer email, please."),
            (AIMessage, "Noted, we'll write by email."),
        ]
        conversation = history.conversation_id
        assert conversation is not None
        contact = mw.find_contacts(external_id="crm-1").items[0].id
        assert mw.get_conversation(conversation).contact_id == contact

        history.clear()  # ends it: memwise extracts; the record keeps the turns
        assert history.messages == [] and history.conversation_id is None
        assert mw.get_conversation(conversation).status == "ended"
        assert len(mw.turns(conversation).items) == 2
        mw.run_jobs()
        texts = {item.text for item in mw.memories(contact).items}
        assert "Prefers to be contacted by email" in texts


def test_langchain_retriever_recalls_one_customer(server: Server) -> None:
    with _workspace(server) as mw:
        mw.remember(
            messages=[{"role": "user", "text": "I'm vegetarian and I prefer email."}],
            user_id="crm-2",
        )
        mw.remember(
            messages=[{"role": "user", "text": "I'm allergic to peanuts."}], user_id="crm-3"
        )
        retriever = MemwiseRetriever(client=mw, external_id="crm-2", k=5)
        docs = retriever.invoke("how should we contact them?")
        assert any("email" in d.page_content for d in docs), docs
        assert not any("peanut" in d.page_content for d in docs)  # another customer's
        first = next(d for d in docs if "email" in d.page_content)
        assert first.metadata["source"] == "memwise.memory"
        assert first.metadata["trust"] and first.metadata["ids"]
        assert MemwiseRetriever(client=mw, external_id="nobody").invoke("email?") == []
        with_record = MemwiseRetriever(client=mw, external_id="crm-2", record=True)
        sources = {d.metadata["source"] for d in with_record.invoke("vegetarian email")}
        assert sources == {"memwise.memory", "memwise.record"}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # LangChain steers to LangGraph
def test_langchain_chain_with_memwise_history(server: Server) -> None:
    """A chain with RunnableWithMessageHistory: each exchange lands in memwise's record."""
    with _workspace(server) as mw:
        prompt = ChatPromptTemplate.from_messages(
            [("system", "You help a bike shop."), MessagesPlaceholder("history"), ("human", "{q}")]
        )
        model = FakeListChatModel(responses=["Happy to help.", "Saturday works."])
        sessions: dict[str, MemwiseChatMessageHistory] = {}

        def session(session_id: str) -> MemwiseChatMessageHistory:
            return sessions.setdefault(
                session_id, MemwiseChatMessageHistory(mw, external_id=session_id)
            )

        chain = RunnableWithMessageHistory(
            prompt | model, session, input_messages_key="q", history_messages_key="history"
        )
        config = {"configurable": {"session_id": "crm-5"}}
        chain.invoke({"q": "Hi, my bike needs a service."}, config=config)  # type: ignore[arg-type]
        chain.invoke({"q": "Is Saturday free?"}, config=config)  # type: ignore[arg-type]
        conversation = sessions["crm-5"].conversation_id
        assert conversation is not None
        turns = [(t.role, t.text) for t in mw.turns(conversation).items]
        assert turns == [
            ("customer", "Hi, my bike needs a service."),
            ("assistant", "Happy to help."),
            ("customer", "Is Saturday free?"),
            ("assistant", "Saturday works."),
        ]


def test_llama_index_memory_block(server: Server) -> None:
    with _workspace(server) as mw:
        block = MemwiseMemoryBlock(client=mw, external_id="crm-7")
        asked = [ChatMessage(role=MessageRole.USER, content="How do we reach them?")]
        assert asyncio.run(block.aget(asked)) == ""  # not known yet: nothing, no contact made
        assert mw.find_contacts(external_id="crm-7").items == []

        flushed = [
            ChatMessage(role=MessageRole.SYSTEM, content="You help a bike shop."),
            ChatMessage(role=MessageRole.USER, content="I'm vegetarian and I prefer email."),
            ChatMessage(role=MessageRole.ASSISTANT, content="Noted."),
        ]
        asyncio.run(block.aput(flushed))
        contact = mw.find_contacts(external_id="crm-7").items[0].id
        assert block.contact_id == contact
        roles = [t.role for c in mw.conversations(contact).items for t in mw.turns(c.id).items]
        assert roles == ["customer", "assistant"]  # the system prompt is not a turn
        text = asyncio.run(block.aget(asked))
        assert "Prefers to be contacted by email" in text and "(verified)" in text


def test_llama_index_memory_flushes_into_memwise(server: Server) -> None:
    """Inside LlamaIndex's Memory: what short-term memory lets go reaches memwise, and the
    block's recall comes back in the system message."""
    with _workspace(server) as mw:
        block = MemwiseMemoryBlock(client=mw, external_id="crm-8")
        memory = Memory.from_defaults(
            session_id="crm-8",
            memory_blocks=[block],
            token_limit=40,
            token_flush_size=20,
            chat_history_token_ratio=0.5,
            tokenizer_fn=str.split,  # offline: no tokenizer download
        )

        async def talk() -> list[ChatMessage]:
            await memory.aput_messages(
                [
                    ChatMessage(role=MessageRole.USER, content="I live in Leeds now."),
                    ChatMessage(role=MessageRole.ASSISTANT, content="Thanks, noted for you."),
                    ChatMessage(role=MessageRole.USER, content=" ".join(["and"] * 30)),
                ]
            )
            return await memory.aget()

        messages = asyncio.run(talk())
        contact = mw.find_contacts(external_id="crm-8").items[0].id
        assert any("Leeds" in item.text for item in mw.memories(contact).items)
        system = messages[0]
        assert system.role == MessageRole.SYSTEM and "Leeds" in (system.content or "")
