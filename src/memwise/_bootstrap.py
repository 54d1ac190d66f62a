"""The composition root: the library as the settings configure it.

Every door that serves or works for a deployment — the HTTP server, the worker, the
importer, the MCP server, Telegram — opens memwise here, so each is built with the same
models, extractor, summariser, embedder and policies. Settings are values only
(``memwise._config``); this is the one place they are turned into working parts
(``Parts``) and a running ``Memwise``.
"""

from __future__ import annotations

import gc

from pydantic import ValidationError

from memwise import errors
from memwise._clock import WorkspaceClocks
from memwise._config import Settings
from memwise._extraction.models import ModelExtractor
from memwise._extraction.rules import RuleExtractor
from memwise._extraction.types import Extractor
from memwise._extraction.verify import ItemVerifier
from memwise._policies.compaction import ExtractiveSummariser, ModelSummariser, Summariser
from memwise._providers import chat
from memwise._providers.chat import ChatModel
from memwise._retrieval import embedders
from memwise._retrieval.embedders import Embedder, MiniLMEmbedder, OpenAIEmbedder
from memwise._services.facade import Memwise


class Parts:
    """What ``settings`` configure, built on first use: one chat model shared by the
    extractor, the verifier, model mode, the summariser and the judge; the embedder."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._model: ChatModel | None = None

    def embedder(self) -> Embedder | None:
        """The local MiniLM by default; an OpenAI-compatible endpoint, or none (by words)."""
        s = self.settings
        if s.embedder == "none":
            return None
        if s.embedder == "openai":
            return OpenAIEmbedder(
                s.embedding_model, base_url=s.model_base_url, api_key=s.model_api_key
            )
        return MiniLMEmbedder(
            s.embedder_runtime,
            model_dir=s.embedder_model_dir,
            word_pieces=s.recall_word_pieces,
            weights=None if s.embedder_weights == "auto" else s.embedder_weights,
        )

    def model(self) -> ChatModel | None:
        """The configured chat model (built once); None for the offline rules."""
        s = self.settings
        if s.extractor == "rules":
            return None
        if not s.model:
            raise errors.Invalid(
                f"MEMWISE_MODEL is needed for the {s.extractor} extractor", code="model_required"
            )
        if self._model is None:
            self._model = chat.connect(
                s.extractor,
                s.model,
                base_url=s.model_base_url,
                api_key=s.model_api_key,
                timeout=s.model_timeout_s,
                max_tokens=s.model_max_tokens,
            )
        return self._model

    def summariser(self) -> Summariser:
        """The model summarises compacted turns when one is configured; otherwise extractive."""
        chat = self.chat_model()
        return ExtractiveSummariser() if chat is None else ModelSummariser(chat.text)

    def chat_model(self) -> ChatModel | None:
        """With a model configured, chat is a tool-calling model; without, preview mode."""
        if self.settings.extractor == "rules" or not self.settings.model:
            return None
        return self.model()

    def extractor(self) -> Extractor:
        """The configured extractor: offline rules unless a model is configured."""
        chat = self.model()
        return RuleExtractor(embedders.shipped) if chat is None else ModelExtractor(chat)

    def verifier(self) -> ItemVerifier | None:
        """With a model configured (and MEMWISE_VERIFY_ITEMS on), a second call checks each
        item the harness kept: supported by the customer's words, and not forbidden."""
        chat = self.chat_model()
        return ItemVerifier(chat) if chat is not None and self.settings.verify_items else None


def environment(database_url: str | None = None) -> Settings:
    """The settings the environment gives (``MEMWISE_*``, docs/deploy.md), with
    ``database_url`` in place of ``MEMWISE_DATABASE_URL`` when given; a mistyped value is one
    clear ``Invalid`` (``bad_setting``) naming the variable."""
    try:
        s = Settings()
    except ValidationError as exc:  # a typo in a MEMWISE_ variable: one line, no traceback
        first = exc.errors()[0]
        name = "MEMWISE_" + "__".join(str(p) for p in first.get("loc", ())).upper()
        raise errors.Invalid(f"{name}: {first.get('msg', 'invalid')}", code="bad_setting") from exc
    if database_url:
        s.database_url = database_url
    if s.packs_dir:
        from memwise._extraction import pack

        pack.use_dir(s.packs_dir)
    return s


def connect(database_url: str | None = None, *, migrate: bool = True) -> Memwise:
    """memwise for a program, as a deployment runs it: the settings the environment gives
    (``environment``), so the local embedder is on unless ``MEMWISE_EMBEDDER`` says
    otherwise and recall and search go by meaning; ``database_url`` in place of
    ``MEMWISE_DATABASE_URL`` when given. ``Memwise.open`` instead takes each part as an
    argument (no embedder, the offline extractor, unless given)."""
    return open_memwise(environment(database_url), migrate=migrate)


def open_memwise(settings: Settings, *, migrate: bool = True) -> Memwise:
    """The library as ``settings`` configure it (models, embedder, test clock, metering)."""
    parts = Parts(settings)
    return Memwise.open(
        settings.database_url,
        clock=WorkspaceClocks() if settings.test_clock else None,
        limits=settings.limits,
        migrate=migrate,
        extractor=parts.extractor(),
        summariser=parts.summariser(),
        embedder=parts.embedder(),
        chat_model=parts.chat_model(),
        verifier=parts.verifier(),
        account_policy=settings.account_policy(),
        metering=settings.metering,
    )


def settle() -> None:
    """Keep what start-up made (modules, settings, models' wrappers: ~10^5 objects that
    live as long as the process) out of the garbage collector's way. Each full collection
    walks every tracked object and lands on whichever request allocates next: 30–70 ms on
    a contact's first record recall here (bench/recall_cold.py). Collected once first, so
    no garbage is kept with them. For long-lived processes (the server, the worker), once
    they are open."""
    gc.collect()
    gc.freeze()
