"""Stairs (Kanare Kato): climb one level per move onto a neighbouring stack of your own height.

Seats are people, colours are sides. The state keeps ``seat_colours`` (seat -> colour) because the
pie rule's ``swap`` exchanges colours between the seats; moves, arrivals and the board speak of
colours, while ``to_move``, ``view`` and ``result`` speak of seats.

The board is a flat tuple of 36 stacks (index ``rank * 6 + file``, so a1, b1, …, f1, a2, …, f6),
each stack a tuple of colours bottom to top. Heights and top colours ride along as tuples so that
move generation never rebuilds them; legal moves are computed once per state and cached.
"""

from __future__ import annotations

import random
from typing import Any

from games import playout
from games.base import Game, GameOptions, IllegalMove, PublicState, Result, State, move_key
from games.preview import Change
from games.stairs import preview
from games.stairs.board import (
    COLOUR_NAMES,
    DARK,
    EMPTY,
    FILES,
    LIGHT,
    NEIGHBOURS,
    SIZE,
    SQUARE_INDEX,
    SQUARES,
)
from games.stairs.explain import top_squares
from games.stairs.puzzle import PUZZLES
from games.stairs.view import StairsView
from games.stairs.words import WORDS

PIECE_LETTERS = ("L", "D")
LETTER_COLOURS = {"L": LIGHT, "D": DARK}

MOVE_NAMES = tuple(
    {j: f"{SQUARES[i]}-{SQUARES[j]}" for j in NEIGHBOURS[i]} for i in range(SIZE * SIZE)
)
PASS, SWAP = "pass", "swap"

# Checkered start: a1 light, colours alternate, every stack of height 1 (ply 0 arrivals).
START_BOARD = tuple(((i % SIZE + i // SIZE) % 2,) for i in range(SIZE * SIZE))


class StairsOptions(GameOptions):
    """``swap``: the pie rule — dark may take over light's side after light's first move."""

    swap: bool = False


def _normalise(move: str) -> str:
    """Lower case, no spaces, and ``c3d4`` or ``c-3-d4`` read as ``c3-d4``."""
    text = move_key(move)
    if len(text) == 4 and text[0] in FILES and text[2] in FILES:
        text = f"{text[:2]}-{text[2:]}"
    return text


class StairsState(PublicState):
    """One Stairs position; immutable (``play`` builds a new state)."""

    game_id = "stairs"
    words = WORDS

    __slots__ = (
        "_actions",
        "_arrivals",
        "_board",
        "_colour",
        "_heights",
        "_last_move",
        "_over",
        "_ply",
        "_seat_colours",
        "_swap_option",
        "_tops",
        "_view",
    )

    def __init__(
        self,
        board: tuple[tuple[int, ...], ...],
        colour: int,
        seat_colours: tuple[int, int],
        ply: int,
        last_move: str | None,
        arrivals: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]],
        swap_option: bool,
        heights: tuple[int, ...] | None = None,
        tops: tuple[int, ...] | None = None,
    ) -> None:
        self._board = board
        self._colour = colour  # colour to move (meaningless once over)
        self._seat_colours = seat_colours
        self._ply = ply
        self._last_move = last_move
        # _arrivals[colour][h - 1]: plies at which that colour's pieces reached height h, in order.
        self._arrivals = arrivals
        self._swap_option = swap_option
        self._heights = heights if heights is not None else tuple(len(s) for s in board)
        self._tops = tops if tops is not None else tuple(s[-1] if s else EMPTY for s in board)
        self._actions: dict[str, tuple[int, int] | str] | None = None
        self._view: dict[str, Any] | None = None
        self._over = False

    # ----- move generation (cached) -------------------------------------------------------------

    def _piece_moves(self, colour: int) -> dict[str, tuple[int, int] | str]:
        """Legal piece moves of ``colour``: lowest movable pieces only (rule 4), by square order."""
        heights, tops = self._heights, self._tops
        lowest = 1 << 30
        moves: dict[str, tuple[int, int] | str] = {}
        for i in range(SIZE * SIZE):
            if tops[i] != colour:
                continue
            h = heights[i]
            if h > lowest:
                continue
            dests = [j for j in NEIGHBOURS[i] if heights[j] == h]
            if not dests:
                continue
            if h < lowest:
                lowest = h
                moves = {}
            names = MOVE_NAMES[i]
            for j in dests:
                moves[names[j]] = (i, j)
        return moves

    def _swap_allowed(self) -> bool:
        return self._swap_option and self._ply == 1 and self._colour == DARK

    def _legal(self) -> dict[str, tuple[int, int] | str]:
        """Canonical move -> action, computed once; sets ``_over`` when neither side can move."""
        actions = self._actions
        if actions is None:
            actions = self._piece_moves(self._colour)
            if self._swap_allowed():
                actions[SWAP] = SWAP
            if not actions:
                if self._piece_moves(1 - self._colour):
                    actions = {PASS: PASS}
                else:
                    self._over = True
            self._actions = actions
        return actions

    # ----- State interface ----------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return 2

    @property
    def to_move(self) -> int | None:
        if self.is_over:
            return None
        return self._seat_colours.index(self._colour)

    @property
    def is_over(self) -> bool:
        self._legal()
        return self._over

    def legal_moves(self) -> list[str]:
        return list(self._legal())

    def _legal_lookup(self) -> dict[str, Any]:
        return self._legal()

    def _normalise_move(self, text: str) -> str:
        """``c3-d4`` (also ``C3 D4``, ``c3d4``), ``pass`` or ``swap``."""
        return _normalise(text)

    def play(self, move: str) -> StairsState:
        action = self._legal()[self.parse_move(move)]
        if action == PASS:
            return self._next(self._board, 1 - self._colour, self._seat_colours, PASS)
        if action == SWAP:
            swapped = (self._seat_colours[1], self._seat_colours[0])
            return self._next(self._board, self._colour, swapped, SWAP)
        return self._move_piece(*action)

    def _next(
        self, board: tuple[tuple[int, ...], ...], colour: int, seat_colours: tuple[int, int], move: str
    ) -> StairsState:
        """A state after a pass or swap: the pieces stay where they are."""
        return StairsState(
            board,
            colour,
            seat_colours,
            self._ply + 1,
            move,
            self._arrivals,
            self._swap_option,
            self._heights,
            self._tops,
        )

    def _move_piece(self, source: int, target: int) -> StairsState:
        colour = self._colour
        board = list(self._board)
        left = board[source][:-1]
        board[source] = left
        board[target] = board[target] + (colour,)
        heights = list(self._heights)
        heights[source] -= 1
        new_height = heights[target] = heights[target] + 1
        tops = list(self._tops)
        tops[source] = left[-1] if left else EMPTY
        tops[target] = colour
        ply = self._ply + 1
        mine = self._arrivals[colour]
        if len(mine) < new_height:
            mine = (*mine, (ply,))
        else:
            mine = (*mine[: new_height - 1], (*mine[new_height - 1], ply), *mine[new_height:])
        arrivals = (mine, self._arrivals[1]) if colour == LIGHT else (self._arrivals[0], mine)
        return StairsState(
            tuple(board),
            1 - colour,
            self._seat_colours,
            ply,
            MOVE_NAMES[source][target],
            arrivals,
            self._swap_option,
            tuple(heights),
            tuple(tops),
        )

    def _why_illegal(self, move: str) -> IllegalMove:
        """Why ``move`` (not legal here) is refused: a reason code with its parameters."""
        text = _normalise(move)
        actions = self._legal()
        if self._over:
            return IllegalMove.of(WORDS, "game_over")
        if text == PASS:
            return IllegalMove.of(WORDS, "pass_not_allowed")
        if text == SWAP:
            if not self._swap_option:
                return IllegalMove.of(WORDS, "swap_disabled")
            return IllegalMove.of(WORDS, "swap_too_late")
        parts = text.split("-")
        if len(parts) != 2 or parts[0] not in SQUARE_INDEX or parts[1] not in SQUARE_INDEX:
            return IllegalMove.of(WORDS, "not_a_move", move=move)
        if PASS in actions:
            return IllegalMove.of(WORDS, "must_pass")
        source, target = SQUARE_INDEX[parts[0]], SQUARE_INDEX[parts[1]]
        name_from, name_to = parts
        if self._tops[source] == EMPTY:
            return IllegalMove.of(WORDS, "empty_square", square=name_from)
        if self._tops[source] != self._colour:
            return IllegalMove.of(WORDS, "not_your_piece", square=name_from)
        if source == target:
            return IllegalMove.of(WORDS, "same_square")
        if target not in NEIGHBOURS[source]:
            return IllegalMove.of(WORDS, "not_neighbour", source=name_from, to=name_to)
        height, there = self._heights[source], self._heights[target]
        if there != height:
            return IllegalMove.of(WORDS, "wrong_height", source=name_from, height=height,
                                  to=name_to, to_height=there)
        return self._lower_first()

    def _why_not_source(self, source: int) -> IllegalMove | None:
        """Why the piece on ``source`` may not move at all (``None``: it may move somewhere)."""
        name = SQUARES[source]
        if self._tops[source] == EMPTY:
            return IllegalMove.of(WORDS, "empty_square", square=name)
        if self._tops[source] != self._colour:
            return IllegalMove.of(WORDS, "not_your_piece", square=name)
        height = self._heights[source]
        if not any(self._heights[j] == height for j in NEIGHBOURS[source]):
            return IllegalMove.of(WORDS, "no_destination", square=name, height=height)
        if not any(isinstance(a, tuple) and a[0] == source for a in self._legal().values()):
            return self._lower_first()
        return None

    def _lower_first(self) -> IllegalMove:
        """Rule 4 (lowest first), naming the lower pieces that can move."""
        sources = sorted({a[0] for a in self._legal().values() if isinstance(a, tuple)})
        return IllegalMove.of(WORDS, "lower_piece_first",
                              squares=", ".join(SQUARES[i] for i in sources))

    def why_not(self, move: str) -> IllegalMove | None:
        """Also answers for a lone square: whether the piece there may be picked up."""
        if isinstance(move, str) and _normalise(move) in SQUARE_INDEX:
            if self._over:
                return IllegalMove.of(WORDS, "game_over")
            if PASS in self._legal():
                return IllegalMove.of(WORDS, "must_pass")
            return self._why_not_source(SQUARE_INDEX[_normalise(move)])
        return super().why_not(move)

    def forced_move(self) -> str | None:
        """A pass is automatic: it is played for a side whose only legal move it is."""
        return PASS if list(self._legal()) == [PASS] else None

    def preview_changes(self, move: str, after: State, forced: list[tuple[int, str]],
                        seat: int) -> list[Change]:
        """Landing, covering, pieces freed or locked by the lowest-first rule, the standing
        (``preview.py``)."""
        assert isinstance(after, StairsState)
        action = self._legal()[move]
        return preview.changes(self._facts(), action, after._facts(), forced, seat,
                               after.result)

    def _facts(self) -> preview.Position:
        """What a preview reads of this position."""
        return preview.Position(self._heights, self._tops, self._seat_colours, self._colour,
                                (self._movable(LIGHT), self._movable(DARK)),
                                preview.standing(self.score_now()))

    def _movable(self, colour: int) -> frozenset[int]:
        """The squares whose top piece of ``colour`` may move (lowest first applied)."""
        return frozenset(a[0] for a in self._piece_moves(colour).values() if isinstance(a, tuple))

    def playout_move(self, moves: list[str], rng: random.Random) -> str:
        """Climb onto your own stacks, and uncover the opponent's pieces rather than your own.

        Every legal piece move lands at the same height (lowest first), so height says nothing
        here; what differs is whose piece ends up buried. Measured in playouts against uniformly
        random moves (600 seeded games, bench-style): this hint wins 64 %, climbing onto own
        stacks alone 58 %, the former "climb highest" hint 50 % (it could not tell moves apart).
        """
        chosen = playout.explore(moves, rng)
        if chosen is not None:
            return chosen
        colour, board, tops, actions = self._colour, self._board, self._tops, self._legal()
        scores = []
        for move in moves:
            action = actions[move]
            if not isinstance(action, tuple):
                scores.append(0.0)
                continue
            source, target = action
            score = 1.0 if tops[target] == colour else 0.0
            stack = board[source]
            if len(stack) > 1:
                score += 0.5 if stack[-2] != colour else -0.5
            scores.append(score)
        return playout.best(moves, scores, rng)

    # ----- scoring ------------------------------------------------------------------------------

    @property
    def result(self) -> Result | None:
        return self.score_now() if self.is_over else None

    def max_height(self) -> int:
        return max(self._heights)

    def score_now(self) -> Result:
        """The winner rules applied to the current position (normal end or an agreed early end).

        H is the greatest height; whoever has a piece there wins, else more pieces there, else the
        side whose c-th piece reached H at the lower ply. Equal plies only happen in the untouched
        start position (all 18 + 18 pieces at height 1 since ply 0): light, who set up a1, wins it.
        """
        top = max(self._heights)
        counts = [0, 0]
        for i, h in enumerate(self._heights):
            if h == top:
                counts[self._tops[i]] += 1
        details: dict[str, Any] = {"max_height": top, "final": self.is_over}
        if counts[LIGHT] != counts[DARK]:
            winner = LIGHT if counts[LIGHT] > counts[DARK] else DARK
            reason = "highest_piece" if min(counts) == 0 else "most_at_top"
        else:
            c = counts[LIGHT]
            plies = [self._arrivals[colour][top - 1][c - 1] for colour in (LIGHT, DARK)]
            winner = DARK if plies[DARK] < plies[LIGHT] else LIGHT
            reason = "first_to_top"
            details["arrival_plies"] = [plies[colour] for colour in self._seat_colours]
        details["counts"] = [counts[colour] for colour in self._seat_colours]
        details["top_squares"] = top_squares(SQUARES, self._heights, self._tops, self._seat_colours)
        winning_seat = self._seat_colours.index(winner)
        return Result(
            winners=(winning_seat,),
            ranking=((winning_seat,), (1 - winning_seat,)),
            scores=None,
            reason=reason,
            details=details,
        )

    # ----- serialisation ------------------------------------------------------------------------

    def _seat_part(self, seat: int | None, shared: dict[str, Any]) -> dict[str, Any]:
        return {"seat": seat, "your_colour": None if seat is None else shared["colours"][seat]}

    def _position_view(self) -> dict[str, Any]:
        """Everything the board renderer needs (Stairs has no secrets: ``PublicState``)."""
        actions = self._legal()
        movable: dict[str, list[str]] = {}
        clicks: dict[str, dict[str, str]] = {}  # what a click plays: piece -> destination -> move
        for move, action in actions.items():
            if isinstance(action, tuple):
                movable.setdefault(SQUARES[action[0]], []).append(SQUARES[action[1]])
                clicks.setdefault(SQUARES[action[0]], {})[SQUARES[action[1]]] = move
        top = max(self._heights)
        holders = [0, 0]
        for i, h in enumerate(self._heights):
            if h == top:
                holders[self._tops[i]] += 1
        colours = [COLOUR_NAMES[c] for c in self._seat_colours]
        result = self.result
        return {
            "game": "stairs",
            "size": SIZE,
            "squares": list(SQUARES),
            "board": [[PIECE_LETTERS[c] for c in stack] for stack in self._board],
            "heights": list(self._heights),
            "colours": colours,
            "to_move": self.to_move,
            "colour_to_move": None if self._over else COLOUR_NAMES[self._colour],
            "legal_moves": list(actions),
            "movable": movable,
            "clicks": clicks,
            "must_pass": PASS in actions,
            "can_swap": SWAP in actions,
            "last_move": self._last_move,
            "last_marks": (self._last_move or "").split("-") if "-" in (self._last_move or "") else [],
            "ply": self._ply,
            "max_height": top,
            "max_height_counts": [holders[c] for c in self._seat_colours],
            "leader": self.score_now().winners[0],
            "options": {"swap": self._swap_option},
            "is_over": self._over,
            "result": None if result is None else result.to_json(),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "board": ["".join(PIECE_LETTERS[c] for c in stack) for stack in self._board],
            "colour_to_move": COLOUR_NAMES[self._colour],
            "seat_colours": [COLOUR_NAMES[c] for c in self._seat_colours],
            "ply": self._ply,
            "last_move": self._last_move,
            "arrivals": {
                COLOUR_NAMES[colour]: [list(plies) for plies in self._arrivals[colour]]
                for colour in (LIGHT, DARK)
            },
            "options": {"swap": self._swap_option},
        }

    def __repr__(self) -> str:
        return f"StairsState(ply={self._ply}, last_move={self._last_move!r})"


class StairsGame(Game):
    id = "stairs"
    title = WORDS.title
    words = WORDS
    min_players = 2
    max_players = 2
    options = StairsOptions
    view_model = StairsView
    can_score_early = True
    puzzles = PUZZLES
    analysis_budget = 500
    """A 60-ply game (61 positions) costs about 5 s of CPU at 500 iterations a position."""

    def new_state(
        self, players: int = 2, options: dict[str, Any] | None = None, seed: int = 0
    ) -> StairsState:
        self.check_players(players)
        parsed = self.parse_options(options)
        assert isinstance(parsed, StairsOptions)
        half = SIZE * SIZE // 2
        start_arrivals = (((0,) * half,), ((0,) * half,))
        return StairsState(START_BOARD, LIGHT, (LIGHT, DARK), 0, None, start_arrivals, parsed.swap)

    def from_json(self, data: dict[str, Any]) -> StairsState:
        colour_of = {name: i for i, name in enumerate(COLOUR_NAMES)}
        board = tuple(tuple(LETTER_COLOURS[letter] for letter in stack) for stack in data["board"])
        if len(board) != SIZE * SIZE:
            raise ValueError(f"a Stairs board has {SIZE * SIZE} stacks, not {len(board)}")
        first, second = data["seat_colours"]

        def arrivals_of(name: str) -> tuple[tuple[int, ...], ...]:
            return tuple(tuple(plies) for plies in data["arrivals"][name])

        light, dark = COLOUR_NAMES
        return StairsState(
            board,
            colour_of[data["colour_to_move"]],
            (colour_of[first], colour_of[second]),
            data["ply"],
            data["last_move"],
            (arrivals_of(light), arrivals_of(dark)),
            bool(data["options"]["swap"]),
        )


GAME = StairsGame()
