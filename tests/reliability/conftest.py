"""The reliability suite reuses the API fixture of the integration tests."""

from tests.integration.conftest import api  # noqa: F401  (a fixture)
