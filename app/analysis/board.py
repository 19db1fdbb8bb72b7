"""The analysis board: a stateless position from (game, seats, options, seed, moves), or from a
match's start and a move list — one more move played on it, nothing stored, no match touched.

Where a position comes from decides what may be seen:
- **a start the caller describes** (game, players, options, seed): everything in it came from
  the caller, so showing it hides nothing from anyone — a "public start";
- **a match's start** (``match``): its seed and options (secret ones included) stay on the
  server and are used only when the match is over, or when its game has neither hidden
  information nor chance (then the start is public anyway); a Town game in progress is refused
  (403 ``match_in_progress``), so the board can never deal its hidden cards.
The view shown is the public one, but the seat to move's in a game with hidden cards (its hand,
in Town: nothing the caller did not give, or nothing not public once the match is over).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from app.kernel.errors import Forbidden, Invalid, NotFound
from app.match import (
    GameRecordError,
    PreviewAnswer,
    change_items,
    engine_preview,
    parse_text,
    read_match,
    require_open,
    seed_text,
    validate_setup,
)
from games import State, registry
from games.base import IllegalMove, move_key

MAX_MOVES = 600
OVER = ("finished", "aborted")


@dataclass(frozen=True)
class Start:
    """Where a board position begins."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    rules_version: int | None = None
    disclosed: bool = True
    """False for a match in progress: its seed and secret options are not the caller's to see
    (app/analysis/signed.py leaves them out of the tokens it signs)."""

    def state(self) -> State:
        game = registry.get(self.game)
        if self.rules_version is not None:
            return game.replay_start(self.rules_version, self.players, self.options, self.seed)
        return game.new_state(self.players, self.options, self.seed)


def described_start(game_id: str, players: int | None, options: dict[str, Any] | None,
                    seed: int | None, rules_version: int | None = None) -> Start:
    """A start the caller describes; ``rules_version`` (a game record's) deals and plays as that
    version did, so an imported old game replays on the board."""
    setup = validate_setup(game_id, options, players)
    return Start(setup.game.id, setup.num_seats, setup.options, seed or 0, rules_version)


def match_start(session: Session, match_id: str) -> Start:
    """A match's start, for the board; refused while a game with secrets is in progress."""
    match = read_match(session, match_id)
    require_open(match)  # a duplicate table: the deal is still played at others
    game = registry.get(match.game)
    if match.status not in OVER and (game.hidden_information or game.has_chance):
        raise Forbidden("This game hides cards: its positions can be studied once it is over.",
                        code="match_in_progress")
    return Start(match.game, match.num_seats, dict(match.options or {}), match.seed,
                 match.rules_version or 1, disclosed=match.status in OVER)


@dataclass
class Line:
    """The canonical moves played from a start, and which seat made the last one (screen
    readers name the mover: "Player 1 (Light): c3 to d4")."""

    moves: list[str] = field(default_factory=list)
    last_seat: int | None = None

    def add(self, before: State, move: str) -> None:
        self.moves.append(move)
        self.last_seat = before.to_move


def replay(start: Start, moves: list[str]) -> tuple[State, Line]:
    """The position after ``moves`` (each checked by the engine, forced moves played as the
    server plays them); returns it with the canonical line."""
    if len(moves) > MAX_MOVES:
        raise Invalid(f"At most {MAX_MOVES} moves.", code="too_many_moves")
    try:
        state = start.state()
    except ValueError as error:
        raise Invalid(str(error), code="invalid_options") from None
    played = Line()
    for text in moves:
        state = play_on(state, played, text)
    return _forced(state, played), played


def play_on(state: State, played: Line, text: str) -> State:
    """``text`` played on ``state`` (after the forced moves before it); ``played`` grows by the
    canonical moves. The one place a board move is checked, from a list or a signed state."""
    state = _forced(state, played, unless=text)
    number = len(played.moves) + 1
    if len(played.moves) >= MAX_MOVES:
        raise Invalid(f"At most {MAX_MOVES} moves.", code="too_many_moves")
    if state.is_over:
        raise Invalid(f"Move {number}: the game is already over.", code="illegal_move")
    try:
        canonical = state.parse_move(text)
        after = state.play(canonical)
    except IllegalMove as error:
        raise Invalid(f"Move {number} ({text}): {error.reason}", code="illegal_move") from None
    played.add(state, canonical)
    return after


def finish_line(state: State, played: Line) -> State:
    """The moves the rules make by themselves after the last one played."""
    return _forced(state, played)


def _forced(state: State, played: Line, unless: str | None = None) -> State:
    """Play the moves the rules make by themselves, as the server does — but not one the list
    names next (a stored game records its forced moves; a list typed by hand may leave them out)."""
    while not state.is_over and (forced := state.forced_move()) is not None:
        if unless is not None and move_key(unless) == move_key(forced):
            break
        played.add(state, forced)
        state = state.play(forced)
    return state


def position(start: Start, state: State, line: Line) -> dict[str, Any]:
    """What the board page draws: a match-like payload in which the seat to move is the viewer
    (so the board takes clicks). Its view is the public one — the board keeps one orientation
    instead of turning to each mover — except in games with hidden cards, where the mover's
    hand is needed to play."""
    over = state.is_over
    seat = None if over else state.to_move
    result = state.result
    hidden = registry.get(start.game).hidden_information
    played = line.moves
    return {
        "game": start.game,
        "players": start.players,
        "moves": played,
        "ply": len(played),
        "to_move": seat,
        "your_seat": seat,
        "status": "finished" if over else "active",
        "view": state.view(seat if hidden else None),
        "legal_moves": [] if over else state.legal_moves(),
        "result": None if result is None else result.to_json(),
        "last_move": ({"ply": len(played), "move": played[-1], "seat": line.last_seat}
                      if played else None),
    }


def preview(start: Start, state: State, line: Line, move: str) -> PreviewAnswer:
    """What ``move`` would do on the board's position (``state``, after ``line``): the engine's
    changes for the seat to move, and the view the board would show after it (what
    ``position`` gives once the move is played: the board's position is the caller's to know
    entirely, see the module's docstring). A refused move is 422 ``illegal_move`` with the
    reason the match's move endpoint gives."""
    seat = state.to_move
    if seat is None:
        raise Invalid("The game is already over.", code="illegal_move")
    previewed = engine_preview(state, move, seat)
    played = Line(list(line.moves), line.last_seat)
    after = finish_line(play_on(state, played, previewed.move), played)
    return {"ply": len(line.moves), "move": previewed.move,
            "view": position(start, after, played)["view"],
            "changes": change_items(registry.get(start.game), previewed.changes)}


def imported(text: str) -> dict[str, Any]:
    """A text game record (the export format) read into board terms; every move is checked."""
    try:
        parsed = parse_text(text)
        game_id, players, options = parsed.game_id, parsed.num_seats, parsed.options
        seed, rules_version = parsed.seed, parsed.rules_version
    except (GameRecordError, ValueError, KeyError) as error:
        raise Invalid(f"This record cannot be read: {error}", code="invalid_record") from None
    try:
        registry.get(game_id)
    except registry.UnknownGame:
        raise NotFound(f"There is no game {game_id!r}.", code="no_game") from None
    start = described_start(game_id, players, options, seed, rules_version)
    try:
        _, line = replay(start, parsed.moves)
    except Invalid as error:
        raise Invalid(f"This record does not replay: {error.message}",
                      code="invalid_record") from None
    return {"game": game_id, "players": players, "options": start.options,
            "seed": seed_text(start.seed),
            "rules_version": rules_version, "moves": line.moves}
