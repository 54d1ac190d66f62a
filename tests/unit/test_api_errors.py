"""An HTTP error answer becomes the memwise.errors class it stands for."""

from __future__ import annotations

import pytest

from memwise import errors


@pytest.mark.parametrize(
    ("status", "code", "kind"),
    [
        (404, "not_found", errors.NotFound),
        (409, "conflict", errors.Conflict),
        (422, "invalid_plan", errors.Invalid),
        (401, "unauthorized", errors.Unauthorized),
        (403, "forbidden", errors.Forbidden),
        (429, "rate_limited", errors.LimitExceeded),
        (503, "unavailable", errors.Unavailable),
    ],
)
def test_the_answer_is_its_library_class(status: int, code: str, kind: type) -> None:
    error = errors.from_answer(status, code, "said so", {"field": "plan"})
    assert isinstance(error, kind) and isinstance(error, errors.ApiError)
    assert (error.status, error.code, error.message, error.details) == (
        status,
        code,
        "said so",
        {"field": "plan"},
    )
    assert str(error) == f"{status} {code}: said so"
    assert type(errors.from_answer(status, code, "again")) is type(error)  # one class each


def test_the_kind_the_server_names_wins_over_the_status() -> None:
    refused = errors.from_answer(422, "contact_details", "no phone numbers", None, "refused")
    assert isinstance(refused, errors.Refused)
    limit = errors.from_answer(409, "monthly_allowance", "used up", None, "limit_exceeded")
    assert isinstance(limit, errors.LimitExceeded) and not isinstance(limit, errors.Conflict)


def test_the_server_names_the_kind_of_each_error() -> None:
    from memwise._web.errors import kind_of

    assert kind_of(errors.Refused("no", code="contact_details")) == "refused"
    assert kind_of(errors.Invalid("no", code="too_long")) == "invalid"
    assert kind_of(errors.LimitExceeded("no", code="monthly_allowance")) == "limit_exceeded"


def test_an_unknown_status_is_a_plain_api_error() -> None:
    error = errors.from_answer(502, "http_error", "bad gateway")
    assert type(error) is errors.ApiError and not isinstance(error, errors.NotFound)


@pytest.mark.parametrize("status", [404, 409, 422, 429, 401, 403, 503, 502])
def test_an_answer_s_error_pickles_as_it_was(status: int) -> None:
    """A queue or a process pool hands errors on by pickling: the class, the status, the
    code, the message and the details come back."""
    import pickle

    error = errors.from_answer(status, "some_code", "said: so", {"field": "plan"})
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and type(back).__module__ == "memwise.errors"
    assert (back.status, back.code, back.message, back.details, str(back)) == (
        status,
        "some_code",
        "said: so",
        {"field": "plan"},
        str(error),
    )
