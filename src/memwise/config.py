"""Settings, built once in an entry point and passed down. Library code never reads the env."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from memwise.policies.limits import Limits


class Settings(BaseSettings):
    """memwise settings; every field can be set with a ``MEMWISE_`` environment variable."""

    model_config = SettingsConfigDict(env_prefix="MEMWISE_", env_nested_delimiter="__")

    database_url: str = "sqlite:///memwise.db"
    admin_token: str | None = None
    test_clock: bool = False
    max_request_bytes: int = 1_000_000
    rate_limit_per_minute: int = 600
    limits: Limits = Field(default_factory=Limits)
