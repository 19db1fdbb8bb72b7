"""What a bot that sees every secret scores from each seat's cards: pure, run in a worker process.

For each seat the same deal (the match's rules version, options and seed) is played again from
its start: that seat by a search that sees both deck orders and every start card (every
determinization it samples is the true position, the "full sight" bot of the bot study), every
other seat by the easy bot. Budgets are iterations only and every search is seeded from the
match id, the seat and the ply, so a finished game's report is the same on every run and every
machine. Imports only ``games``: a pool process loads nothing of the web stack.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any, TypedDict

from games import registry
from games.base import State
from games.bots import Level, choose_move
from games.bots.mcts import search
from games.bots.policies import policy_for

FULL_SIGHT_ITERATIONS = 1500
"""The bot study's budget for its full-sight ceiling (bench/results/bot-strength.md)."""
OPPONENT = Level("easy", 80, None, heuristics=False)
"""The easy bot with its iteration budget only (no clock), so its choices are reproducible."""


class SeatLuck(TypedDict):
    seat: int
    start_card: int | None
    scored: int
    full_sight: int
    difference: int


class LuckReport(TypedDict):
    version: int
    iterations: int
    opponent: str
    seats: list[SeatLuck]


class _Sighted:
    """A position whose every determinization is itself: a search over it sees all secrets."""

    def __init__(self, state: State) -> None:
        self._state = state

    def determinize(self, seat: int, rng: random.Random) -> State:
        return self._state

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


def search_seed(key: str, seat: int, ply: int) -> int:
    digest = hashlib.sha256(f"luck:{key}:{seat}:{ply}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def full_sight_move(state: State, seat: int, iterations: int, seed: int) -> str:
    """The move of a search that sees every secret of ``state``."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    sighted: Any = _Sighted(state)
    return search(sighted, seat, random.Random(seed), max_iterations=iterations,
                  policy=policy_for(state), early_stop=False).move


Chooser = Callable[[State, int, int, int], str]
"""A bot for the replayed seat: ``(state, seat, iterations, seed) -> move``."""


def play_seat(start: State, seat: int, key: str, iterations: int,
              chooser: Chooser = full_sight_move) -> int:
    """``seat``'s score when ``chooser`` (by default the full-sight bot) plays it and easy bots
    play the others."""
    state = start
    ply = 0
    while not state.is_over:
        mover = state.to_move
        assert mover is not None
        seed = search_seed(key, seat, ply)
        if mover == seat:
            move = chooser(state, seat, iterations, seed)
        else:
            move = choose_move(state, mover, OPPONENT, seed)
        state = state.play(move)
        ply += 1
    assert state.result is not None and state.result.scores is not None
    return int(state.result.scores[seat])


def luck_report(game_id: str, rules_version: int, players: int, options: dict[str, Any],
                seed: int, key: str, scores: list[int],
                iterations: int = FULL_SIGHT_ITERATIONS) -> LuckReport:
    """The report of one finished match: ``scores`` are what its seats scored, ``key`` (the
    match id) seeds the searches."""
    game = registry.get(game_id)
    start = game.replay_start(rules_version, players=players, options=options, seed=seed)
    cards = start.to_json().get("start_cards") or []
    seats: list[SeatLuck] = []
    for seat in range(players):
        best = play_seat(start, seat, key, iterations)
        seats.append({"seat": seat, "start_card": int(cards[seat]) if seat < len(cards) else None,
                      "scored": int(scores[seat]), "full_sight": best,
                      "difference": int(scores[seat]) - best})
    return {"version": 1, "iterations": iterations, "opponent": "easy", "seats": seats}
