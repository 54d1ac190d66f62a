"""One chat model, three ways to ask it: tool calling, a JSON answer to a schema, plain text.

``OpenAIChat`` speaks to any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp …);
``AnthropicChat`` to Anthropic's messages API, with OpenAI-style history converted. Both are
built by ``connect`` from the settings, once per process, and shared by every part that
needs a model.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from memwise._providers.sdk import sdk_client

# A tool-calling reply: {"content": str | None, "tool_calls": [{"id", "name", "arguments"}]}
Reply = dict[str, Any]


class ChatModel(Protocol):
    """What every part that uses a model needs from it."""

    name: str  # "openai:<model>" or "anthropic:<model>"

    def __call__(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        """One round of tool calling (OpenAI-style messages and function specs)."""
        ...

    def structured(
        self, system: str, user: str, schema: dict[str, Any], name: str
    ) -> tuple[Any, int | None]:
        """A JSON answer to ``schema`` (parsed when the SDK parsed it, else the raw text),
        and the tokens used when the provider says."""
        ...

    def text(self, system: str, user: str, max_tokens: int = 1024) -> str:
        """A plain-text answer."""
        ...


class _SDKChat:
    sdk = ""

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
            self.sdk, base_url, api_key, timeout=timeout, max_retries=max_retries
        )
        self.model = model
        self.max_tokens = max_tokens
        self.name = f"{self.sdk}:{model}"


class OpenAIChat(_SDKChat):
    sdk = "openai"

    def __call__(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        options: dict[str, Any] = {}
        if tools:
            options["tools"] = [{"type": "function", "function": t} for t in tools]
        r = self.client.chat.completions.create(
            model=self.model, messages=messages, temperature=0, **options
        )
        m = r.choices[0].message
        calls = [
            {
                "id": c.id,
                "name": c.function.name,
                "arguments": json.loads(c.function.arguments or "{}"),
            }
            for c in (m.tool_calls or [])
        ]
        return {"content": m.content, "tool_calls": calls}

    # How a JSON answer is asked for, strictest first. Local servers (llama.cpp's, Ollama,
    # vLLM, LM Studio) refuse what they do not support with a 400 (llama-cpp-python's server:
    # a 500 naming ``response_format``): the next mode is tried, and
    # the one that worked is kept for this process (``mode``).
    MODES = ("json_schema", "json_object", "prompt")
    mode = "json_schema"

    def structured(
        self, system: str, user: str, schema: dict[str, Any], name: str
    ) -> tuple[Any, int | None]:
        import openai

        for mode in self.MODES[self.MODES.index(self.mode) :]:
            asked: dict[str, Any] = {}
            if mode == "json_schema":
                asked["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {"name": name, "schema": schema, "strict": True},
                }
            elif mode == "json_object":
                asked["response_format"] = {"type": "json_object"}
            said = system + (
                ""
                if mode == "json_schema"
                else "\n\nAnswer with one JSON object, nothing else, "
                f"that follows this JSON schema:\n{json.dumps(schema)}"
            )
            try:
                r = self.client.chat.completions.create(
                    model=self.model,
                    messages=[
                        {"role": "system", "content": said},
                        {"role": "user", "content": user},
                    ],
                    temperature=0,
                    max_tokens=self.max_tokens,  # a model that runs on stops here
                    **asked,
                )
            except (
                openai.BadRequestError,
                openai.UnprocessableEntityError,
                openai.InternalServerError,
            ) as exc:
                refused = not isinstance(exc, openai.InternalServerError) or (
                    "response_format" in str(exc)  # llama.cpp's server answers 500 to a
                )  # format it does not know; any other 500 is the server's failure
                if mode == self.MODES[-1] or not refused:
                    raise
                continue  # this server does not take that mode: the next one
            self.mode = mode
            content = r.choices[0].message.content if r.choices else None
            usage = getattr(r, "usage", None)
            return json_in(content) if mode == "prompt" else content, getattr(
                usage, "total_tokens", None
            )
        raise AssertionError("unreachable: the last mode raises")

    def text(self, system: str, user: str, max_tokens: int = 1024) -> str:
        r = self.client.chat.completions.create(
            model=self.model,
            temperature=0,
            max_tokens=max_tokens,
            messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
        )
        return str(r.choices[0].message.content or "")


class AnthropicChat(_SDKChat):
    sdk = "anthropic"

    def __call__(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
        r = self.client.messages.create(
            model=self.model,
            max_tokens=min(self.max_tokens, 1024),
            system=system,
            messages=_anthropic_turns(messages),
            tools=[
                {
                    "name": t["name"],
                    "description": t["description"],
                    "input_schema": t["parameters"],
                }
                for t in tools
            ],
        )
        text = "".join(getattr(b, "text", "") for b in r.content if b.type == "text")
        calls = [
            {"id": b.id, "name": b.name, "arguments": dict(b.input)}
            for b in r.content
            if b.type == "tool_use"
        ]
        return {"content": text or None, "tool_calls": calls}

    def structured(
        self, system: str, user: str, schema: dict[str, Any], name: str
    ) -> tuple[Any, int | None]:
        """A forced tool whose input is the schema: Anthropic's way to a JSON answer."""
        r = self.client.messages.create(
            model=self.model,
            max_tokens=self.max_tokens,
            system=system,
            messages=[{"role": "user", "content": user}],
            tools=[{"name": name, "description": f"Record the {name}.", "input_schema": schema}],
            tool_choice={"type": "tool", "name": name},
        )
        usage = getattr(r, "usage", None)
        tokens = None
        if usage is not None:
            tokens = (getattr(usage, "input_tokens", 0) or 0) + (
                getattr(usage, "output_tokens", 0) or 0
            )
        for block in r.content:
            if getattr(block, "type", None) == "tool_use":
                return block.input, tokens
        return None, tokens

    def text(self, system: str, user: str, max_tokens: int = 1024) -> str:
        r = self.client.messages.create(
            model=self.model,
            max_tokens=max_tokens,
            system=system,
            messages=[{"role": "user", "content": user}],
        )
        return "".join(getattr(b, "text", "") for b in r.content)


def _anthropic_turns(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """OpenAI-style history as Anthropic wants it: alternating turns, tool use and results
    as content blocks, the system prompt left out (it goes in ``system``)."""
    turns: list[dict[str, Any]] = []
    for m in messages:
        if m["role"] == "system":
            continue
        if m["role"] == "tool":
            block: dict[str, Any] = {
                "type": "tool_result",
                "tool_use_id": m["tool_call_id"],
                "content": m["content"],
            }
            role, content = "user", [block]
        elif m.get("tool_calls"):
            role = "assistant"
            content = [{"type": "text", "text": m["content"]}] if m.get("content") else []
            content += [
                {
                    "type": "tool_use",
                    "id": c["id"],
                    "name": c["function"]["name"],
                    "input": json.loads(c["function"]["arguments"]),
                }
                for c in m["tool_calls"]
            ]
        else:
            role = "assistant" if m["role"] == "assistant" else "user"
            content = [{"type": "text", "text": str(m.get("content") or "")}]
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"] += content
        else:
            turns.append({"role": role, "content": list(content)})
    return turns


def connect(
    provider: str,
    model: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout: float = 60.0,
    max_tokens: int = 4096,
) -> ChatModel:
    """The configured provider's chat model (``openai`` or ``anthropic``)."""
    kind = OpenAIChat if provider == "openai" else AnthropicChat
    chat: ChatModel = kind(
        model, base_url=base_url, api_key=api_key, timeout=timeout, max_tokens=max_tokens
    )
    return chat


def json_in(text: str | None) -> str | None:
    """The JSON object in a plain answer: the text itself, or what lies between its first
    "{" and its last "}" (a model asked for JSON in the prompt may wrap it in prose or a
    code fence). The caller's parser decides whether it is the schema."""
    if not text:
        return text
    start, end = text.find("{"), text.rfind("}")
    return text[start : end + 1] if 0 <= start < end else text
