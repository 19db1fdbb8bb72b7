"""The matches this process has just moved, kept warm, so the next move skips the database read.

Why: profiled under the fan-out load on PostgreSQL, a move's read (one round trip, p50 1.3 ms,
p99 10 ms on the shared 2-core machine) was half of its time in the database, and rebuilding the
engine state from the snapshot a good part of its CPU. Live game servers keep a game in play in
memory (Lichess's game proxy) and write each move through; Stepwell does the same, without
giving up the database as the one authority:

- After a move commits, the match as it now stands (the row it was read as, with the values just
  written, and the engine state) is kept here, keyed by the match.
- The next move on that match *takes* it (so no two threads ever share one) if it is at the ply
  the player expects. The write that follows is version-guarded as always: if anything changed
  the match meanwhile (another instance, the worker, an offer), the guard refuses it, nothing is
  written, and the move is read and decided again from the database (``MatchService._play``).
- Only the happy path runs on a warm copy. Any refusal (stale ply, not your turn, illegal move,
  time out) is decided on a fresh read, so every error a player sees comes from the database.

A copy is only a shortcut: losing one (capacity, restart, a second instance) costs a read, never
a wrong answer. Bounded (least recently used goes first); finished matches are never kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from app.match.records import MatchRow
from games import State

CAPACITY = 4096
"""Matches kept: far more than one instance plays at once (1,000 in the load benchmark)."""

_ROW_FIELDS = frozenset(f.name for f in fields(MatchRow)) - {"players", "id"}


@dataclass(slots=True)
class WarmMatch:
    """A match as its last commit left it: the row (as ``store.read`` would give it) and its
    engine state."""

    row: MatchRow
    state: State


def after_commit(row: MatchRow, values: Mapping[str, Any], state: State) -> WarmMatch:
    """The match as the database holds it after ``values`` were written over ``row``."""
    return WarmMatch(replace(row, **{k: v for k, v in values.items() if k in _ROW_FIELDS}), state)


class WarmMatches:
    """A bounded, thread-safe map of match id → :class:`WarmMatch` (moves run in worker threads)."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._matches: OrderedDict[str, WarmMatch] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, match_id: str, ply: int) -> WarmMatch | None:
        """The match's warm copy, removed, if it is at ``ply``; otherwise None (and a copy at
        another ply is dropped: the player or the copy is behind, so the database decides)."""
        with self._lock:
            warm = self._matches.pop(match_id, None)
        return warm if warm is not None and warm.row.ply == ply else None

    def keep(self, warm: WarmMatch) -> None:
        """Keep a match just committed while it is in play; forget it once it is over."""
        with self._lock:
            if warm.row.status != "active":
                self._matches.pop(warm.row.id, None)
                return
            self._matches[warm.row.id] = warm
            self._matches.move_to_end(warm.row.id)
            while len(self._matches) > self.capacity:
                self._matches.popitem(last=False)

    def forget(self, match_id: str) -> None:
        """A change this copy does not know of was committed here: read it next time."""
        with self._lock:
            self._matches.pop(match_id, None)

    def __len__(self) -> int:
        return len(self._matches)
