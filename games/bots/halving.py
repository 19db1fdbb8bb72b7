"""Sequential halving over the root moves, every move played out in the same sampled worlds.

A flat search for games whose tree a determinized search cannot deepen: where every iteration
samples new hidden cards (Town's deck orders), a tree node below the root mixes positions that
differ in what is on offer, so a UCT tree is flat in effect, and its root moves are compared on
different samples, each with the whole spread of the hidden cards in its noise.

This search compares the root moves *on common worlds*: world k is one determinization of what
the seat knows (``State.determinize``) and one playout seed, and every move still in the running
is played out from world k with that seed. The difference between two moves then carries little
of the spread between worlds (common random numbers), so far fewer playouts tell them apart.
The budget goes in rounds (sequential halving): each round plays every move left on the next
worlds, then keeps the better half, so the last moves standing get most of the playouts.

With a deadline the search also stops after any world once the clock has passed it; every move
left has then been played out on the same worlds, and the best mean wins. Seeded ``rng`` + a
playout budget = the same move every time. The search reads only the seat's view: the true
hidden cards never reach a playout (``determinize`` samples them afresh).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from games.base import State
from games.bots.mcts import PlayoutPolicy, SearchStats, rewards


def rank_reward(final: State, seat: int) -> float:
    """``seat``'s place in [0, 1]: 1 first, 0 last, ties sharing (``mcts.rewards``)."""
    assert final.result is not None
    return rewards(final.result, final.num_players)[seat]


def halving(
    state: State,
    seat: int,
    rng: random.Random,
    *,
    playouts: int,
    policy: PlayoutPolicy,
    deadline: float | None = None,
    reward: Callable[[State, int], float] = rank_reward,
) -> SearchStats:
    """``seat``'s move in ``state`` after about ``playouts`` playouts (see the module docstring).
    ``deadline`` is a ``time.perf_counter()`` reading."""
    start = time.perf_counter()
    moves = state.legal_moves()
    if state.to_move != seat or not moves:
        raise ValueError(f"it is not seat {seat}'s turn to choose a move")
    if len(moves) == 1:
        return SearchStats(moves[0], 0, time.perf_counter() - start, {moves[0]: 0})
    totals = dict.fromkeys(moves, 0.0)
    alive = list(moves)
    rounds = max(1, math.ceil(math.log2(len(moves))))
    worlds = 0
    played = 0
    out_of_time = False
    for _ in range(rounds):
        per_move = max(1, playouts // (rounds * len(alive)))
        for _ in range(per_move):
            world = state.determinize(seat, rng)
            seed = rng.getrandbits(64)
            for move in alive:
                totals[move] += reward(_play_out(world.play(move), policy, random.Random(seed)),
                                       seat)
            worlds += 1
            played += len(alive)
            if deadline is not None and time.perf_counter() >= deadline:
                out_of_time = True
                break
        if out_of_time:
            break
        # A stable sort: moves tied on the same worlds keep the engine's order.
        alive.sort(key=lambda move: -totals[move])
        alive = alive[: math.ceil(len(alive) / 2)]
    best = max(alive, key=lambda move: totals[move])
    return SearchStats(best, played, time.perf_counter() - start,
                       {move: worlds for move in alive})


def _play_out(state: State, policy: PlayoutPolicy, rng: random.Random) -> State:
    while not state.is_over:
        moves = state.legal_moves()
        state = state.play(moves[0] if len(moves) == 1 else policy(state, moves, rng))
    return state
