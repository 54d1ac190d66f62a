"""Written rules — an agent's persona and rules, the workspace's team standards — checked
before anyone can serve them: within the limits, free of secrets, and never undoing the
harness rule (``policies.rulebook`` reads that). Nothing here touches storage.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from memwise import errors
from memwise._policies import rulebook
from memwise._policies.limits import RulesLimits
from memwise._safety import secrets

PERSONA_FIELDS = ("voice", "helps_with")


def _joined(texts: Sequence[str]) -> list[str]:
    """Rules read together where one runs on into the next (no closing punctuation), so a
    refused phrase cannot be split across two of them."""
    out: list[str] = []
    run = ""
    for t in texts:
        run = f"{run} {t}".strip() if run else t
        if re.search(r"[.!?;:]\s*$", t):
            out.append(run)
            run = ""
    if run:
        out.append(run)
    return [r for r in out if r not in texts]


def _one(text: Any, what: str, max_chars: int) -> str:
    if not isinstance(text, str):
        raise errors.Invalid(f"{what} must be text", code="invalid_rule")
    cleaned = " ".join(text.translate(rulebook.INVISIBLE).split())
    if len(cleaned) > max_chars:
        raise errors.Invalid(
            f"{what} is limited to {max_chars} characters (this one has {len(cleaned)}); "
            "nothing was saved",
            code="too_long",
            limit=max_chars,
            length=len(cleaned),
        )
    if cleaned:
        _refuse_undoing(cleaned, f"{what} was")
        secrets.check(cleaned)
    return cleaned


def _refuse_undoing(text: str, which: str) -> None:
    """Refuse ``text`` (``rule_undoes_harness``) when it would undo the harness rule."""
    reason = rulebook.undoes_harness(text)
    if reason:
        raise errors.Invalid(
            f"{which} refused: {reason}. Rules come after the harness rule and cannot undo "
            "it; nothing was saved",
            code="rule_undoes_harness",
            rule=text[:200],
        )


def check(
    rules: Sequence[Any], persona: Mapping[str, Any] | None, limits: RulesLimits
) -> tuple[list[str], dict[str, str] | None]:
    """Rules and persona fit to propose: each rule non-empty, within the limits, free of
    secrets and not undoing the harness rule; duplicates dropped, order kept."""
    if isinstance(rules, str) or not isinstance(rules, Sequence):
        raise errors.Invalid("rules must be a list of texts", code="invalid_rule")
    if len(rules) > limits.max_rules:
        raise errors.Invalid(
            f"at most {limits.max_rules} rules (this has {len(rules)}); nothing was saved",
            code="too_many_rules",
            limit=limits.max_rules,
        )
    kept: list[str] = []
    seen: set[str] = set()
    for n, rule in enumerate(rules, 1):
        cleaned = _one(rule, f"rule {n}", limits.max_rule_chars)
        key = cleaned.casefold()
        if cleaned and key not in seen:
            seen.add(key)
            kept.append(cleaned)
    for run in _joined(kept):
        _refuse_undoing(run, "rules read together were")
    clean_persona: dict[str, str] | None = None
    if persona is not None:
        if not isinstance(persona, Mapping):
            raise errors.Invalid("persona must be an object", code="invalid_rule")
        unknown = set(persona) - set(PERSONA_FIELDS)
        if unknown:
            raise errors.Invalid(
                f"unknown persona fields: {sorted(unknown)} (known: {list(PERSONA_FIELDS)})",
                code="invalid_field",
            )
        clean_persona = {
            k: _one(persona.get(k) or "", f"persona {k.replace('_', ' ')}", limits.persona_chars)
            for k in PERSONA_FIELDS
        }
    return kept, clean_persona


def diff(
    before_rules: Sequence[str],
    before_persona: Mapping[str, str] | None,
    rules: Sequence[str],
    persona: Mapping[str, str] | None,
) -> str:
    """A unified diff of one version against another, persona lines first."""

    def lines(rs: Sequence[str], p: Mapping[str, str] | None) -> list[str]:
        out = [f"{k}: {p[k]}" for k in PERSONA_FIELDS if p and p.get(k)]
        return out + [f"- {r}" for r in rs]

    return "\n".join(
        difflib.unified_diff(
            lines(before_rules, before_persona),
            lines(rules, persona),
            "served",
            "proposed",
            lineterm="",
            n=1,
        )
    )
