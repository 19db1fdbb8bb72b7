"""Monte Carlo tree search (UCT) over the engine interface, for any Stepwell game.

The search only uses the State verbs (``to_move``, ``legal_moves``, ``play``, ``is_over``,
``result``, ``num_players``) plus ``determinize``: before every iteration the searching seat's
position is re-sampled from what that seat knows, so hidden information (secret cards) is never
read from the true state. For perfect-information games ``determinize`` returns the state itself,
and the tree keeps each node's state so that an iteration replays no moves down the tree.

Nodes are indexed by move, with an availability count per child (single-observer ISMCTS): a child
is scored against the number of iterations in which its move was legal, which is plain UCT when
every determinization offers the same moves.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from games.base import Result, State

PlayoutPolicy = Callable[[State, list[str], random.Random], str]
"""Picks the next move of a playout from the legal moves (cheap: it runs at every playout ply)."""

EXPLORATION = 0.7  # UCT constant for rewards in [0, 1]
CHECK_EVERY = 32  # iterations between early-stop tests (the clock is read every iteration)


def rewards(result: Result, players: int) -> tuple[float, ...]:
    """One reward per seat in [0, 1]: 1 for first place, 0 for last, linear between; a group of
    tied seats shares the mean of the places it covers (a two-player draw gives 0.5 each)."""
    if players < 2:
        return (1.0,) * players
    out = [0.5] * players
    place = 0
    for group in result.ranking:
        mean = place + (len(group) - 1) / 2
        for seat in group:
            out[seat] = 1.0 - mean / (players - 1)
        place += len(group)
    return tuple(out)


def random_policy(state: State, moves: list[str], rng: random.Random) -> str:
    return moves[rng.randrange(len(moves))]


class Node:
    """Statistics of one move in the tree, from the view of the seat that played it."""

    __slots__ = ("available", "children", "moves", "state", "total", "visits")

    def __init__(self, state: State | None = None) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.total = 0.0  # summed reward of the seat that made the move leading here
        self.available = 0  # iterations in which this move was legal at the parent
        self.state = state  # kept only when no determinization can change it
        self.moves: list[str] | None = None  # the legal moves of ``state``, when kept


@dataclass(frozen=True)
class SearchStats:
    """What a search did, for benchmarks and tests."""

    move: str
    iterations: int
    seconds: float
    visits: dict[str, int]


def search(
    state: State,
    seat: int,
    rng: random.Random,
    *,
    max_iterations: int | None = None,
    time_limit: float | None = None,
    deadline: float | None = None,
    policy: PlayoutPolicy = random_policy,
    exploration: float = EXPLORATION,
    early_stop: bool = True,
) -> SearchStats:
    """Search for ``seat``'s move in ``state`` until the iteration or time budget runs out.

    ``time_limit`` is in seconds from now; ``deadline`` is a ``time.perf_counter()`` reading; both
    may be given (the earlier wins). With neither nor ``max_iterations`` the search runs 1000
    iterations. ``early_stop`` ends the search once no other move can overtake the most visited one
    within the remaining budget. Seeded ``rng`` + an iteration budget = a reproducible choice.
    """
    start = time.perf_counter()
    if time_limit is not None:
        deadline = start + time_limit if deadline is None else min(deadline, start + time_limit)
    if max_iterations is None and deadline is None:
        max_iterations = 1000
    root_moves = state.legal_moves()
    if state.to_move != seat or not root_moves:
        raise ValueError(f"it is not seat {seat}'s turn to choose a move")
    if len(root_moves) == 1:
        return SearchStats(root_moves[0], 0, time.perf_counter() - start, {root_moves[0]: 0})

    first = state.determinize(seat, rng)
    perfect = first is state
    players = state.num_players
    for move in root_moves:  # a move that ends the game in first place needs no search
        after = first.play(move)
        if after.is_over and after.result is not None and rewards(after.result, players)[seat] == 1:
            return SearchStats(move, 0, time.perf_counter() - start, {move: 0})
    root = Node(state if perfect else None)
    iterations = 0
    while True:
        if max_iterations is not None and iterations >= max_iterations:
            break
        if deadline is not None or (early_stop and iterations % CHECK_EVERY == 0):
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                break
            if (
                early_stop
                and iterations % CHECK_EVERY == 0
                and iterations
                and _decided(root, iterations, now - start, max_iterations, deadline, now)
            ):
                break
        world = first if iterations == 0 or perfect else state.determinize(seat, rng)
        _iterate(root, world, perfect, players, rng, policy, exploration)
        iterations += 1

    visits = {move: child.visits for move, child in root.children.items() if move in root_moves}
    best = max(root_moves, key=lambda m: (visits.get(m, 0), _mean(root.children.get(m))))
    return SearchStats(best, iterations, time.perf_counter() - start, visits)


def _mean(node: Node | None) -> float:
    return node.total / node.visits if node is not None and node.visits else 0.0


def _decided(
    root: Node,
    iterations: int,
    elapsed: float,
    max_iterations: int | None,
    deadline: float | None,
    now: float,
) -> bool:
    """Whether the most visited root move can no longer be overtaken in the remaining budget."""
    remaining = math.inf
    if max_iterations is not None:
        remaining = max_iterations - iterations
    if deadline is not None:
        remaining = min(remaining, (deadline - now) * iterations / max(elapsed, 1e-9))
    counts = sorted((child.visits for child in root.children.values()), reverse=True)
    if len(counts) < 2:
        return False
    return counts[0] - counts[1] > remaining


def _iterate(
    root: Node,
    world: State,
    perfect: bool,
    players: int,
    rng: random.Random,
    policy: PlayoutPolicy,
    exploration: float,
) -> None:
    """One selection–expansion–playout–backpropagation pass through ``world``."""
    node = root
    state = world
    path: list[tuple[Node, int]] = []  # (child node, seat that chose its move)
    while not state.is_over:
        mover = state.to_move
        assert mover is not None
        if perfect:
            if node.moves is None:
                node.moves = state.legal_moves()
            moves = node.moves
        else:
            moves = state.legal_moves()
        children = node.children
        untried = [m for m in moves if m not in children]
        if untried:
            move = untried[rng.randrange(len(untried))]
            for m in moves:
                if m in children:
                    children[m].available += 1
            state = state.play(move)
            child = Node(state if perfect else None)
            child.available = 1
            children[move] = child
            path.append((child, mover))
            break
        best_child: Node | None = None
        best_score = -math.inf
        for m in moves:
            child = children[m]
            child.available += 1
            score = child.total / child.visits + exploration * math.sqrt(
                math.log(child.available) / child.visits
            )
            if score > best_score:
                best_score, best_child, move = score, child, m
        assert best_child is not None
        node = best_child
        state = node.state if perfect and node.state is not None else state.play(move)
        path.append((node, mover))

    while not state.is_over:
        state = state.play(policy(state, state.legal_moves(), rng))
    result = state.result
    assert result is not None
    reward = rewards(result, players)
    root.visits += 1
    for child, mover in path:
        child.visits += 1
        child.total += reward[mover]
