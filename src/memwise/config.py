"""Settings, built once in an entry point and passed down. Library code never reads the env."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from memwise import errors
from memwise.accounts.policy import AccountPolicy
from memwise.extraction.models import AnthropicExtractor, OpenAIExtractor
from memwise.extraction.rules import RuleExtractor
from memwise.extraction.types import Extractor
from memwise.policies.compaction import ExtractiveSummariser, ModelSummariser, Summariser
from memwise.policies.limits import Limits
from memwise.retrieval.embedders import Embedder, MiniLMEmbedder, OpenAIEmbedder
from memwise.services.model_mode import Complete, anthropic_complete, openai_complete


class Settings(BaseSettings):
    """memwise settings; every field can be set with a ``MEMWISE_`` environment variable."""

    model_config = SettingsConfigDict(env_prefix="MEMWISE_", env_nested_delimiter="__")

    database_url: str = "sqlite:///memwise.db"
    admin_token: str | None = None
    test_clock: bool = False
    embedded_worker: bool = False  # `memwise serve` turns it on (--no-worker turns it off)
    worker_poll_s: float = Field(2.0, gt=0, le=3600)
    max_request_bytes: int = 1_000_000
    rate_limit_per_minute: int = 600
    auth_failures_per_minute: int = Field(30, ge=1, le=100_000)  # per address, per key prefix
    # The header a TLS-terminating proxy sets (e.g. X-Forwarded-For); trusted only when set,
    # together with X-Forwarded-Proto for Secure console cookies.
    forwarded_header: str | None = None
    console_idle_minutes: float = Field(60, ge=1, le=7 * 24 * 60)
    console_session_hours: float = Field(12, ge=1, le=24 * 30)
    cors_origins: str = "*"  # origins whose pages may call the API (the web widget); "" = none
    limits: Limits = Field(default_factory=Limits)
    extractor: Literal["rules", "openai", "anthropic"] = "rules"
    model: str | None = None
    model_base_url: str | None = None
    model_api_key: str | None = None
    model_timeout_s: float = 60.0
    embedder: Literal["none", "openai", "local"] = "none"
    embedding_model: str = "text-embedding-3-small"
    # Account sources a workspace may configure (comma-separated; "ws_…=URL" for one
    # workspace). Empty: no sql or http source can be configured.
    account_sql_urls: Annotated[list[str], NoDecode] = Field(default_factory=list)
    account_http_bases: Annotated[list[str], NoDecode] = Field(default_factory=list)
    account_allow_private: bool = False  # http sources on loopback/private addresses
    account_timeout_s: float = Field(5.0, gt=0, le=60)

    @field_validator("account_sql_urls", "account_http_bases", mode="before")
    @classmethod
    def _comma_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [v.strip() for v in value.split(",") if v.strip()]
        return value

    def account_policy(self) -> AccountPolicy:
        return AccountPolicy(
            sql_urls=tuple(self.account_sql_urls),
            http_bases=tuple(self.account_http_bases),
            allow_private=self.account_allow_private,
            statement_timeout_s=self.account_timeout_s,
        )

    def make_embedder(self) -> Embedder | None:
        """No vectors by default (lexical search); an OpenAI-compatible endpoint or MiniLM."""
        if self.embedder == "none":
            return None
        if self.embedder == "openai":
            return OpenAIEmbedder(
                self.embedding_model, base_url=self.model_base_url, api_key=self.model_api_key
            )
        return MiniLMEmbedder()

    def make_summariser(self) -> Summariser:
        """The model summarises compacted turns when one is configured; otherwise extractive."""
        if self.extractor == "rules" or not self.model:
            return ExtractiveSummariser()
        extractor = self.make_extractor()
        client, model = extractor.client, self.model  # type: ignore[attr-defined]
        if self.extractor == "openai":

            def complete(system: str, user: str) -> str:
                r = client.chat.completions.create(
                    model=model,
                    temperature=0,
                    messages=[
                        {"role": "system", "content": system},
                        {"role": "user", "content": user},
                    ],
                )
                return str(r.choices[0].message.content or "")
        else:

            def complete(system: str, user: str) -> str:
                r = client.messages.create(
                    model=model,
                    max_tokens=1024,
                    system=system,
                    messages=[{"role": "user", "content": user}],
                )
                return "".join(getattr(b, "text", "") for b in r.content)

        return ModelSummariser(complete)

    def make_chat_model(self) -> Complete | None:
        """With a model configured, chat is a tool-calling model; without, preview mode."""
        if self.extractor == "rules" or not self.model:
            return None
        client = self.make_extractor().client  # type: ignore[attr-defined]
        if self.extractor == "openai":
            return openai_complete(client, self.model)
        return anthropic_complete(client, self.model)

    def make_extractor(self) -> Extractor:
        """The configured extractor: offline rules unless a model is configured."""
        if self.extractor == "rules":
            return RuleExtractor()
        if not self.model:
            raise errors.Invalid(
                f"MEMWISE_MODEL is needed for the {self.extractor} extractor", code="model_required"
            )
        kind = OpenAIExtractor if self.extractor == "openai" else AnthropicExtractor
        return kind(
            self.model,
            base_url=self.model_base_url,
            api_key=self.model_api_key,
            timeout=self.model_timeout_s,
        )
