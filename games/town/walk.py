"""Town of Stairs' walk: how a walker goes from card to card. Written once: the engine walks a
finished town with it, and the playout hints (``hints.py``) explore a town still being built.

A walker leaves a card by an action (``UR``/``UL`` climb a row and face right/left, ``rev``
turns round, ``straight`` goes on), enters the next card (the rows wrap round), collects its
event if the diary lacks it, and goes on by the card's one arrow for its colour and direction
until it meets a choice, an empty slot (only while the town is being built) or an end: the
lighthouse row, a loop, or a fifth diary card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.town.cards import EVENT_OF, OPTIONS, SUNSET

WIDTH, HEIGHT = 7, 4
COLUMNS = "abcdefg"
LIGHTHOUSE_ROW = HEIGHT + 1
DIARY_LIMIT = 5
RIGHT, LEFT = 1, -1
ENTRY_SIDE = {RIGHT: "left", LEFT: "right"}  # moving right you enter a card from its left
CLIMBS = ("UR", "UL")
# Version 2: a walk ends at the third entry into a card from one side (or the second, unless the
# walker has declined a climb with skip since its last climb).
ENTRY_LIMIT = 3

LIGHTHOUSE, LOOP, FULL_DIARY = "lighthouse", "loop", "fifth diary card"
"""How a walk ends (the engine records it in ``walk_end``)."""


class Walker:
    """Where one seat's walk stands and what it carries. ``go`` moves it on in place; ``copy``
    it to follow several choices."""

    __slots__ = ("col", "declined", "diary", "direction", "end", "entered", "options_of", "row",
                 "slot", "version")

    def __init__(self, version: int, seat: int, col: int, row: int, direction: int,
                 diary: tuple[str, ...] = (),
                 entered: dict[tuple[int, int, str], int] | None = None,
                 declined: frozenset[tuple[int, str]] = frozenset()) -> None:
        self.version = version
        self.options_of = OPTIONS[version][seat]
        self.col, self.row, self.direction = col, row, direction
        self.diary = diary
        self.entered = {} if entered is None else entered
        """(col, row, side) -> how often the walk entered that card from that side."""
        self.declined = declined
        """Corners (col, side) of this row where the walker declined a climb with ``straight``."""
        self.end: str | None = None
        """How the walk ended (see above), once it has."""
        self.slot: int | None = None
        """The empty slot the walk waits at (a town being built), if it does."""

    @classmethod
    def after(cls, version: int, seat: int, steps: Sequence[Mapping[str, Any]],
              diary: tuple[str, ...]) -> Walker:
        """The walker at the end of ``steps`` (a walk as the engine records it) with ``diary``."""
        here = steps[-1]
        entered: dict[tuple[int, int, str], int] = {}
        for step in steps:
            if step["row"] > 0:
                key = (step["col"], step["row"], step["side"])
                entered[key] = entered.get(key, 0) + 1
        row = here["row"]
        declined = frozenset((s["col"], s["side"]) for s in steps
                             if s["row"] == row and s["chosen"] and s["action"] == "straight")
        return cls(version, seat, here["col"], row, LEFT if here["dir"] == "left" else RIGHT,
                   diary, entered, declined)

    def copy(self) -> Walker:
        other = object.__new__(Walker)
        other.version, other.options_of = self.version, self.options_of
        other.col, other.row, other.direction = self.col, self.row, self.direction
        other.diary, other.entered, other.declined = self.diary, dict(self.entered), self.declined
        other.end, other.slot = self.end, self.slot
        return other

    def go(self, grid: tuple[str | None, ...], action: str, chosen: bool,
           record: list[tuple[int, int, int, str | None, str | None]] | None = None
           ) -> tuple[str, ...] | None:
        """Leave the current card by ``action`` (``chosen``: the walker's own choice, not the
        card's only arrow) and walk on to a choice, an empty slot or the end. Returns the
        options of the choice it stopped at; ``None`` when it stopped at an empty slot
        (``slot``) or the walk ended (``end``). Each card entered (but the one that closes a
        loop) is appended to ``record``, if given, as (col, row, direction, event taken, action
        left by or None where the walk stopped)."""
        col, row, direction, diary = self.col, self.row, self.direction, self.diary
        end = stop = waiting = None
        entered, declined, options_of = self.entered, self.declined, self.options_of
        # Entering a card again from the same side ends the walk in a loop. Version 1: any repeated
        # entry. Later versions: a repeated entry, unless the walker has declined a climb with
        # skip since its last climb; the ENTRY_LIMIT-th entry always.
        any_repeat = self.version == 1
        if chosen and action == "straight":
            declined = declined | {(col, ENTRY_SIDE[direction])}
        while True:
            if action in CLIMBS:
                direction, row = (RIGHT if action == "UR" else LEFT), row + 1
                declined = frozenset()
            elif action == "rev":
                direction = -direction
            col = (col + direction) % WIDTH
            if row == LIGHTHOUSE_ROW:
                diary = (*diary, SUNSET)
                if record is not None:
                    record.append((col, row, direction, SUNSET, None))
                end = LIGHTHOUSE
                break
            side = ENTRY_SIDE[direction]
            key = (col, row, side)
            before = entered.get(key, 0)
            if before and (any_repeat or before >= ENTRY_LIMIT - 1 or not declined):
                end = LOOP
                break
            slot = (row - 1) * WIDTH + col
            card = grid[slot]
            if card is None:
                waiting = slot
                break
            entered[key] = before + 1
            event = EVENT_OF[card]
            taken = None
            if event is not None and event not in diary:
                diary = (*diary, event)
                taken = event
                if len(diary) == DIARY_LIMIT:
                    if record is not None:
                        record.append((col, row, direction, taken, None))
                    end = FULL_DIARY
                    break
            options = options_of[card][0 if direction == RIGHT else 1]
            if (col, side) in declined:  # back where it declined: the climb is compulsory now
                options = tuple(a for a in options if a in CLIMBS) or options
            if len(options) > 1:
                if record is not None:
                    record.append((col, row, direction, taken, None))
                stop = options
                break
            action = options[0]
            if record is not None:
                record.append((col, row, direction, taken, action))
        self.col, self.row, self.direction, self.diary = col, row, direction, diary
        self.declined, self.end, self.slot = declined, end, waiting
        return stop
