"""Extractors backed by a model: any OpenAI-compatible endpoint, or Anthropic.

Both send the same versioned prompt and read the same schema through the configured
``ChatModel`` (``memwise._providers.chat``); the harness then verifies every quote exactly as
for the offline extractor.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memwise._extraction import prompts
from memwise._extraction.pack import Pack
from memwise._extraction.types import Existing, Extraction, Line
from memwise._providers.chat import AnthropicChat, ChatModel, OpenAIChat


class ModelExtractor:
    """The extraction prompt, asked of any chat model for a JSON answer to its schema."""

    prompt_version = prompts.PROMPT_VERSION

    def __init__(self, chat: ChatModel) -> None:
        self.chat = chat
        self.name = chat.name

    @property
    def mode(self) -> str:
        """How the last answer was asked for: json_schema, json_object or prompt (OpenAI-
        compatible servers), tool (Anthropic)."""
        return str(getattr(self.chat, "mode", "tool"))

    def extract(
        self, transcript: Sequence[Line], existing: Sequence[Existing], pack: Pack
    ) -> Extraction:
        system, user = prompts.system_prompt(pack), prompts.user_prompt(transcript, existing)
        raw, tokens = self.chat.structured(system, user, prompts.SCHEMA, "record_memory")
        try:
            extraction = prompts.parse(raw or "")
        except prompts.MalformedOutput as exc:  # one repair: say what was wrong, ask again
            again = (
                f"{user}\n\nYour previous answer could not be read ({exc.message[:300]}). "
                "Answer again with only the JSON object the schema asks for."
            )
            raw, more = self.chat.structured(system, again, prompts.SCHEMA, "record_memory")
            extraction = prompts.parse(raw or "")  # a second failure: the job retries later
            tokens = (tokens or 0) + (more or 0)
        return Extraction(
            extraction.items,
            extraction.events,
            extraction.summary,
            {"tokens": tokens, "mode": self.mode},
            malformed=extraction.malformed,
        )


class OpenAIExtractor(ModelExtractor):
    """Any OpenAI-compatible chat model (OpenAI, vLLM, Ollama, llama.cpp …) via ``openai``."""

    def __init__(self, model: str, **options: Any) -> None:
        super().__init__(OpenAIChat(model, **options))


class AnthropicExtractor(ModelExtractor):
    """Anthropic models via the official ``anthropic`` SDK, with a forced tool for the schema."""

    def __init__(self, model: str, **options: Any) -> None:
        super().__init__(AnthropicChat(model, **options))
