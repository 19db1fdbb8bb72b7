"""Town's build-phase playout hint: a builder places the card that does the most for its own walk.

A seat's walk over a town still being built runs (with the engine's rules) until it reaches an
empty slot: its *frontier*. Every walk choice met on the way is a branch, so a seat has a few
frontiers, each with the diary collected so far. A card placed on a frontier decides how that walk
goes on: an event the walker lacks fills its diary there and then, a climb lifts it a row closer to
the lighthouse, a turn may send it round into a loop. The hint scores each legal placement by the
best branch the mover's walk has after it, and only placements on the mover's own frontiers can
change that; the rest score the same. Walking the whole frontier costs one walk per placement, so a
playout ply stays cheap.

The walk itself is the engine's (``walk.py``: the same code walks every real game); this module
only reads a position's grid, the mover's start card and colour, and the rules version.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.town.cards import INTERESTS, SUNSET
from games.town.walk import CLIMBS, HEIGHT, RIGHT, WIDTH, Walker

SLOT_INDEX = {f"{'abcdefg'[i % WIDTH]}{i // WIDTH + 1}": i for i in range(WIDTH * HEIGHT)}
MAX_BRANCHES = 12  # walks explored per frontier search: a town of choices is cut short, not slow
# On a finished town a walk forks at most a few times (at most 4 ends from any seaside card on
# 300 random 4-player towns, every colour and start): walking every choice is cheap and exact.
EXHAUSTIVE = 10**6
OPEN_BONUS = 1.0  # an open walk may still collect: worth a diary card more than one that ended
ROW_BONUS = 0.4  # each row climbed brings the lighthouse (3 points) closer


class Branch:
    """One way the walk can go (after its choices so far): the walker where it stopped."""

    __slots__ = ("slot", "value", "walker")

    def __init__(self, walker: Walker, slot: int | None, value: float) -> None:
        self.walker = walker
        self.slot = slot  # the empty slot the walk waits at; None when the walk has ended
        self.value = value


def points(diary: tuple[str, ...], seat: int) -> int:
    interests = INTERESTS[seat]
    return sum(3 if e == SUNSET else 2 if e in interests else 1 for e in diary)


def walk(grid: tuple[str | None, ...], seat: int, walker: Walker, action: str, chosen: bool,
         out: list[Branch], budget: list[int]) -> None:
    """Leave the walker's card by ``action`` and walk on (the engine's walk, ``walk.py``) until
    the walk ends or reaches an empty slot; every choice met forks the walk while ``budget``
    lasts, then the walk takes the first option. The ends and frontiers reached are appended to
    ``out``."""
    while True:
        options = walker.go(grid, action, chosen)
        if options is None:
            value: float = points(walker.diary, seat)
            if walker.slot is not None:
                value += OPEN_BONUS + ROW_BONUS * walker.row
            out.append(Branch(walker, walker.slot, value))
            return
        if budget[0] > 0:
            budget[0] -= len(options) - 1
            *others, last = options
            for choice in others:
                walk(grid, seat, walker.copy(), choice, True, out, budget)
            action, chosen = last, True  # the last branch goes on with this walker
            continue
        action, chosen = options[0], False


def branches(grid: tuple[str | None, ...], version: int, seat: int, start: int) -> list[Branch]:
    """Every way ``seat``'s walk from seaside card ``start`` (1–7) can go on this grid."""
    out: list[Branch] = []
    budget = [MAX_BRANCHES]
    for choice in CLIMBS:  # the seaside step: UR or UL into row 1
        walk(grid, seat, Walker(version, seat, start - 1, 0, RIGHT), choice, True, out, budget)
    return out


def placement_scores(grid: tuple[str | None, ...], version: int, seat: int, start: int,
                     moves: list[str]) -> list[float]:
    """For each placement ``CARD@slot`` in ``moves``, the best branch ``seat``'s walk has after
    it (see the module docstring)."""
    found = branches(grid, version, seat, start)
    unchanged = max(b.value for b in found)
    waiting: dict[int, list[Branch]] = {}
    for branch in found:
        if branch.slot is not None:
            waiting.setdefault(branch.slot, []).append(branch)
    if not waiting:
        return [unchanged] * len(moves)
    scores = []
    cells = list(grid)
    for move in moves:
        card, _, where = move.partition("@")
        slot = SLOT_INDEX[where]
        here = waiting.get(slot)
        if here is None:
            scores.append(unchanged)
            continue
        cells[slot] = card
        placed = tuple(cells)
        cells[slot] = None
        rest = max((b.value for b in found if b.slot != slot), default=-1.0)
        best = rest
        for branch in here:
            out: list[Branch] = []
            # Step back onto the slot's left or right neighbour and walk into the new card.
            walker = branch.walker.copy()
            walker.col = (walker.col - walker.direction) % WIDTH
            walk(placed, seat, walker, "straight", False, out, [MAX_BRANCHES // 2])
            best = max(best, *(b.value for b in out))
        scores.append(best)
    return scores


def choice_values(grid: tuple[str | None, ...], version: int, seat: int,
                  steps: Sequence[Mapping[str, Any]], diary: tuple[str, ...],
                  choices: tuple[str, ...] | list[str]) -> list[float]:
    """For each walk choice pending at the end of ``steps`` (the walker's steps so far, as the
    engine records them; ``diary`` what it has collected), the best diary score the walk can
    still reach after it, walking every later choice on the finished town: exact."""
    walker = Walker.after(version, seat, steps, diary)
    values = []
    for choice in choices:
        out: list[Branch] = []
        walk(grid, seat, walker.copy(), choice, True, out, [EXHAUSTIVE])
        values.append(max(b.value for b in out))
    return values
