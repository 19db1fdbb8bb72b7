"""A schema's creation waits out a PostgreSQL server that is full for a moment (the workers' live
servers together may touch its connection limit), and fails at once on any other error."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import OperationalError

from tests import databases


def _refusal(message: str) -> OperationalError:
    return OperationalError("connect", {}, Exception(message))


def test_a_full_server_is_tried_again() -> None:
    calls: list[int] = []

    def attempt() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise _refusal("FATAL:  sorry, too many clients already")
        return "connected"

    assert databases._patiently(attempt) == "connected"
    assert len(calls) == 3


def test_any_other_refusal_is_raised_at_once() -> None:
    calls: list[int] = []

    def attempt() -> str:
        calls.append(1)
        raise _refusal("FATAL:  password authentication failed")

    with pytest.raises(OperationalError):
        databases._patiently(attempt)
    assert len(calls) == 1
