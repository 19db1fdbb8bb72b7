"""tests/scheduling.py: the long files first, the fault tests in one unit, every test once."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from tests import scheduling


def _items(*nodeids: str) -> list[pytest.Item]:
    return [cast(pytest.Item, SimpleNamespace(nodeid=nodeid)) for nodeid in nodeids]


def test_long_files_go_first_and_every_file_keeps_its_order() -> None:
    items = _items("tests/accounts/test_a.py::one", "tests/games/test_g.py::x",
                   "tests/games/test_g.py::y", "tests/faults/test_f.py::two",
                   "tests/realtime/test_instances.py::three", "tests/faults/test_e.py::one")
    scheduling.order_long_first(items)
    assert [item.nodeid for item in items] == [
        "tests/faults/test_f.py::two", "tests/faults/test_e.py::one",
        "tests/realtime/test_instances.py::three",
        "tests/games/test_g.py::x", "tests/games/test_g.py::y",  # more tests: before
        "tests/accounts/test_a.py::one"]


def test_the_fault_tests_are_one_unit_and_other_files_their_own() -> None:
    pytest.importorskip("xdist")
    option = SimpleNamespace(loadscopereorder=True, numprocesses=2, tx=["popen"] * 2,
                             dist="loadfile", maxschedchunk=None)
    config: Any = SimpleNamespace(option=option, getvalue=lambda name: getattr(option, name))
    scheduler = scheduling.make_scheduler(config, None)
    assert option.loadscopereorder is False  # the collection's order is kept
    split = scheduler._split_scope
    assert split("tests/faults/test_a.py::t") == split("tests/faults/test_b.py::u")
    assert split("tests/live/test_drain.py::t") == "tests/live/test_drain.py"
    assert split("tests/live/test_drain.py::t") != split("tests/live/test_races.py::t")
