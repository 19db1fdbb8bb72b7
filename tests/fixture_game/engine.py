"""Stack-toe: tic-tac-toe on a 3×3 board where pieces stack. Place a piece on any square whose
stack is below the limit; three of your colour on top in a line wins; a full board is a draw.
Moves are square names (``b2``); the base class parses every spelling."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from games.base import Game, GameOptions, Result, State
from tests.fixture_game.words import WORDS

SQUARES = tuple(f"{file}{rank}" for rank in "123" for file in "abc")
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class StackToeOptions(GameOptions):
    limit: Literal[2, 3] = 3


class StackToeState(State):
    game_id: ClassVar[str] = "stacktoe"

    def __init__(self, stacks: tuple[str, ...], turn: int, ply: int, limit: int) -> None:
        self._stacks, self._turn, self._ply, self._limit = stacks, turn, ply, limit

    def _winner(self) -> int | None:
        tops = [stack[-1] if stack else "" for stack in self._stacks]
        for a, b, c in LINES:
            if tops[a] and tops[a] == tops[b] == tops[c]:
                return int(tops[a])
        return None

    @property
    def num_players(self) -> int:
        return 2

    @property
    def is_over(self) -> bool:
        return self._winner() is not None or not self.legal_moves()

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self._turn

    def legal_moves(self) -> list[str]:
        if self._winner() is not None:
            return []
        return [name for name, stack in zip(SQUARES, self._stacks, strict=True)
                if len(stack) < self._limit]

    def play(self, move: str) -> StackToeState:
        square = SQUARES.index(self.parse_move(move))
        stacks = list(self._stacks)
        stacks[square] += str(self._turn)
        return StackToeState(tuple(stacks), 1 - self._turn, self._ply + 1, self._limit)

    @property
    def result(self) -> Result | None:
        if not self.is_over:
            return None
        winner = self._winner()
        if winner is None:
            return Result(winners=(), ranking=((0, 1),), reason="board_full")
        return Result(winners=(winner,), ranking=((winner,), (1 - winner,)),
                      reason="three_in_a_row")

    def view(self, seat: int | None) -> dict[str, Any]:
        result = self.result
        return {"game": self.game_id, "seat": seat, "stacks": list(self._stacks),
                "to_move": self.to_move, "legal_moves": self.legal_moves(), "ply": self._ply,
                "result": None if result is None else result.to_json()}

    def to_json(self) -> dict[str, Any]:
        return {"stacks": list(self._stacks), "turn": self._turn, "ply": self._ply,
                "limit": self._limit}


class StackToeGame(Game):
    id: ClassVar[str] = "stacktoe"
    title: ClassVar[str] = WORDS.title
    words = WORDS
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[type[GameOptions]] = StackToeOptions
    can_draw: ClassVar[bool] = True

    def new_state(self, players: int = 2, options: dict[str, Any] | None = None,
                  seed: int = 0) -> StackToeState:
        self.check_players(players)
        limit = self.parse_options(options).limit  # type: ignore[attr-defined]
        return StackToeState(("",) * 9, 0, 0, limit)

    def from_json(self, data: dict[str, Any]) -> StackToeState:
        stacks = tuple(data["stacks"])
        if len(stacks) != 9 or any(set(stack) - {"0", "1"} for stack in stacks):
            raise ValueError("not a Stack-toe position")
        return StackToeState(stacks, int(data["turn"]), int(data["ply"]), int(data["limit"]))


GAME = StackToeGame()
