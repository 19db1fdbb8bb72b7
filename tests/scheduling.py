"""How ``make test`` shares the test files among its pytest-xdist processes (``--dist loadfile``).

Each file runs whole in one process, and a process takes the next file when it is done. Two
things make a run longer than its work: a file that starts near the end and runs for minutes
while the other process has nothing left, and a package whose one expensive setup
(``scope="package"``) is built again in every process that runs one of its files. So:

- the files known to run for minutes go first (:data:`LONG_FIRST`, in that order), then the
  rest as xdist orders them (most tests first);
- the files of :data:`ONE_UNIT` run together in one process (one deployed topology for the
  fault tests, not one per process).

Only the order and grouping change; every test still runs once. A file missing from the lists
costs time, never coverage.
"""

from __future__ import annotations

from typing import Any

import pytest

LONG_FIRST = (
    "tests/faults/",
    "tests/realtime/test_instances.py",
    "tests/live/test_saturation.py",
    "tests/match/test_outbox_live.py",
    "tests/http/test_schemathesis.py",
    "tests/realtime/test_bus_heal.py",
    "tests/live/test_races.py",
    "tests/live/test_drain.py",
    "tests/browser/",
)
"""Paths (a file, or a folder ending in ``/``) whose files run for minutes, longest first."""

ONE_UNIT = ("tests/faults/",)
"""Folders whose files share a package-scoped setup that costs more than their tests."""


def _rank(path: str) -> int:
    for index, prefix in enumerate(LONG_FIRST):
        if path == prefix or (prefix.endswith("/") and path.startswith(prefix)):
            return index
    return len(LONG_FIRST)


def _file(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def order_long_first(items: list[pytest.Item]) -> None:
    """The long files' tests first, then the other files, those with more tests first (xdist's
    own order), each file's tests in their own order. The same order in every process: xdist
    checks that they all collected the same list."""
    counts: dict[str, int] = {}
    for item in items:
        counts[_file(item)] = counts.get(_file(item), 0) + 1
    items.sort(key=lambda item: (_rank(_file(item)), -counts[_file(item)]))


def make_scheduler(config: pytest.Config, log: Any) -> Any:
    """xdist's file scheduling, with :data:`ONE_UNIT` folders as one unit and the collection's
    order kept (:func:`order_long_first` made it)."""
    from xdist.scheduler import LoadFileScheduling

    class Scheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            for folder in ONE_UNIT:
                if nodeid.startswith(folder):
                    return folder
            return super()._split_scope(nodeid)

    config.option.loadscopereorder = False
    return Scheduling(config, log)
