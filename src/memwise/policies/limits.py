"""Every configurable limit, in one place (DESIGN.md section 6)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class WebWindow(BaseModel):
    max_messages: int = Field(20, ge=1, le=1000)
    idle_minutes: float = Field(30, gt=0)


class TelegramWindow(BaseModel):
    idle_minutes: float = Field(30, gt=0)
    earlier_messages: int = Field(8, ge=0, le=200)
    late_message_minutes: float = Field(10, gt=0)


class GenericWindow(BaseModel):
    verbatim_turns: int = Field(12, ge=1, le=1000)
    summary_chars: int = Field(1500, ge=100, le=20000)
    idle_minutes: float = Field(60 * 24, gt=0)


class NotebookLimits(BaseModel):
    max_entries: int = Field(80, ge=1)
    max_entry_chars: int = Field(400, ge=1)
    block_chars: int = Field(3000, ge=100)


class MemoryLimits(BaseModel):
    task_stale_days: float = Field(30, gt=0)
    recall_items: int = Field(5, ge=0, le=100)
    profile_items: int = Field(8, ge=0, le=100)
    past_event_weight: float = Field(0.25, ge=0, le=1)
    min_similarity: float = Field(0.5, ge=-1, le=1)  # hybrid recall, with an embedder


class PatternLimits(BaseModel):
    shown_at: int = Field(3, ge=1)
    promoted_at: int = Field(3, ge=1)
    promoted_conversations: int = Field(2, ge=1)


class KnowledgeLimits(BaseModel):
    chunk_chars: int = Field(800, ge=100, le=10000)
    min_coverage: float = Field(0.6, ge=0, le=1)  # share of the question's words a passage holds
    min_similarity: float = Field(0.55, ge=-1, le=1)  # cosine, when an embedder is configured
    candidates: int = Field(50, ge=1, le=1000)


class ContextBudgets(BaseModel):
    """Characters per section of a turn's context, and in all."""

    rules: int = Field(3000, ge=200)
    notebook: int = Field(3200, ge=0)
    profile: int = Field(1500, ge=0)
    notes: int = Field(2000, ge=0)
    knowledge: int = Field(3500, ge=0)
    window: int = Field(8000, ge=0)
    total: int = Field(20000, ge=1000)


class Limits(BaseModel):
    web: WebWindow = Field(default_factory=WebWindow)
    telegram: TelegramWindow = Field(default_factory=TelegramWindow)
    generic: GenericWindow = Field(default_factory=GenericWindow)
    notebook: NotebookLimits = Field(default_factory=NotebookLimits)
    memory: MemoryLimits = Field(default_factory=MemoryLimits)
    patterns: PatternLimits = Field(default_factory=PatternLimits)
    knowledge: KnowledgeLimits = Field(default_factory=KnowledgeLimits)
    context: ContextBudgets = Field(default_factory=ContextBudgets)
