"""One deployed topology for the whole package (starting it costs seconds): each test injects its
fault, drives players through it, and leaves every server running again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import servers
from tests.faults.checks import Database
from tests.faults.topology import Topology, missing_tools


@pytest.fixture(scope="package")
def topology(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Topology]:
    missing = missing_tools()
    if missing:
        servers.fail_or_skip(f"{', '.join(missing)} not installed (`make fault-deps` installs "
                             "nginx): the fault tests did NOT run")
    made = Topology(tmp_path_factory.mktemp("faults"))
    try:
        yield made
    finally:
        made.close()


@pytest.fixture
def deployed(topology: Topology) -> Iterator[Topology]:
    """The topology, every server answering before and after the test."""
    topology.healthy()
    yield topology
    topology.healthy()


@pytest.fixture
def database(topology: Topology) -> Iterator[Database]:
    made = Database(topology.postgres.url())
    yield made
    made.close()
