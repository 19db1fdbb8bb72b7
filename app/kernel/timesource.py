"""The one place the service asks what time it is (naive UTC), so tests can control the clock.

Clocks, deadlines and timeouts all read ``now()``; tests swap the source with ``use(fake)``
instead of sleeping real seconds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta


def system_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


_source: Callable[[], datetime] = system_now


def now() -> datetime:
    return _source()


@contextmanager
def use(source: Callable[[], datetime]) -> Iterator[None]:
    global _source
    previous, _source = _source, source
    try:
        yield
    finally:
        _source = previous


class FakeClock:
    """A clock that only moves when told to (``advance``)."""

    def __init__(self, start: datetime | None = None) -> None:
        self.moment = start or datetime(2026, 1, 1, 12, 0, 0)

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)
