"""The API tests' fixtures (two guests), for the analysis tests."""

from tests.api.conftest import alice, bob  # noqa: F401 (fixtures)
