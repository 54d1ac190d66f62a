"""Extractors backed by a model: any OpenAI-compatible endpoint, or Anthropic.

Both send the same versioned prompt and read the same schema through the configured
``ChatModel`` (``memwise.providers.chat``); the harness then verifies every quote exactly as
for the offline extractor.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memwise.extraction import prompts
from memwise.extraction.pack import Pack
from memwise.extraction.types import Existing, Extraction, Line
from memwise.providers.chat import AnthropicChat, ChatModel, OpenAIChat


class ModelExtractor:
    """The extraction prompt, asked of any chat model for a JSON answer to its schema."""

    prompt_version = prompts.PROMPT_VERSION

    def __init__(self, chat: ChatModel) -> None:
        self.chat = chat
        self.name = chat.name

    def extract(
        self, transcript: Sequence[Line], existing: Sequence[Existing], pack: Pack
    ) -> Extraction:
        raw, tokens = self.chat.structured(
            prompts.system_prompt(pack),
            prompts.user_prompt(transcript, existing),
            prompts.SCHEMA,
            "record_memory",
        )
        if not raw:
            raise prompts.MalformedOutput("the model returned no content")
        extraction = prompts.parse(raw)
        return Extraction(
            extraction.items, extraction.events, extraction.continuity, {"tokens": tokens}
        )


class OpenAIExtractor(ModelExtractor):
    """Any OpenAI-compatible chat model (OpenAI, vLLM, Ollama, llama.cpp …) via ``openai``."""

    def __init__(self, model: str, **options: Any) -> None:
        super().__init__(OpenAIChat(model, **options))


class AnthropicExtractor(ModelExtractor):
    """Anthropic models via the official ``anthropic`` SDK, with a forced tool for the schema."""

    def __init__(self, model: str, **options: Any) -> None:
        super().__init__(AnthropicChat(model, **options))
