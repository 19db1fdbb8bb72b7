"""Scalas (Masahiro Nakajima, 2013): stack cubes in stairs and top the most squares.

A turn is one normal placement that obeys the staircase principle, then the forced placements it
causes, each recorded as its own move by the same player. The state keeps the pending forced targets
as a sorted multiset, so the player picks the order. Rules: /rules/scalas (project rules page).
"""

from __future__ import annotations

import random
from typing import Any, Literal

from games import playout
from games.base import (
    Game,
    GameOptions,
    IllegalMove,
    PublicState,
    Result,
    State,
    move_key,
    play_forced,
)
from games.preview import Change
from games.scalas import preview
from games.scalas.board import (
    COLOURS,
    FORCED_PAIRS,
    INDEX,
    NAMES,
    descent_set,
    staircase_squares,
)
from games.scalas.puzzle import PUZZLES
from games.scalas.view import ScalasView
from games.scalas.words import WORDS

MARKS = "01"  # a column is a string of seat digits, bottom to top
PASS = "pass"
PASS_SQUARE = -1
CUBES = {5: 25, 6: 36, 7: 49}


class ScalasOptions(GameOptions):
    """Board size; each player gets size × size cubes."""

    size: Literal[5, 6, 7] = 5


def _restricted(
    squares: list[int], heights: tuple[int, ...], hands: tuple[int, int], seat: int
) -> list[int]:
    """Normal placements of ``seat``: never on an empty square once the other hand is empty."""
    if hands[1 - seat]:
        return squares
    return [s for s in squares if heights[s]]


def _next_turn(
    size: int, heights: tuple[int, ...], hands: tuple[int, int], last: int
) -> tuple[int | None, list[int]]:
    """Who moves after ``last`` ends a turn, and their normal placements ([] = they must pass).

    The other player moves next while they hold cubes; otherwise ``last`` goes again. A player
    with cubes and no placement passes if the opponent can place; if neither can, the game is over.
    """
    for seat in (1 - last, last):
        if not hands[seat]:
            continue
        staircase = staircase_squares(heights, size)
        squares = _restricted(staircase, heights, hands, seat)
        if squares:
            return seat, squares
        other = 1 - seat
        if hands[other] and _restricted(staircase, heights, hands, other):
            return seat, []
        break
    return None, []


class ScalasState(PublicState):
    """One Scalas position. ``columns`` holds each square's cubes bottom to top as seat digits."""

    game_id = "scalas"
    words = WORDS

    def __init__(
        self,
        size: int,
        columns: tuple[str, ...],
        heights: tuple[int, ...],
        hands: tuple[int, int],
        to_move: int | None,
        pending: tuple[int, ...] = (),
        last_move: str | None = None,
        last_seat: int | None = None,
        ply: int = 0,
        placements: list[int] | None = None,
    ) -> None:
        self.size = size
        self.columns = columns
        self.heights = heights
        self.hands = hands
        self._to_move = to_move
        self.pending = pending
        self.last_move = last_move
        self.last_seat = last_seat
        self.ply = ply
        self._placements = placements  # cache: normal placements of to_move, not serialised
        self._view: dict[str, Any] | None = None  # PublicState's cache
        self._index: dict[str, int] | None = None
        self._result: Result | None = None

    # --- the State interface -------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return 2

    @property
    def to_move(self) -> int | None:
        return self._to_move

    @property
    def is_over(self) -> bool:
        return self._to_move is None

    @property
    def result(self) -> Result | None:
        if self._to_move is not None:
            return None
        if self._result is None:
            self._result = self._score()
        return self._result

    def legal_moves(self) -> list[str]:
        if self._to_move is None:
            return []
        return list(self._move_index())

    def _legal_lookup(self) -> dict[str, int]:
        return {} if self._to_move is None else self._move_index()

    def _normalise_move(self, text: str) -> str:
        """A square ``c3`` (also ``C 3``) or ``pass``."""
        return move_key(text)

    def play(self, move: str) -> ScalasState:
        square = self._move_index()[self.parse_move(move)]
        seat = self._to_move
        assert seat is not None
        size = self.size
        if square == PASS_SQUARE:
            following, placements = _next_turn(size, self.heights, self.hands, seat)
            return ScalasState(
                size,
                self.columns,
                self.heights,
                self.hands,
                following,
                (),
                PASS,
                seat,
                self.ply + 1,
                placements,
            )
        mark = MARKS[seat]
        columns = list(self.columns)
        columns[square] += mark
        heights = list(self.heights)
        height = heights[square] + 1
        heights[square] = height
        hands = list(self.hands)
        hands[seat] -= 1
        pending = list(self.pending)
        if pending:
            pending.remove(square)
        for between, far in FORCED_PAIRS[size][square]:
            if heights[far] == height and columns[far][-1] == mark:
                pending.append(between)
        name = NAMES[size][square]
        if pending and hands[seat]:
            pending.sort()
            return ScalasState(
                size,
                tuple(columns),
                tuple(heights),
                (hands[0], hands[1]),
                seat,
                tuple(pending),
                name,
                seat,
                self.ply + 1,
            )
        new_heights = tuple(heights)
        new_hands = (hands[0], hands[1])
        following, placements = _next_turn(size, new_heights, new_hands, seat)
        return ScalasState(
            size,
            tuple(columns),
            new_heights,
            new_hands,
            following,
            (),
            name,
            seat,
            self.ply + 1,
            placements,
        )

    def forced_move(self) -> str | None:
        """A pass is automatic: it is played for a player whose only legal move it is."""
        return PASS if self._to_move is not None and list(self._move_index()) == [PASS] else None

    def preview_changes(self, move: str, after: State, forced: list[tuple[int, str]],
                        seat: int) -> list[Change]:
        """The cube placed, the forced chain it triggers played on in the listed order, the
        passes after the turn and the squares topped (``preview.py``)."""
        if move == PASS:
            assert isinstance(after, ScalasState)
            return preview.changes(seat, [], False, [(seat, PASS), *forced],
                                   (self.tops(), after.tops()), after.result)
        placements = []
        state, square = self, move
        while True:
            dropped = state._left_pending(square) if state.hands[seat] == 1 else ()
            following = state.play(square)
            placements.append(preview.Placement(
                square, following.heights[INDEX[self.size][square]], dropped))
            state = following
            if state.to_move != seat or not state.pending:
                break
            square = state.legal_moves()[0]
        end, passed = play_forced(state)
        assert isinstance(end, ScalasState)
        return preview.changes(seat, placements, bool(self.pending), passed,
                               (self.tops(), end.tops()), end.result)

    def _left_pending(self, square: str) -> tuple[str, ...]:
        """The forced targets a placement on ``square`` would leave pending if the mover's hand
        did not run out with it (played on a copy with one cube more in that hand)."""
        seat = self._to_move
        assert seat is not None
        hands = (self.hands[0] + (seat == 0), self.hands[1] + (seat == 1))
        spare = ScalasState(self.size, self.columns, self.heights, hands, seat, self.pending,
                            self.last_move, self.last_seat, self.ply).play(square)
        names = NAMES[self.size]
        return tuple(names[s] for s in spare.pending) if spare.to_move == seat else ()

    def playout_move(self, moves: list[str], rng: random.Random) -> str:
        """Prefer placements that force further placements for the mover (each one tops a
        square) and that cover an opponent's top."""
        chosen = playout.explore(moves, rng)
        if chosen is not None:
            return chosen
        heights, columns = self.heights, self.columns
        mark = MARKS[self._to_move or 0]
        index = INDEX[self.size]
        pairs = FORCED_PAIRS[self.size]
        scores = []
        for move in moves:
            square = index.get(move)
            if square is None:
                scores.append(0.0)
                continue
            height = heights[square] + 1
            score = 0.5 if columns[square] and columns[square][-1] != mark else 0.0
            for _between, far in pairs[square]:
                if heights[far] == height and columns[far][-1] == mark:
                    score += 1
            scores.append(score)
        return playout.best(moves, scores, rng)

    def _position_view(self) -> dict[str, Any]:
        """Everything the board renderer draws (Scalas has no secrets: ``PublicState``)."""
        size = self.size
        names = NAMES[size]
        legal = self.legal_moves()
        result = self.result
        return {
            "game": "scalas",
            "size": size,
            "colours": list(COLOURS),
            "squares": [
                {
                    "name": names[i],
                    "file": i % size,
                    "rank": i // size,
                    "height": self.heights[i],
                    "column": [int(c) for c in column],
                    "top": int(column[-1]) if column else None,
                }
                for i, column in enumerate(self.columns)
            ],
            "hands": list(self.hands),
            "to_move": self._to_move,
            "phase": "forced" if self.pending else "normal",
            "pending": [names[s] for s in self.pending],
            "empty_squares_closed": self._to_move is not None and not self.hands[1 - self._to_move],
            "legal_moves": legal,
            "legal_squares": [m for m in legal if m != PASS],
            "clicks": {m: m for m in legal if m != PASS},  # what a click plays
            "to_place": 0 if self._to_move is None
            else min(len(self.pending), self.hands[self._to_move]),  # forced cubes still to place
            "bottom_level": min(self.heights),
            "last_move": None
            if self.last_move is None
            else {"move": self.last_move, "seat": self.last_seat},
            "last_marks": [] if self.last_move in (None, PASS) else [self.last_move],
            "score": self.tops(),
            "ply": self.ply,
            "is_over": self.is_over,
            "result": None if result is None else result.to_json(),
        }

    def to_json(self) -> dict[str, Any]:
        names = NAMES[self.size]
        return {
            "size": self.size,
            "columns": [[int(c) for c in column] for column in self.columns],
            "hands": list(self.hands),
            "to_move": self._to_move,
            "pending": [names[s] for s in self.pending],
            "last_move": self.last_move,
            "last_seat": self.last_seat,
            "ply": self.ply,
        }

    # --- helpers -------------------------------------------------------------------------------

    def _normal_squares(self) -> list[int]:
        if self._placements is None:
            seat = self._to_move
            assert seat is not None
            staircase = staircase_squares(self.heights, self.size)
            self._placements = _restricted(staircase, self.heights, self.hands, seat)
        return self._placements

    def _move_index(self) -> dict[str, int]:
        """Canonical move -> square index (PASS_SQUARE for a pass), in the legal order."""
        if self._index is None:
            names = NAMES[self.size]
            squares = sorted(set(self.pending)) if self.pending else self._normal_squares()
            if squares:
                self._index = {names[s]: s for s in squares}
            else:
                self._index = {PASS: PASS_SQUARE}
        return self._index

    def _why_illegal(self, move: str) -> IllegalMove:
        """Why ``move`` cannot be played here: a reason code with its parameters."""
        if self._to_move is None:
            return IllegalMove.of(WORDS, "game_over")
        text = move_key(move)
        squares = INDEX[self.size]
        if text == PASS:
            return IllegalMove.of(WORDS, "pass_not_allowed")
        if text not in squares:
            return IllegalMove.of(WORDS, "not_a_move", move=move)
        if self.pending:
            targets = ", ".join(sorted({NAMES[self.size][s] for s in self.pending}))
            return IllegalMove.of(WORDS, "forced_pending", squares=targets)
        if not self._normal_squares():
            return IllegalMove.of(WORDS, "must_pass")
        square = squares[text]
        if self.heights[square] == 0 and not self.hands[1 - (self._to_move or 0)]:
            return IllegalMove.of(WORDS, "empty_closed")
        if not descent_set(self.heights, self.size)[square]:
            return IllegalMove.of(WORDS, "no_way_down", square=text)
        return IllegalMove.of(WORDS, "breaks_staircase", square=text)

    def tops(self) -> list[int]:
        """How many squares each seat's colour tops."""
        tops = [0, 0]
        for column in self.columns:
            if column:
                tops[int(column[-1])] += 1
        return tops

    def _score(self) -> Result:
        """Most squares topped; ties go to the tallest towers, then the next height down."""
        tops = self.tops()
        details: dict[str, Any] = {"tops": tops, "decided_at_height": None}
        if tops[0] != tops[1]:
            return _ranked(tops, tops, "most_tops", details)
        for height in range(max(self.heights), 0, -1):
            counts = [0, 0]
            for column in self.columns:
                if len(column) == height:
                    counts[int(column[-1])] += 1
            if counts[0] != counts[1]:
                details["decided_at_height"] = height
                details["tops_at_height"] = counts
                return _ranked(counts, tops, "tiebreak_towers", details)
        return Result(
            winners=(),
            ranking=((0, 1),),
            scores=(tops[0], tops[1]),
            reason="draw",
            details=details,
        )


def _ranked(counts: list[int], tops: list[int], reason: str, details: dict[str, Any]) -> Result:
    winner = 0 if counts[0] > counts[1] else 1
    return Result(
        winners=(winner,),
        ranking=((winner,), (1 - winner,)),
        scores=(tops[0], tops[1]),
        reason=reason,
        details=details,
    )


class ScalasGame(Game):
    """Scalas for two players on 5×5 (25 cubes each), 6×6 (36) or 7×7 (49); red moves first."""

    id = "scalas"
    title = WORDS.title
    words = WORDS
    min_players = 2
    max_players = 2
    options = ScalasOptions
    view_model = ScalasView
    can_draw = True
    analysis_budget = 300
    """Town's budget (not measured apart)."""
    puzzles = PUZZLES

    def new_state(
        self, players: int = 2, options: dict[str, Any] | None = None, seed: int = 0
    ) -> ScalasState:
        self.check_players(players)
        parsed = self.parse_options(options)
        assert isinstance(parsed, ScalasOptions)
        size = parsed.size
        cells = size * size
        return ScalasState(size, ("",) * cells, (0,) * cells, (CUBES[size], CUBES[size]), 0)

    def from_json(self, data: dict[str, Any]) -> ScalasState:
        size = data["size"]
        columns = tuple("".join(MARKS[c] for c in column) for column in data["columns"])
        index = INDEX[size]
        return ScalasState(
            size,
            columns,
            tuple(len(column) for column in columns),
            (data["hands"][0], data["hands"][1]),
            data["to_move"],
            tuple(sorted(index[name] for name in data["pending"])),
            data.get("last_move"),
            data.get("last_seat"),
            data.get("ply", 0),
        )


GAME = ScalasGame()
