"""What a Sight move would do: the piece placed or stepped, every friendly point in sight that
grows (the growth the board already previews on hover, as changes), and whether the mover now
holds a stack (so from its next turn it must move one rather than place). Plain data in (the
boards before and after, as the engine keeps them), change items out."""

from __future__ import annotations

from collections.abc import Sequence

from games.preview import Change, Ended, game_end
from games.sight.board import COLOURS, POINT_NAMES, SIGNS
from games.sight.words import WORDS


def _seat_word(seat: int) -> str:
    return WORDS.terms[COLOURS[seat]]


def _has_stack(board: Sequence[int], seat: int) -> bool:
    return any(height * SIGNS[seat] >= 2 for height in board)


def changes(before: Sequence[int], after: Sequence[int], source: int, target: int,
            grown: Sequence[int], seat: int, result: Ended | None) -> list[Change]:
    """The changes of the placement (``source`` -1) or step onto ``target`` by ``seat``, which
    grows the points ``grown``; ``before`` and ``after``: the boards (signed heights),
    ``result`` the result if the game is then over."""
    colour = {"colour": _seat_word(seat)}
    found: list[Change] = []
    if source < 0:
        found.append(Change("place", targets=(POINT_NAMES[target],), params={
            "point": POINT_NAMES[target], "colour": COLOURS[seat]}, terms=colour))
    else:
        found.append(Change("step", targets=(POINT_NAMES[source], POINT_NAMES[target]), params={
            "from": POINT_NAMES[source], "to": POINT_NAMES[target], "colour": COLOURS[seat],
            "left": abs(after[source])}, terms=colour))
    for point in grown:
        found.append(Change("grows", targets=(POINT_NAMES[point],), params={
            "point": POINT_NAMES[point], "height": abs(after[point]), "colour": COLOURS[seat]}))
    if not _has_stack(before, seat) and _has_stack(after, seat):
        found.append(Change("must_move_next", params={"seat": seat}))
    found.extend(game_end(result, _seat_word, lambda code: WORDS.reasons.get(code, code)))
    return found
