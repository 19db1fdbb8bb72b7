"""What a Scalas placement would do: the cube placed, then every placement of the forced chain
it triggers, in order, and the change of squares topped once the turn is over.

The player chooses the order of pending forced targets (each is a move of its own); the chain
is told in the order the engine lists them (square order), the order the board offers first.
Targets dropped because the hand ran out are told as ``chain_cut``. Plain data in (the engine
plays the turn on: ``ScalasState.preview_changes``), change items out.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.preview import Change, Ended, game_end, passes
from games.scalas.board import COLOURS
from games.scalas.words import WORDS


@dataclass(frozen=True)
class Placement:
    """One cube of the turn: where, the height it makes, and the forced targets it leaves
    undone because it was the last cube of the hand."""

    square: str
    height: int
    dropped: tuple[str, ...] = ()


def _seat_word(seat: int) -> str:
    return WORDS.terms[COLOURS[seat]]


def changes(seat: int, placements: list[Placement], forced_first: bool,
            forced: list[tuple[int, str]], tops: tuple[list[int], list[int]],
            result: Ended | None) -> list[Change]:
    """The changes of ``seat``'s placement and the chain after it (``placements``, the move
    first; ``forced_first``: the move itself was a forced placement), the passes that follow
    the turn (``forced``), the squares each seat tops before and after the turn (``tops``), and
    ``result`` if the game is then over."""
    found: list[Change] = []
    colour = {"colour": _seat_word(seat)}
    for step, placed in enumerate(placements):
        params: dict[str, object] = {"square": placed.square, "height": placed.height,
                                     "seat": seat, "colour": COLOURS[seat]}
        if step:
            found.append(Change("forced", targets=(placed.square,),
                                params={**params, "step": step}, terms=colour))
        else:
            found.append(Change("place", targets=(placed.square,),
                                params={**params, "forced": forced_first}, terms=colour))
        if placed.dropped:
            found.append(Change("chain_cut", targets=placed.dropped,
                                params={"seat": seat, "squares": list(placed.dropped)}))
    found.extend(passes(forced, _seat_word))
    before, after = tops
    found.append(Change("score", params={"before": before, "after": after},
                        fields={"red_before": before[0], "red_after": after[0],
                                "blue_before": before[1], "blue_after": after[1]}))
    found.extend(game_end(result, _seat_word, lambda code: WORDS.reasons.get(code, code)))
    return found
