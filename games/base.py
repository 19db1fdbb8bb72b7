"""The interface every Stepwell game engine implements.

Modelled on OpenSpiel's State API, but states are immutable values: ``play`` returns a new state and
never mutates the old one, so the service can keep a snapshot, replay a record and compare states.
Nothing here (or in any game package) may import the web app, a database or do I/O.
"""

from __future__ import annotations

import inspect
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from games.preview import Change, Preview

COMMON_ILLEGAL: dict[str, str] = {
    "illegal": "{move} is not a legal move here",
    "game_over": "the game is over",
    "not_a_move": "{move} is not a move",
}
"""Reasons any game may give (the default ``parse_move`` gives them): code -> English template.
Their Japanese is in the site's catalog (app/match/why.py marks them); a game's own reasons
are in its ``words.illegal``."""


class IllegalMove(ValueError):
    """A move the rules do not allow here.

    ``reason`` is the readable English sentence for the player (what older code read); ``code``
    names the rule (a key of the game's ``words.illegal`` or of :data:`COMMON_ILLEGAL`) and
    ``params`` fill its template, so a client can show the reason in the player's language:
    ``words.illegal[code].format(**params) == reason``. Params are names of squares, cards and
    moves or numbers: never words that would need a translation.
    """

    def __init__(
        self, reason: str, code: str = "illegal", params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.params: dict[str, Any] = dict(params or {})

    @classmethod
    def of(cls, words: GameWords | None, code: str, **params: Any) -> IllegalMove:
        """The reason ``code`` of a game (its ``words.illegal``, else a common one), filled in."""
        template = (words.illegal.get(code) if words is not None else None) or COMMON_ILLEGAL[code]
        return cls(template.format(**params), code, params)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


def move_key(text: str) -> str:
    """``text`` with case, spaces and dashes ignored: two spellings of one move share a key.

    Every game's canonical moves must have distinct keys (the engine contract checks it).
    """
    return "".join(text.split()).replace("-", "").lower()


def N_(text: str) -> str:
    """Marks a word for people (a msgid) so ``make translations`` finds it; returns it unchanged."""
    return text


@dataclass(frozen=True)
class GameWords:
    """A game's words for people, in English. Each is the msgid of its translation in the game
    package's ``translations/<language>.po`` (``make translations`` keeps those files up to date;
    the app merges them into its one catalog). Mark every string with :func:`N_`.

    ``options``: option name -> label. ``choices``: option choice value -> label.
    ``reasons``: ``Result.reason`` code -> label. ``former_reasons``: reason text that older
    versions stored in finished games -> today's code, so old records still get a label.
    ``illegal``: :class:`IllegalMove` code -> English template with ``{param}`` fields (the
    translation keeps the same fields).
    ``changes``: a preview's change wording (``games.preview.Change.key``) -> English template
    with ``{field}`` fields. ``terms``: words those sentences use as fields (colours, events…):
    code -> English word.
    (The board's own words are msgids in its script, ``static/games/<id>/board.js``.)
    """

    title: str
    options: Mapping[str, str] = field(default_factory=dict)
    choices: Mapping[str, str] = field(default_factory=dict)
    reasons: Mapping[str, str] = field(default_factory=dict)
    former_reasons: Mapping[str, str] = field(default_factory=dict)
    illegal: Mapping[str, str] = field(default_factory=dict)
    changes: Mapping[str, str] = field(default_factory=dict)
    terms: Mapping[str, str] = field(default_factory=dict)

    def all(self) -> list[str]:
        """Every English word, once each, in declaration order."""
        words = [self.title, *self.options.values(), *self.choices.values(),
                 *self.reasons.values(), *self.illegal.values(), *self.changes.values(),
                 *self.terms.values()]
        return list(dict.fromkeys(words))


class GameOptions(BaseModel):
    """Base for each game's variant options; unknown options are an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class Result:
    """How a finished game ended.

    ``winners``: seats that won (several = a shared win; empty = a draw with no winner).
    ``ranking``: groups of seats from best to worst, ties in one group, e.g. ``[[1], [0]]``.
    ``scores``: one number per seat where the game scores, else ``None``.
    ``reason``: a code from the game's ``words.reasons``, e.g. ``"highest_piece"`` (its label,
    in every language, comes from the game's words).
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
    """One position of one game. Immutable: every verb that changes the game returns a new State.

    Besides the abstract verbs, a game may override the capability verbs below (``score_now``,
    ``forced_move``, ``playout_move``, ``determinize``); their defaults describe a game without
    that capability, so generic code (the service, the bots) never guesses from types or names.
    """

    game_id: ClassVar[str]
    """The registry id of the game this state belongs to (the same as its ``Game.id``)."""

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
        """The state after ``move`` (any spelling :meth:`parse_move` accepts); raises
        :class:`IllegalMove` with a reason. Never mutates."""

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

    def score_now(self) -> Result | None:
        """The result if the position were scored as it stands (the players agreed to end the
        game early); ``None`` for a game that cannot be scored early. A game whose
        ``Game.can_score_early`` is true returns a result for every position in play."""
        return None

    def forced_move(self) -> str | None:
        """The move the rules make by themselves here (e.g. a pass when it is the only legal
        move): the service plays and records it without asking the player. ``None`` when the
        player has a choice or the game is over."""
        return None

    def playout_move(self, moves: list[str], rng: random.Random) -> str:
        """A cheap pick among ``moves`` (this state's legal moves) for bot playouts, drawing its
        chances from ``rng``. Default uniformly random; a game overrides it with a quick greedy
        hint from its own rules (it runs at every ply of every playout, so keep it cheap)."""
        return moves[rng.randrange(len(moves))]

    def settled_move(self) -> str | None:
        """A move the rules alone show to be the mover's best, or ``None`` (the default): then a
        bot searches. Town's walker, alone on a finished town, settles its walk exactly."""
        return None

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full state consistent with everything ``seat`` knows, the unseen parts sampled by ``rng``.

        Bots search determinized states so they never read another seat's secrets. Perfect-information
        games keep this default and return ``self``.
        """
        return self

    flat_search: ClassVar[bool] = False
    """Whether the strongest bot should compare its moves on common sampled worlds
    (``games.bots.halving``) rather than grow a search tree: for a game whose hidden cards change
    what every later turn offers, so that a determinized tree cannot grow deeper than its root."""

    words: ClassVar[GameWords | None] = None
    """The game's words (its ``Game.words``), for the reasons :meth:`parse_move` gives; ``None``
    gives the common ones."""

    def parse_move(self, text: str) -> str:
        """The canonical legal move that ``text`` names here; raises :class:`IllegalMove` with a
        reason. The one parser of every game's notation: ``play``, the service, bots and clients
        all go through it.

        Forgiving of case, spaces and dashes (``C3 d4``, ``c3d4`` and ``c3-d4`` are one move).
        A game declares only what differs: where its legal moves are looked up
        (:meth:`_legal_lookup`), how a spelling reads in its notation (:meth:`_normalise_move`)
        and why a move is refused (:meth:`_why_illegal`).
        """
        if not isinstance(text, str):
            raise IllegalMove.of(self.words, "not_a_move", move=repr(text))
        legal = self._legal_lookup()
        if text in legal:  # the canonical spelling: bots and replays, at every ply of a playout
            return text
        spelled = self._normalise_move(text)
        if spelled is not None and spelled in legal:
            return spelled
        raise self._why_illegal(text)

    def _legal_lookup(self) -> Container[str]:
        """The canonical legal moves, for membership tests (a game returns a cached dict or set
        when it has one; default: :meth:`legal_moves`)."""
        return self.legal_moves()

    def _normalise_move(self, text: str) -> str | None:
        """``text`` spelt as the game's notation spells its moves, legal or not (``None``: no
        spelling found). Default: the legal move with the same :func:`move_key`; a game with
        a notation pattern spells it directly (e.g. ``C3D4`` -> ``c3-d4``)."""
        wanted = move_key(text)
        return next((move for move in self.legal_moves() if move_key(move) == wanted), None)

    def _why_illegal(self, text: str) -> IllegalMove:
        """Why ``text`` (no legal move here) is refused. A game overrides it with its own rules'
        reasons; this default knows only that the game is over or the move is not legal."""
        if not self.legal_moves():
            return IllegalMove.of(self.words, "game_over")
        return IllegalMove.of(self.words, "illegal", move=text)

    def why_not(self, move: str) -> IllegalMove | None:
        """Why ``move`` cannot be played here, or ``None`` when it can. ``move`` may also be the
        first part of a move a board builds in two taps (a Stairs or Sight piece to move): then
        ``None`` means the piece may be picked up. Never changes the state, and says nothing
        the player to move could not see (no hidden card). The default knows whole moves only.
        """
        try:
            self.parse_move(move)
        except IllegalMove as error:
            return error
        return None

    def preview(self, move: str, seat: int) -> Preview:
        """What ``move`` would do, for ``seat`` (the seat to move): the view that seat would get
        after it — the moves the rules then make by themselves played, as the server plays them
        — and the move's consequences as typed :class:`~games.preview.Change` items
        (:meth:`preview_changes`). Raises :class:`IllegalMove` as :meth:`play` does; never
        changes the state. A game with hidden information overrides it so that nothing the seat
        cannot see goes into the preview (Town previews up to a card's draw)."""
        canonical = self.parse_move(move)
        after, forced = play_forced(self.play(canonical))
        changes = self.preview_changes(canonical, after, forced, seat)
        return Preview(canonical, after.view(seat), tuple(changes))

    def preview_changes(self, move: str, after: State, forced: list[tuple[int, str]],
                        seat: int) -> list[Change]:
        """The consequences of the canonical ``move`` played here, ``after`` being the state
        once it and the ``forced`` moves that follow it (seat, move) are played. A game lists
        what its rules make hard to see (its ``preview.py``); the default lists nothing."""
        return []

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(repr(self.to_json()))


def play_forced(state: State) -> tuple[State, list[tuple[int, str]]]:
    """``state`` after the moves the rules make by themselves (``forced_move``, as the server
    plays them: a pass that is the only legal move), and those moves as (seat, move)."""
    played: list[tuple[int, str]] = []
    while not state.is_over and (forced := state.forced_move()) is not None:
        seat = state.to_move
        assert seat is not None
        played.append((seat, forced))
        state = state.play(forced)
    return state, played


class PublicState(State):
    """A state of a game without secrets: every seat sees the same position, so its view is built
    once per state (a server shows each position to both players and all spectators) and a
    seat's view only adds whose it is. A subclass sets ``self._view = None`` when built (a slot,
    if it uses slots), builds the shared part in ``_position_view`` and adds to a seat's part in
    ``_seat_part`` if it shows more than the seat."""

    _view: dict[str, Any] | None

    def view(self, seat: int | None) -> dict[str, Any]:
        shared = self._view
        if shared is None:
            shared = self._view = self._position_view()
        return {**shared, **self._seat_part(seat, shared)}

    @abstractmethod
    def _position_view(self) -> dict[str, Any]:
        """The view every seat shares (no ``seat`` key)."""

    def _seat_part(self, seat: int | None, shared: dict[str, Any]) -> dict[str, Any]:
        return {"seat": seat}


def sole_winner(state: State, seat: int) -> bool:
    """The game is over and ``seat`` alone won it."""
    result = state.result
    return state.is_over and result is not None and tuple(result.winners) == (seat,)


@dataclass(frozen=True)
class PuzzleRules:
    """What a game's puzzles prove.

    ``depth``: the most plies of choice (both sides', forced moves free) a proof may use.
    ``margin``: for a scored game, ``seat``'s lead in a position (e.g. squares it tops minus the
    opponent's); with ``gain``, a position is also the goal when the lead grew by ``gain`` or
    more since the puzzle's start and it is the solver's turn again (the gain survived the
    defence). ``None``: only a win counts.
    ``node_limit``: positions one proof may visit before it gives up (the miner stays short).
    """

    depth: int
    margin: Callable[[State, int], int] | None = None
    gain: int = 0
    node_limit: int = 60_000

    def reached(self, start: State, state: State, seat: int) -> bool:
        if state.is_over:
            return sole_winner(state, seat)
        if self.margin is None or state.to_move != seat or state is start:
            return False
        return self.margin(state, seat) - self.margin(start, seat) >= self.gain


class Game(ABC):
    """What a game is: its facts, its options, and how to start or restore a state."""

    id: ClassVar[str]
    title: ClassVar[str]
    words: ClassVar[GameWords]
    """The game's words for people (title, option labels and choices, reasons); see GameWords."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[type[GameOptions]]
    hidden_information: ClassVar[bool] = False
    has_chance: ClassVar[bool] = False
    can_draw: ClassVar[bool] = False
    """Whether a game can end drawn (players may then agree to a draw)."""
    can_score_early: ClassVar[bool] = False
    """Whether players may agree to end the game early and score the position as it stands
    (then ``State.score_now`` returns a result for every position in play)."""
    analysis_budget: ClassVar[int] = 400
    """Search iterations per position when the server analyses a finished game: one fixed
    budget per game, so a whole game's analysis stays within about 20 s of two idle workers on a
    busy 2-core machine. A game whose iterations cost more sets it lower (the measurements:
    bench/results/analysis.md)."""
    puzzles: ClassVar[PuzzleRules | None] = None
    """What this game's puzzles prove (``games/puzzles.py``): the search depth and the goal — a
    forced win, or a decisive gain of the game's score. ``None``: the game has no puzzles."""
    rules_version: ClassVar[int] = 1
    """The rules version ``new_state`` plays. A game raises it when a rule or its data changes; a
    stored match records the version it was played under and replays with ``replay_start``."""

    view_model: ClassVar[type[BaseModel] | None] = None
    """The pydantic model of every ``State.view`` this game gives (the game's ``view.py``, built
    on ``games.views.GameView``): the API publishes it with :meth:`example_view` for engine
    authors, and the engine contract checks real views against it. ``None``: undocumented."""

    def example_line(self, plies: int = 6, seed: int = 7) -> tuple[State, list[str]]:
        """A real position for the documentation: the state after ``plies`` moves of a seeded
        random playout from a seeded start with the fewest players and the default options,
        and those moves."""
        state = self.new_state(self.min_players, None, seed)
        rng = random.Random(seed)
        moves: list[str] = []
        for _ in range(plies):
            legal = state.legal_moves()
            if state.is_over or not legal:
                break
            moves.append(legal[rng.randrange(len(legal))])
            state = state.play(moves[-1])
        return state, moves

    def example_view(self, plies: int = 6, seed: int = 7) -> dict[str, Any]:
        """Seat 0's view of :meth:`example_line`'s position (the view model's example)."""
        return self.example_line(plies, seed)[0].view(0)

    @abstractmethod
    def new_state(
        self, players: int = 2, options: dict[str, Any] | None = None, seed: int = 0
    ) -> State:
        """The initial state; ``seed`` drives every chance event so a game is reproducible."""

    @abstractmethod
    def from_json(self, data: dict[str, Any]) -> State: ...

    def replay_start(
        self,
        rules_version: int,
        players: int = 2,
        options: dict[str, Any] | None = None,
        seed: int = 0,
    ) -> State:
        """The initial state of a match played under ``rules_version``, so its move log replays
        exactly under the rules it was played with. A game with one rules version knows only it."""
        if rules_version != self.rules_version:
            raise ValueError(f"{self.title} has no rules version {rules_version}")
        return self.new_state(players, options, seed)

    def draw_deal(self, seed: int) -> dict[str, Any] | None:
        """Options that fix one whole deal for the largest table, drawn from ``seed``, so that
        several tables can play the same deal (duplicate tournaments); None for a game with no
        deal to fix (the default)."""
        return None

    def table_sizes(self, players: int) -> list[int]:
        """How ``players`` split into tables that all play one deal (duplicate tournaments),
        larger tables first: as few tables as possible, each of at most ``max_players``, sizes
        differing by at most one (at most four a table: 5 -> [3, 2], 7 -> [4, 3], 9 -> [3, 3, 3]).
        When every split would leave a table below ``min_players``, the last-ranked players sit
        the round out (the sizes add up to fewer than ``players``); too few players: no table."""
        for seated in range(players, self.min_players - 1, -1):
            tables = -(-seated // self.max_players)
            base, extra = divmod(seated, tables)
            if base >= self.min_players:
                return [base + 1] * extra + [base] * (tables - extra)
        return []

    def deal_for_players(self, deal: dict[str, Any], players: int) -> dict[str, Any]:
        """The options of a ``draw_deal`` deal for a table of ``players`` (default: as drawn)."""
        return dict(deal)

    @classmethod
    def folder(cls) -> Path:
        """The game's package folder (its ``translations/`` live there)."""
        return Path(inspect.getfile(cls)).parent

    def reason_label(self, reason: str) -> str:
        """The English label of a result reason code (or of a reason text older versions stored);
        an unknown reason is returned as it is."""
        code = self.words.former_reasons.get(reason, reason)
        return self.words.reasons.get(code, reason)

    def parse_options(self, options: dict[str, Any] | None) -> GameOptions:
        """Validated options with defaults filled in; raises pydantic.ValidationError."""
        return self.options.model_validate(options or {})

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.title} is for {self.min_players}–{self.max_players} players, not {players}"
            )

    def describe(self) -> dict[str, Any]:
        """Catalog entry: id, title, player counts, capabilities, result reason codes with their
        English labels, and the options' JSON schema with defaults."""
        return {
            "id": self.id,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "hidden_information": self.hidden_information,
            "can_draw": self.can_draw,
            "can_score_early": self.can_score_early,
            "reasons": dict(self.words.reasons),
            "options": self.options.model_json_schema(),
            "defaults": self.options().model_dump(),
        }
