"""What a Stairs move would do: where the piece lands and its new height, what it covers and
uncovers, which pieces of either side become movable or locked by the lowest-first rule, and the
tie-break standing before and after (top height, pieces there, who reached it first).

Pieces are compared square by square, by the colour on top: the moved piece itself is told by
``lands`` (with whether it can move again), the piece it covers is covered, not locked. Plain
data in (the engine builds a :class:`Position` of each state), change items out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.preview import Change, Ended, game_end, passes
from games.stairs.board import COLOUR_NAMES, NEIGHBOURS, SQUARES
from games.stairs.words import WORDS


@dataclass(frozen=True)
class Position:
    """What a preview reads of a Stairs position."""

    heights: tuple[int, ...]
    tops: tuple[int, ...]
    """The colour on top of each square (-1: empty)."""
    seat_colours: tuple[int, int]
    colour: int
    """The colour to move."""
    movable: tuple[frozenset[int], frozenset[int]]
    """Per colour: the squares whose top piece may move (lowest first applied)."""
    standing: dict[str, Any]
    """Who would win if the game ended here (:func:`standing`)."""


def standing(scored: Ended) -> dict[str, Any]:
    """The tie-break standing from the winner rules applied to a position (``score_now``): the
    top height, each seat's pieces at it, the seat whose last piece there arrived first (when
    the counts are equal), the leader and why."""
    details = scored.details
    leader = scored.winners[0]
    return {
        "max_height": details["max_height"],
        "counts": list(details["counts"]),
        "first": leader if scored.reason == "first_to_top" else None,
        "leader": leader,
        "reason": scored.reason,
    }


def _colour_word(colour: int) -> str:
    return WORDS.terms[COLOUR_NAMES[colour]]


def _seat_word(position: Position, seat: int) -> str:
    return _colour_word(position.seat_colours[seat])


def _moved(before: Position, after: Position, source: int, target: int) -> list[Change]:
    """The piece's landing, and what its leaving uncovers."""
    mover, covered = before.colour, before.tops[target]
    found = [Change(
        "lands", targets=(SQUARES[source], SQUARES[target]),
        params={"from": SQUARES[source], "to": SQUARES[target], "colour": COLOUR_NAMES[mover],
                "height": after.heights[target], "covers": COLOUR_NAMES[covered],
                "movable": target in after.movable[mover]},
        terms={"colour": _colour_word(mover), "covered": _colour_word(covered)})]
    left, top = after.heights[source], after.tops[source]
    if left:
        found.append(Change("uncovers", targets=(SQUARES[source],), params={
            "square": SQUARES[source], "height": left, "colour": COLOUR_NAMES[top]},
            terms={"colour": _colour_word(top)}))
    else:
        found.append(Change("uncovers", targets=(SQUARES[source],), wording="uncovers_empty",
                            params={"square": SQUARES[source], "height": 0, "colour": None}))
    return found


def _freed_and_locked(before: Position, after: Position, colour: int, moved: tuple[int, int]
                      ) -> list[Change]:
    """The pieces of ``colour`` that become movable or locked (the moved piece and the one it
    covers aside)."""
    holder = after.seat_colours.index(colour)
    was = before.movable[colour] - set(moved)
    now = after.movable[colour] - {moved[1]}
    words = {"colour": _colour_word(colour)}
    found = []
    freed = sorted(now - was)
    if freed:
        found.append(Change("movable", targets=tuple(SQUARES[i] for i in freed), params={
            "seat": holder, "colour": COLOUR_NAMES[colour],
            "squares": [SQUARES[i] for i in freed]}, terms=words))
    gone = sorted(i for i in was - now if after.tops[i] == colour)
    lowest = [i for i in gone if any(after.heights[j] == after.heights[i] for j in NEIGHBOURS[i])]
    blocked = [i for i in gone if i not in lowest]
    for squares, why in ((lowest, "lowest_first"), (blocked, "no_destination")):
        if squares:
            found.append(Change("locked", targets=tuple(SQUARES[i] for i in squares), params={
                "seat": holder, "colour": COLOUR_NAMES[colour],
                "squares": [SQUARES[i] for i in squares], "why": why},
                wording=f"locked_{why}", terms=words))
    return found


def changes(before: Position, action: tuple[int, int] | str, after: Position,
            forced: list[tuple[int, str]], seat: int, result: Ended | None) -> list[Change]:
    """The changes of a move (``action``: (source, target), ``pass`` or ``swap``) by ``seat``;
    ``after``: the position once it and the ``forced`` passes after it are played, ``result``
    its result if the game is then over."""
    found: list[Change] = []
    mover = before.colour
    moved = (-1, -1)
    if action == "swap":
        taken = after.seat_colours[seat]
        found.append(Change("swap", params={"seat": seat, "colour": COLOUR_NAMES[taken]},
                            terms={"colour": _colour_word(taken)}))
    elif isinstance(action, tuple):
        moved = action
        found.extend(_moved(before, after, *action))
    for colour in (mover, 1 - mover):
        found.extend(_freed_and_locked(before, after, colour, moved))
    found.extend(passes(forced, lambda s: _seat_word(after, s)))
    was, now = before.standing, after.standing
    light = after.seat_colours.index(0)
    found.append(Change(
        "standing",
        targets=tuple(SQUARES[i] for i, h in enumerate(after.heights) if h == now["max_height"]),
        params={"before": was, "after": now},
        wording="standing_kept" if was["leader"] == now["leader"] else "standing_flips",
        fields={"height": now["max_height"], "light": now["counts"][light],
                "dark": now["counts"][1 - light]},
        terms={"leader": _seat_word(after, now["leader"]),
               "reason": WORDS.reasons[now["reason"]]}))
    found.extend(game_end(result, lambda s: _seat_word(after, s),
                          lambda code: WORDS.reasons.get(code, code)))
    return found
