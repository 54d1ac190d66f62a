"""Normalising contact identities so that a lookup matches however they were typed."""

from __future__ import annotations

import re

from memwise import errors
from memwise._domain.record import check_text

KINDS = ("email", "phone", "address", "account_ref", "telegram", "external")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def normalize(kind: str, value: str) -> str:
    value = check_text(" ".join(str(value).split()), f"the {kind}")
    if not value:
        raise errors.Invalid(f"an empty {kind} was given", code="invalid_identity")
    if len(value) > 500:
        raise errors.Invalid(f"{kind} is longer than 500 characters", code="too_long")
    if kind == "email":
        if not _EMAIL.match(value):
            raise errors.Invalid(f"{value!r} is not an email address", code="invalid_email")
        return value.lower()
    if kind == "phone":
        digits = re.sub(r"\D", "", value)
        if not 5 <= len(digits) <= 16:
            raise errors.Invalid(f"{value!r} is not a phone number", code="invalid_phone")
        return digits
    if kind == "address":
        return value.lower()
    if kind in ("account_ref", "telegram"):
        return value
    if kind == "external":  # the caller's own id for the customer (a user id, a CRM id)
        if len(value) > 200:
            raise errors.Invalid("an external id is at most 200 characters", code="too_long")
        return value
    raise errors.Invalid(f"unknown identity kind {kind!r}", code="invalid_identity")
