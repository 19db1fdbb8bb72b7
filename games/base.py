"""The interface every Stepwell game engine implements.

Modelled on OpenSpiel's State API, but states are immutable values: ``play`` returns a new state and
never mutates the old one, so the service can keep a snapshot, replay a record and compare states.
Nothing here (or in any game package) may import the web app, a database or do I/O.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict


class IllegalMove(ValueError):
    """A move the rules do not allow here; ``reason`` is a readable sentence for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class GameOptions(BaseModel):
    """Base for each game's variant options; unknown options are an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class Result:
    """How a finished game ended.

    ``winners``: seats that won (several = a shared win; empty = a draw with no winner).
    ``ranking``: groups of seats from best to worst, ties in one group, e.g. ``[[1], [0]]``.
    ``scores``: one number per seat where the game scores, else ``None``.
    ``reason``: a short machine-friendly phrase, e.g. ``"highest piece"``, ``"no legal move"``.
    """

    winners: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    scores: tuple[float, ...] | None = None
    reason: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def is_draw(self) -> bool:
        return len(self.ranking) == 1 and len(self.ranking[0]) > 1

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "ranking": [list(group) for group in self.ranking],
            "scores": None if self.scores is None else list(self.scores),
            "reason": self.reason,
            "details": self.details,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        return cls(
            winners=tuple(data["winners"]),
            ranking=tuple(tuple(group) for group in data["ranking"]),
            scores=None if data.get("scores") is None else tuple(data["scores"]),
            reason=data.get("reason", ""),
            details=data.get("details", {}),
        )


class State(ABC):
    """One position of one game. Immutable: every verb that changes the game returns a new State."""

    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """Seat index whose decision it is; ``None`` once the game is over."""

    @abstractmethod
    def legal_moves(self) -> list[str]:
        """Canonical notation of every legal move, in a deterministic order."""

    @abstractmethod
    def play(self, move: str) -> State:
        """The state after ``move``; raises :class:`IllegalMove` with a reason. Never mutates."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def result(self) -> Result | None: ...

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-able position as ``seat`` may see it (``None`` = spectator); secrets removed."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full state, secrets included (server side only); ``Game.from_json`` inverts it."""

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full state consistent with everything ``seat`` knows, the unseen parts sampled by ``rng``.

        Bots search determinized states so they never read another seat's secrets. Perfect-information
        games keep this default and return ``self``.
        """
        return self

    def canonical_move(self, move: str) -> str:
        """The canonical spelling of ``move`` (forgiving of case and spaces); raises IllegalMove."""
        wanted = "".join(move.split()).lower()
        for legal in self.legal_moves():
            if legal.lower() == wanted:
                return legal
        raise IllegalMove(f"{move!r} is not a legal move here")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_json() == other.to_json()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(repr(self.to_json()))


class Game(ABC):
    """What a game is: its facts, its options, and how to start or restore a state."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[type[GameOptions]]
    hidden_information: ClassVar[bool] = False
    has_chance: ClassVar[bool] = False
    can_draw: ClassVar[bool] = False
    """Whether a game can end drawn (players may then agree to a draw)."""

    @abstractmethod
    def new_state(
        self, players: int = 2, options: dict[str, Any] | None = None, seed: int = 0
    ) -> State:
        """The initial state; ``seed`` drives every chance event so a game is reproducible."""

    @abstractmethod
    def from_json(self, data: dict[str, Any]) -> State: ...

    def parse_options(self, options: dict[str, Any] | None) -> GameOptions:
        """Validated options with defaults filled in; raises pydantic.ValidationError."""
        return self.options.model_validate(options or {})

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.title} is for {self.min_players}–{self.max_players} players, not {players}"
            )

    def describe(self) -> dict[str, Any]:
        """Catalog entry: id, title, player counts and the options' JSON schema with defaults."""
        return {
            "id": self.id,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "hidden_information": self.hidden_information,
            "can_draw": self.can_draw,
            "options": self.options.model_json_schema(),
            "defaults": self.options().model_dump(),
        }
