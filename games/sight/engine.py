"""Sight (サイト) by Kanare Kato: place or step on an Alquerque board; pieces in sight grow.

The board is a flat tuple of 25 signed heights, one per point in index order (see ``board.py``):
``0`` empty, ``+h`` a light stack of height ``h`` (seat 0), ``-h`` a dark one (seat 1). A player
without a stack places a piece; a player with stacks steps the top piece of a tallest stack to an
adjacent empty point. Either way every friendly piece in sight of the new piece grows by one (never
the point the piece stepped from). A player with no legal move at the start of their turn loses.
"""

from __future__ import annotations

import random
import re
from typing import Any, ClassVar, Literal

from games import playout
from games.base import Game, GameOptions, IllegalMove, PublicState, Result, State, move_key
from games.preview import Change
from games.sight import preview
from games.sight.board import (
    COLOURS,
    EDGES,
    MOVE_BY_NAME,
    NEIGHBOURS,
    POINT_COUNT,
    POINT_INDEX,
    POINT_NAMES,
    RAYS,
    SIGNS,
    STEP_NAMES,
)
from games.sight.puzzle import PUZZLES
from games.sight.view import SightView
from games.sight.words import WORDS

PLACE = "place"
MOVE = "move"
_MOVE_PATTERN = re.compile(r"^([a-e][1-5])([a-e][1-5])?$")


class SightOptions(GameOptions):
    """``priority``: ``absolute`` (a blocked tallest stack means no move) or ``movable`` (the
    tallest stack among those that can move)."""

    priority: Literal["absolute", "movable"] = "absolute"


def _growth(board: tuple[int, ...], target: int, sign: int, source: int) -> tuple[int, ...]:
    """Friendly points in sight of ``target`` (first occupied point per line), except ``source``."""
    grown = []
    for ray in RAYS[target]:
        for point in ray:
            height = board[point]
            if height:
                if height * sign > 0 and point != source:
                    grown.append(point)
                break
    grown.sort()
    return tuple(grown)


def _in_sight(board: tuple[int, ...], point: int) -> list[int]:
    """Every occupied point in sight of ``point``, of either colour, in index order."""
    seen = []
    for ray in RAYS[point]:
        for other in ray:
            if board[other]:
                seen.append(other)
                break
    return sorted(seen)


class SightState(PublicState):
    """A Sight position; the phase, the movable sources and the legal moves are derived lazily."""

    game_id: ClassVar[str] = "sight"
    words = WORDS

    __slots__ = (
        "_board",
        "_last_grown",
        "_last_move",
        "_moves",
        "_phase",
        "_ply",
        "_priority",
        "_sources",
        "_turn",
        "_view",
    )

    def __init__(
        self,
        board: tuple[int, ...],
        turn: int,
        ply: int,
        priority: str,
        last_move: str | None,
        last_grown: tuple[int, ...],
    ) -> None:
        self._board = board
        self._turn = turn
        self._ply = ply
        self._priority = priority
        self._last_move = last_move
        self._last_grown = last_grown
        self._view: dict[str, Any] | None = None
        self._moves: list[str] | None = None
        self._phase = PLACE
        self._sources: dict[int, tuple[int, ...]] = {}

    # -- derived data -------------------------------------------------------------------------

    def _analyse(self) -> list[str]:
        """Work out the phase, the sources that may move (with their targets) and the moves."""
        if self._moves is not None:
            return self._moves
        board = self._board
        sign = SIGNS[self._turn]
        tallest = 0
        for height in board:
            if height * sign > tallest:
                tallest = height * sign
        if tallest < 2:
            self._phase = PLACE
            self._moves = [POINT_NAMES[p] for p in range(POINT_COUNT) if not board[p]]
            return self._moves
        self._phase = MOVE
        targets_of: dict[int, tuple[int, ...]] = {}
        for point in range(POINT_COUNT):
            if board[point] * sign >= 2:
                targets_of[point] = tuple(q for q in NEIGHBOURS[point] if not board[q])
        if self._priority == "movable":
            heights = [board[p] * sign for p, targets in targets_of.items() if targets]
            tallest = max(heights, default=0)
        self._sources = {
            point: targets
            for point, targets in targets_of.items()
            if targets and board[point] * sign == tallest
        }
        self._moves = [
            STEP_NAMES[point, target]
            for point, targets in self._sources.items()
            for target in targets
        ]
        return self._moves

    def _tallest_stacks(self) -> list[int]:
        """The stacks the priority rule picks from (movable or not), for the view."""
        self._analyse()
        if self._phase == PLACE:
            return []
        sign = SIGNS[self._turn]
        if self._priority == "movable":
            if not self._sources:
                return []
            height = self._board[next(iter(self._sources))] * sign
        else:
            height = max(h * sign for h in self._board)
        return [p for p in range(POINT_COUNT) if self._board[p] * sign == height]

    def _parse(self, move: str) -> tuple[int, int]:
        """(source or -1, target) of a move in any case, spacing and dashes; IllegalMove if
        it names no placement or step on this board (legality here is :meth:`_check`'s job)."""
        if not isinstance(move, str):
            raise IllegalMove.of(WORDS, "not_a_move", move=repr(move))
        found = MOVE_BY_NAME.get(move)
        if found is not None:
            return found
        spelled = self._normalise_move(move)
        found = MOVE_BY_NAME.get(spelled)
        if found is not None:
            return found
        if spelled == "pass":
            raise IllegalMove.of(WORDS, "no_pass")
        source, _, target = spelled.partition("-")
        if not target:  # every point is a placement (found above): this names no move
            raise IllegalMove.of(WORDS, "not_a_move", move=move)
        if source == target:
            raise IllegalMove.of(WORDS, "goes_nowhere", move=move)
        raise IllegalMove.of(WORDS, "not_adjacent", to=target, source=source)

    def _check(self, source: int, target: int) -> None:
        """Raise IllegalMove with the reason if the parsed move is not legal here."""
        self._analyse()
        if not self._moves:
            raise IllegalMove.of(WORDS, "game_over")
        board = self._board
        if source < 0:
            if self._phase == MOVE:
                raise IllegalMove.of(WORDS, "must_move_stack")
        else:
            if self._phase == PLACE:
                raise IllegalMove.of(WORDS, "must_place")
            name = POINT_NAMES[source]
            if board[source] * SIGNS[self._turn] < 2:
                raise IllegalMove.of(WORDS, "not_your_stack", square=name)
            if source not in self._sources:
                raise IllegalMove.of(WORDS, "not_tallest", square=name, squares=", ".join(
                    POINT_NAMES[p] for p in sorted(self._sources)))
        if board[target]:
            raise IllegalMove.of(WORDS, "occupied", square=POINT_NAMES[target])

    # -- the State interface --------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return 2

    @property
    def to_move(self) -> int | None:
        return None if not self._analyse() else self._turn

    @property
    def is_over(self) -> bool:
        return not self._analyse()

    @property
    def phase(self) -> str | None:
        """``place`` or ``move`` for the player to move; ``None`` once the game is over."""
        return self._phase if self._analyse() else None

    @property
    def result(self) -> Result | None:
        if self._analyse():
            return None
        loser = self._turn
        winner = 1 - loser
        return Result(
            winners=(winner,),
            ranking=((winner,), (loser,)),
            reason="no_legal_move",
            details={"loser": loser, "board_full": all(self._board)},
        )

    def legal_moves(self) -> list[str]:
        return list(self._analyse())

    def _normalise_move(self, text: str) -> str:
        """A placement ``c3`` or a step ``c3-d4`` (also ``C3 D4``, ``c3d4``)."""
        wanted = move_key(text)
        match = _MOVE_PATTERN.match(wanted)
        if match is None:
            return wanted
        source, target = match.groups()
        return source if target is None else f"{source}-{target}"

    def _why_illegal(self, text: str) -> IllegalMove:
        try:
            self._check(*self._parse(text))
        except IllegalMove as error:
            return error
        return IllegalMove.of(WORDS, "illegal", move=text)  # the rules' checks missed a reason

    def why_not(self, move: str) -> IllegalMove | None:
        """Also answers for a lone occupied point while stacks must move: whether a piece may
        be taken from it."""
        try:
            source, target = self._parse(move)
            if source < 0 and self._analyse() and self._phase == MOVE and self._board[target]:
                source, target = target, -1  # a tap on a stack: may it be picked up?
                if self._board[source] * SIGNS[self._turn] < 2:
                    raise IllegalMove.of(WORDS, "not_your_stack", square=POINT_NAMES[source])
                if source not in self._sources:
                    raise IllegalMove.of(WORDS, "not_tallest", square=POINT_NAMES[source],
                                         squares=", ".join(POINT_NAMES[p]
                                                           for p in sorted(self._sources)))
                return None
            self._check(source, target)
        except IllegalMove as error:
            return error
        return None

    def play(self, move: str) -> SightState:
        source, target = MOVE_BY_NAME[self.parse_move(move)]
        sign = SIGNS[self._turn]
        board = list(self._board)
        if source >= 0:
            board[source] -= sign
        board[target] = sign
        grown = _growth(self._board, target, sign, source)
        for point in grown:
            board[point] += sign
        name = POINT_NAMES[target] if source < 0 else STEP_NAMES[source, target]
        return SightState(tuple(board), 1 - self._turn, self._ply + 1, self._priority, name, grown)

    def playout_move(self, moves: list[str], rng: random.Random) -> str:
        """Prefer the move that grows the most friendly pieces."""
        chosen = playout.explore(moves, rng)
        if chosen is not None:
            return chosen
        board, sign = self._board, SIGNS[self._turn]
        scores = []
        for move in moves:
            source, target = MOVE_BY_NAME[move]
            scores.append(len(_growth(board, target, sign, source)))
        return playout.best(moves, scores, rng)

    def preview_changes(self, move: str, after: State, forced: list[tuple[int, str]],
                        seat: int) -> list[Change]:
        """The placement or step and the growth it causes (``preview.py``)."""
        assert isinstance(after, SightState)
        source, target = MOVE_BY_NAME[move]
        grown = _growth(self._board, target, SIGNS[self._turn], source)
        return preview.changes(self._board, after._board, source, target, grown, seat,
                               after.result)

    def growth(self, move: str) -> list[str]:
        """The points that would grow if ``move`` were played (the UI previews them on hover)."""
        source, target = MOVE_BY_NAME[self.parse_move(move)]
        grown = _growth(self._board, target, SIGNS[self._turn], source)
        return [POINT_NAMES[p] for p in grown]

    def _position_view(self) -> dict[str, Any]:
        """Everything the board renderer draws; Sight has no secrets (``PublicState``).

        ``board``: point -> ``None`` or ``{colour, height}``; ``points``/``edges``: the board's
        geometry; ``phase``: ``place``/``move``; ``tallest``: the stacks the priority rule picks
        from; ``sources``: movable point -> empty targets; ``growth``: move -> points that would
        grow; ``sight``: point -> occupied points in its sight; ``last_move``/``last_grown``.
        """
        board = self._board
        moves = self._analyse()
        sign = SIGNS[self._turn]
        growth = {}
        for move in moves:
            source, target = MOVE_BY_NAME[move]
            growth[move] = [POINT_NAMES[p] for p in _growth(board, target, sign, source)]
        result = self.result
        return {
            "game": "sight",
            "colours": list(COLOURS),
            "points": list(POINT_NAMES),
            "edges": [[POINT_NAMES[p], POINT_NAMES[q]] for p, q in EDGES],
            "board": {
                POINT_NAMES[p]: (
                    None
                    if not height
                    else {"colour": COLOURS[0 if height > 0 else 1], "height": abs(height)}
                )
                for p, height in enumerate(board)
            },
            "to_move": self.to_move,
            "phase": self.phase,
            "tallest": [POINT_NAMES[p] for p in self._tallest_stacks()],
            "sources": {
                POINT_NAMES[p]: [POINT_NAMES[q] for q in targets]
                for p, targets in (self._sources.items() if moves else ())
            },
            "legal_moves": list(moves),
            "clicks": _clicks(moves),
            "growth": growth,
            "sight": {
                POINT_NAMES[p]: [POINT_NAMES[q] for q in _in_sight(board, p)]
                for p in range(POINT_COUNT)
            },
            "last_move": self._last_move,
            "last_marks": self._last_move.split("-") if self._last_move else [],  # source?, target
            "last_grown": [POINT_NAMES[p] for p in self._last_grown],
            "ply": self._ply,
            "options": {"priority": self._priority},
            "is_over": result is not None,
            "result": None if result is None else result.to_json(),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "board": list(self._board),
            "turn": self._turn,
            "ply": self._ply,
            "options": {"priority": self._priority},
            "last_move": self._last_move,
            "last_grown": [POINT_NAMES[p] for p in self._last_grown],
        }

    def __repr__(self) -> str:
        return f"SightState({self.to_json()!r})"


def _clicks(moves: list[str]) -> dict[str, Any]:
    """What a click plays: a point to place on, or a stack to lift and then where it goes."""
    clicks: dict[str, Any] = {}
    for move in moves:
        source, target = MOVE_BY_NAME[move]
        if source < 0:  # a placement
            clicks[POINT_NAMES[target]] = move
        else:
            clicks.setdefault(POINT_NAMES[source], {})[POINT_NAMES[target]] = move
    return clicks


class SightGame(Game):
    """Sight for two players; light (seat 0) moves first on an empty board."""

    id: ClassVar[str] = "sight"
    title: ClassVar[str] = WORDS.title
    words = WORDS
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[type[GameOptions]] = SightOptions
    view_model = SightView
    puzzles = PUZZLES
    analysis_budget = 500
    """Stairs' budget: a two-player board of the same kind (not measured apart)."""

    def new_state(
        self, players: int = 2, options: dict[str, Any] | None = None, seed: int = 0
    ) -> SightState:
        self.check_players(players)
        parsed = self.parse_options(options)
        assert isinstance(parsed, SightOptions)
        return SightState((0,) * POINT_COUNT, 0, 0, parsed.priority, None, ())

    def from_json(self, data: dict[str, Any]) -> SightState:
        board = tuple(int(h) for h in data["board"])
        if len(board) != POINT_COUNT:
            raise ValueError(f"a Sight board has {POINT_COUNT} points, not {len(board)}")
        turn = int(data["turn"])
        if turn not in (0, 1):
            raise ValueError(f"turn must be 0 or 1, not {turn}")
        parsed = self.parse_options(data.get("options"))
        assert isinstance(parsed, SightOptions)
        priority = parsed.priority
        grown = tuple(POINT_INDEX[name] for name in data.get("last_grown", []))
        return SightState(
            board, turn, int(data.get("ply", 0)), priority, data.get("last_move"), grown
        )


GAME = SightGame()
