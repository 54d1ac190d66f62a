"""Values an admin or a model hands memwise that no host or zone could hold are refused at
the boundary with a clear error (found by a fuzzing review, 2026-12-08)."""

from __future__ import annotations

import pytest

from memwise import errors
from memwise._domain.memory import check_occurs_on
from memwise._domain.tenancy import check_timezone


@pytest.mark.parametrize(
    "name", ["localtime", "posixrules", "posix/Europe/Berlin", "a" * 300, None, 5]
)
def test_a_timezone_is_an_iana_name_any_host_knows(name: object) -> None:
    with pytest.raises(errors.Invalid):
        check_timezone(name)  # type: ignore[arg-type]


def test_iana_names_are_kept() -> None:
    assert check_timezone("Europe/Berlin") == "Europe/Berlin"
    assert check_timezone("Etc/GMT+12") == "Etc/GMT+12"


@pytest.mark.parametrize("moment", ["9999-12-31T23:00:00+00:00", "0001-01-01T00:00:00+00:00"])
def test_a_moment_no_zone_could_show_is_refused(moment: str) -> None:
    """Stored in a UTC workspace, 9999-12-31 23:00 could not be shown once the workspace's
    zone moved east: recall and every later correction of its key raised."""
    with pytest.raises(errors.Invalid):
        check_occurs_on(moment)
