"""Pure pieces of the foundation: errors, clock, ids, query building, identities."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

import memwise
from memwise import errors
from memwise._cli.main import exit_code
from memwise._clock import FixedClock, aware
from memwise._ids import new_id
from memwise._services.platform import identity
from memwise._storage import fts
from memwise._storage.highlight import START, STOP, to_html


def test_error_docstring_is_the_default_message_and_code_is_stable() -> None:
    e = errors.NotFound()
    assert e.message == "The object was not found." and e.code == "not_found"
    r = errors.Refused("no secrets here", code="secret_refused", kind="iban")
    assert isinstance(r, errors.Invalid) and r.code == "secret_refused"
    assert r.details == {"kind": "iban"} and str(r) == "no secrets here"


def test_cli_exit_codes_follow_the_tree() -> None:
    assert exit_code(errors.Refused()) == exit_code(errors.Invalid()) == 2
    assert exit_code(errors.NotFound()) == 3
    assert exit_code(errors.MemwiseError()) == 1


def test_fixed_clock_moves_only_when_told() -> None:
    c = FixedClock(datetime(2026, 1, 1, 12))
    assert c.now() == datetime(2026, 1, 1, 12, tzinfo=UTC)
    assert c.advance(minutes=30) - datetime(2026, 1, 1, 12, tzinfo=UTC) == timedelta(minutes=30)
    berlin = timezone(timedelta(hours=1))
    assert aware(datetime(2026, 1, 1, 13, tzinfo=berlin)) == datetime(2026, 1, 1, 12, tzinfo=UTC)


def test_ids_are_prefixed_and_roughly_ordered() -> None:
    a, b = new_id("trn"), new_id("trn")
    assert a.startswith("trn_") and len(a) == 4 + 28 and a != b
    assert a[:16] <= b[:16]


def test_search_queries_cannot_carry_operators() -> None:
    assert fts.fts5_query('NEAR("a" b) OR c*') == '"near" "a" "b" "or" "c"'
    assert fts.fts5_query("   ") == ""
    assert fts.fts5_query("don't panic", any_word=True) == '"don\'t" OR "panic"'
    assert fts.tsquery_words("don't panic!") == ["dont", "panic"]


def test_highlight_escapes_everything_but_the_marks() -> None:
    assert to_html(f"<script>{START}x{STOP}") == "&lt;script&gt;<mark>x</mark>"


@pytest.mark.parametrize(
    ("kind", "raw", "norm"),
    [
        ("email", " Ann@Example.COM ", "ann@example.com"),
        ("phone", "+1 (555) 010-9999", "15550109999"),
        ("address", "1  Main   St", "1 main st"),
        ("account_ref", "ACC-1", "ACC-1"),
    ],
)
def test_identities_normalise(kind: str, raw: str, norm: str) -> None:
    assert identity.normalize(kind, raw) == norm


@pytest.mark.parametrize(("kind", "raw"), [("email", "x@"), ("phone", "12"), ("fax", "1")])
def test_bad_identities_are_refused(kind: str, raw: str) -> None:
    with pytest.raises(errors.Invalid):
        identity.normalize(kind, raw)


def test_the_question_book_redaction_masks_cards_ibans_and_passwords() -> None:
    from memwise._safety import pii

    text = (
        "My card 4111 1111 1111 1111 was charged twice; refund to IBAN "
        "DE89 3704 0044 0532 0130 00 please. My password is hunter22x."
    )
    out = pii.redact(None, None, text)
    assert "4111" not in out and "DE89" not in out and "hunter22x" not in out
    assert "[card]" in out and "[iban]" in out and "[password]" in out
    assert out.startswith("My card [card] was charged twice")


def test_the_deploy_page_lists_every_setting() -> None:
    from pathlib import Path

    from memwise._config import Settings

    doc = (Path(__file__).parents[2] / "docs" / "deploy.md").read_text()
    assert Settings.reference() in doc, "docs/deploy.md is stale: regenerate its table"
    for name in Settings.model_fields:
        assert f"MEMWISE_{name.upper()}" in doc


def test_the_public_surface_is_exported_and_the_client_stays_light() -> None:
    import subprocess
    import sys

    import memwise

    for name in memwise.__all__:
        assert getattr(memwise, name) is not None, name
    assert set(dir(memwise)) == set(memwise.__all__)
    probe = (
        "import sys, memwise.client; "
        "print(int('sqlalchemy' in sys.modules), int('numpy' in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "0"]  # the HTTP client needs no database layer


def test_every_exported_member_is_memwise_own_and_loads() -> None:
    """As httpx tests its surface: each name in ``__all__`` resolves, belongs to memwise,
    and nothing public is reachable only through a private path."""
    for name in memwise.__all__:
        member = getattr(memwise, name)
        if name == "__version__":
            assert isinstance(member, str)
            continue
        module = member.__name__ if name == "errors" else member.__module__
        assert module.startswith("memwise."), (name, module)
    assert sorted(dir(memwise)) == sorted(memwise.__all__)
    with pytest.raises(AttributeError):
        _ = memwise.not_a_name  # type: ignore[attr-defined]
