"""Every configurable limit, in one place (docs/limits.md lists them)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

DAY = 60 * 24  # minutes


class Part(BaseModel):
    """One group of limits: unknown fields are refused, every number has a minimum and a
    maximum (docs/limits.md lists them)."""

    model_config = ConfigDict(extra="forbid")


class WebWindow(Part):
    max_messages: int = Field(20, ge=1, le=1000)
    idle_minutes: float = Field(30, ge=1, le=90 * DAY)


class TelegramWindow(Part):
    idle_minutes: float = Field(30, ge=1, le=90 * DAY)
    earlier_messages: int = Field(8, ge=0, le=200)
    late_message_minutes: float = Field(10, ge=0.1, le=DAY)


class GenericWindow(Part):
    verbatim_turns: int = Field(12, ge=1, le=1000)
    summary_chars: int = Field(1500, ge=100, le=20000)
    idle_minutes: float = Field(DAY, ge=1, le=90 * DAY)


class NotebookLimits(Part):
    max_entries: int = Field(80, ge=1, le=1000)
    max_entry_chars: int = Field(400, ge=1, le=4000)
    block_chars: int = Field(3000, ge=100, le=50_000)


class MemoryLimits(Part):
    task_stale_days: float = Field(30, ge=1, le=3650)
    recall_items: int = Field(5, ge=0, le=100)
    profile_items: int = Field(8, ge=0, le=100)
    past_event_weight: float = Field(0.25, ge=0, le=1)
    min_similarity: float = Field(0.5, ge=-1, le=1)  # hybrid recall, with an embedder
    # in-process caches of contacts' decoded items and history indexes, per process
    cache_mb: int = Field(256, ge=1, le=65_536)


class PatternLimits(Part):
    shown_at: int = Field(3, ge=1, le=1000)
    promoted_at: int = Field(3, ge=1, le=1000)
    promoted_conversations: int = Field(2, ge=1, le=1000)


class KnowledgeLimits(Part):
    chunk_chars: int = Field(800, ge=100, le=10000)
    min_coverage: float = Field(0.6, ge=0, le=1)  # share of the question's words a passage holds
    min_similarity: float = Field(0.55, ge=-1, le=1)  # cosine, when an embedder is configured
    candidates: int = Field(50, ge=1, le=1000)


class RulesLimits(Part):
    """An agent's written rules and persona, and the workspace's team standards."""

    max_rules: int = Field(40, ge=1, le=500)
    max_rule_chars: int = Field(400, ge=20, le=4000)
    persona_chars: int = Field(300, ge=20, le=4000)


class ContextBudgets(Part):
    """Characters per section of a turn's context, and in all."""

    rules: int = Field(6000, ge=200, le=100_000)
    notebook: int = Field(3200, ge=0, le=100_000)
    profile: int = Field(1500, ge=0, le=100_000)
    notes: int = Field(2000, ge=0, le=100_000)
    knowledge: int = Field(3500, ge=0, le=100_000)
    window: int = Field(8000, ge=0, le=200_000)
    total: int = Field(20000, ge=1000, le=500_000)


class ClientLimits(Part):
    """Times and replays from outside."""

    clock_skew_s: float = Field(300, ge=0, le=86_400)  # a client time further off: refused
    webhook_window_s: float = Field(300, ge=30, le=3600)  # a signed timestamp older: refused
    webhook_dedupe_hours: float = Field(24, ge=1, le=24 * 30)
    open_tickets_per_contact: int = Field(20, ge=1, le=10_000)


class Limits(BaseModel):
    web: WebWindow = Field(default_factory=WebWindow)
    telegram: TelegramWindow = Field(default_factory=TelegramWindow)
    generic: GenericWindow = Field(default_factory=GenericWindow)
    notebook: NotebookLimits = Field(default_factory=NotebookLimits)
    memory: MemoryLimits = Field(default_factory=MemoryLimits)
    patterns: PatternLimits = Field(default_factory=PatternLimits)
    knowledge: KnowledgeLimits = Field(default_factory=KnowledgeLimits)
    rules: RulesLimits = Field(default_factory=RulesLimits)
    context: ContextBudgets = Field(default_factory=ContextBudgets)
    clients: ClientLimits = Field(default_factory=ClientLimits)


def reference() -> str:
    """Every limit with its default, minimum and maximum, as a Markdown table (docs/limits.md)."""
    lines = [
        "| setting | default | minimum | maximum |",
        "|---|---|---|---|",
    ]
    for group, info in Limits.model_fields.items():
        model = info.default_factory() if info.default_factory else info.default  # type: ignore[call-arg]
        for name, field in type(model).model_fields.items():
            low = high = "—"
            for m in field.metadata:
                for attr, sign in (("ge", "≥ "), ("gt", "> ")):
                    if getattr(m, attr, None) is not None:
                        low = f"{sign}{getattr(m, attr):g}"
                for attr, sign in (("le", "≤ "), ("lt", "< ")):
                    if getattr(m, attr, None) is not None:
                        high = f"{sign}{getattr(m, attr):g}"
            env = f"MEMWISE_LIMITS__{group.upper()}__{name.upper()}"
            lines.append(f"| `{env}` | {field.default:g} | {low} | {high} |")
    return "\n".join(lines) + "\n"
