"""Extractors backed by a model: any OpenAI-compatible endpoint, or Anthropic.

Both send the same versioned prompt and read the same schema; the harness then verifies
every quote exactly as for the offline extractor. The SDKs are optional extras
(``memwise[openai]``, ``memwise[anthropic]``) and are imported only when used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memwise.extraction import prompts
from memwise.extraction.pack import Pack
from memwise.extraction.types import Existing, Extraction, Line
from memwise.sdk import sdk_client


class OpenAIExtractor:
    """Any OpenAI-compatible chat model (OpenAI, vLLM, Ollama, llama.cpp …) via ``openai``."""

    prompt_version = prompts.PROMPT_VERSION

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        client: Any = None,
    ) -> None:
        self.client = client or sdk_client(
            "openai", base_url, api_key, timeout=timeout, max_retries=max_retries
        )
        self.model = model
        self.name = f"openai:{model}"

    def extract(
        self, transcript: Sequence[Line], existing: Sequence[Existing], pack: Pack
    ) -> Extraction:
        response = self.client.chat.completions.create(
            model=self.model,
            messages=[
                {"role": "system", "content": prompts.system_prompt(pack)},
                {"role": "user", "content": prompts.user_prompt(transcript, existing)},
            ],
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "extraction", "schema": prompts.SCHEMA, "strict": True},
            },
            temperature=0,
        )
        content = response.choices[0].message.content if response.choices else None
        if not content:
            raise prompts.MalformedOutput("the model returned no content")
        extraction = prompts.parse(content)
        usage = getattr(response, "usage", None)
        return Extraction(
            extraction.items,
            extraction.events,
            extraction.continuity,
            {"tokens": getattr(usage, "total_tokens", None)},
        )


class AnthropicExtractor:
    """Anthropic models via the official ``anthropic`` SDK, with a forced tool for the schema."""

    prompt_version = prompts.PROMPT_VERSION

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        client: Any = None,
        max_tokens: int = 4096,
    ) -> None:
        self.client = client or sdk_client(
            "anthropic", base_url, api_key, timeout=timeout, max_retries=max_retries
        )
        self.model = model
        self.max_tokens = max_tokens
        self.name = f"anthropic:{model}"

    def extract(
        self, transcript: Sequence[Line], existing: Sequence[Existing], pack: Pack
    ) -> Extraction:
        response = self.client.messages.create(
            model=self.model,
            max_tokens=self.max_tokens,
            system=prompts.system_prompt(pack),
            messages=[{"role": "user", "content": prompts.user_prompt(transcript, existing)}],
            tools=[
                {
                    "name": "record_memory",
                    "description": "Record the extracted memory.",
                    "input_schema": prompts.SCHEMA,
                }
            ],
            tool_choice={"type": "tool", "name": "record_memory"},
        )
        for block in response.content:
            if getattr(block, "type", None) == "tool_use":
                return prompts.parse(block.input)
        raise prompts.MalformedOutput("the model did not call the record_memory tool")
