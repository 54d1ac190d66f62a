"""What the assistant asks of the other capabilities, as protocols (the ports of
cosmicpython's chapter on dependency inversion).

The assistant composes a turn from the window, the record, recalled notes, knowledge and
teaching, and its tools reach history and tickets; it names each of those parts by the
methods it calls, so it imports none of the capabilities that implement them (an import
contract holds the capabilities independent) and mypy checks that the parts the
composition root hands it fit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, Literal, Protocol

from memwise._domain.access import Principal
from memwise._domain.knowledge import (
    Document,
    DocumentReceipt,
    Hit,
    Lesson,
    Receipt,
    Recipe,
    Ticket,
    Unanswered,
)
from memwise._domain.memory import Recall, Remembered
from memwise._domain.record import HistoryHit, NewTurn, Turn
from memwise._domain.tenancy import Agent, Conversation
from memwise._ids import ContactId, ConversationId, WorkspaceId
from memwise._policies.window import Message, WindowView
from memwise._services.assistant.accounts import Accounts
from memwise._services.assistant.notebook import Notebook
from memwise._services.platform.audit import Audit
from memwise._services.platform.tenancy import Tenancy


class RememberPort(Protocol):
    """Remembering messages for a contact (the facade's ``remember``)."""

    def __call__(
        self,
        workspace_id: WorkspaceId,
        contact_id: ContactId | None,
        messages: Sequence[NewTurn | dict[str, Any]],
        *,
        agent_id: str | None = None,
        channel: str = "api",
        user_id: str | None = None,
        email: str | None = None,
        phone: str | None = None,
        name: str | None = None,
    ) -> Remembered: ...


class HistoryPort(Protocol):
    """What the assistant asks of history."""

    def recall(
        self,
        workspace_id: WorkspaceId,
        contact_id: ContactId,
        question: str,
        *,
        k: int = 10,
        asked_by: Literal["customer", "staff"] = "customer",
    ) -> list[HistoryHit]: ...


class KnowledgePort(Protocol):
    """What the assistant (and its builder) asks of knowledge."""

    def add_document(
        self,
        workspace_id: WorkspaceId,
        *,
        kind: str,
        title: str,
        body: str,
        version: str,
        source_url: str | None = None,
        identifiers: list[str] | None = None,
        key: str | None = None,
        actor: str = "operator",
        by: Principal | None = None,
        publish: bool | None = None,
    ) -> Document: ...
    def approve_document(
        self,
        workspace_id: WorkspaceId,
        document_id: str,
        *,
        approved_by: str,
        by: Principal | None = None,
    ) -> DocumentReceipt: ...
    def search(
        self, workspace_id: WorkspaceId, query: str, *, recipe: Recipe = "hybrid", limit: int = 5
    ) -> list[Hit]: ...
    def answers(self, workspace_id: WorkspaceId, query: str) -> Hit | None: ...
    def search_answered(
        self, workspace_id: WorkspaceId, query: str, *, recipe: Recipe = "hybrid", limit: int = 5
    ) -> tuple[list[Hit], Hit | None]: ...


class RecallerPort(Protocol):
    """What the assistant asks of recaller."""

    def recall(
        self,
        workspace_id: WorkspaceId,
        contact_id: ContactId,
        request: str,
        *,
        limit: int | None = None,
    ) -> Recall: ...


class RecordPort(Protocol):
    """What the assistant asks of record."""

    def start(
        self,
        workspace_id: WorkspaceId,
        agent_id: str,
        channel: str,
        *,
        contact_id: ContactId | None = None,
        user_id: str | None = None,
        account_ref: str | None = None,
        excluded_from_memory: bool = False,
        thread: str | None = None,
        at: datetime | None = None,
        live: bool = False,
    ) -> tuple[Conversation, str]: ...
    def get(self, workspace_id: WorkspaceId, conversation_id: ConversationId) -> Conversation: ...
    def append(
        self,
        workspace_id: WorkspaceId,
        conversation_id: ConversationId,
        role: str,
        text: str,
        at: datetime | None = None,
        *,
        by: Principal | None = None,
    ) -> Turn: ...
    def end(self, workspace_id: WorkspaceId, conversation_id: ConversationId) -> Conversation: ...


class TeachingPort(Protocol):
    """What the assistant (and its builder) asks of teaching."""

    def draft(
        self,
        workspace_id: WorkspaceId,
        question: str,
        answer: str,
        *,
        unanswered_id: str | None = None,
        actor: str = "operator",
        revises: str | None = None,
    ) -> Lesson: ...
    def approve(
        self,
        workspace_id: WorkspaceId,
        lesson_id: str,
        *,
        approved_by: str,
        by: Principal | None = None,
    ) -> Receipt: ...
    def lesson(self, workspace_id: WorkspaceId, lesson_id: str) -> Lesson: ...
    def record_unanswered(
        self,
        workspace_id: WorkspaceId,
        question: str,
        *,
        conversation_id: ConversationId | None = None,
        contact_id: ContactId | None = None,
    ) -> tuple[Unanswered, bool]: ...


class TicketsPort(Protocol):
    """What the assistant asks of tickets."""

    def open(
        self,
        workspace_id: WorkspaceId,
        *,
        subject: str,
        body: str,
        contact_id: ContactId | None = None,
        conversation_id: ConversationId | None = None,
        unanswered_id: str | None = None,
        actor: str = "assistant",
    ) -> Ticket: ...


class WindowsPort(Protocol):
    """What the assistant asks of windows."""

    def view(
        self,
        workspace_id: WorkspaceId,
        conversation_id: ConversationId,
        client_messages: Iterable[Message] | None = None,
        *,
        known: tuple[Any, Agent] | None = None,
    ) -> WindowView: ...
    def reset(self, workspace_id: WorkspaceId, conversation_id: ConversationId) -> None: ...
    def set_pending(
        self,
        workspace_id: WorkspaceId,
        conversation_id: ConversationId,
        pending: dict[str, Any] | None,
    ) -> None: ...
    def pending(
        self, workspace_id: WorkspaceId, conversation_id: ConversationId
    ) -> dict[str, Any] | None: ...


class ToolParts(Protocol):
    """The parts a tool call reaches (the facade is one)."""

    @property
    def tenancy(self) -> Tenancy: ...
    @property
    def audit(self) -> Audit: ...
    @property
    def notebook(self) -> Notebook: ...
    @property
    def accounts(self) -> Accounts: ...
    @property
    def record(self) -> RecordPort: ...
    @property
    def history(self) -> HistoryPort: ...
    @property
    def recaller(self) -> RecallerPort: ...
    @property
    def knowledge(self) -> KnowledgePort: ...
    @property
    def tickets(self) -> TicketsPort: ...
    @property
    def remember(self) -> RememberPort: ...
