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
    """Statistics of one move in the tree: visits, and the reward summed per seat (so play can
    read the mover's and analysis every seat's)."""

    __slots__ = ("available", "children", "moves", "proven", "state", "totals", "visits")

    def __init__(self, players: int, state: State | None = None) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.totals = [0.0] * players  # summed reward of each seat over the visits
        self.available = 0  # iterations in which this move was legal at the parent
        self.state = state  # kept only when no determinization can change it
        self.moves: list[str] | None = None  # the legal moves of ``state``, when kept
        self.proven: tuple[float, ...] | None = None  # exact rewards, when the solver knows them


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
    In perfect information the solver runs too (``iterate(solve=True)``): a move proven to win is
    played, one proven to lose avoided, and the search ends when the root is proven.
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
    root = Node(players, state if perfect else None)
    iterations = 0
    while root.proven is None:  # (perfect information: the solver may settle the root)
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
        iterate(root, world, perfect, players, rng, policy, exploration, solve=perfect)
        iterations += 1

    visits = {move: child.visits for move, child in root.children.items() if move in root_moves}
    best = max(root_moves, key=lambda m: (_tier(root.children.get(m), seat), visits.get(m, 0),
                                          mean(root.children.get(m), seat)))
    return SearchStats(best, iterations, time.perf_counter() - start, visits)


def _tier(node: Node | None, seat: int) -> int:
    """A proven first place beats any count of visits, a proven last place loses to any: 2, 1
    (unproven, or proven in between), 0."""
    if node is None or node.proven is None:
        return 1
    value = node.proven[seat]
    return 2 if value >= 1.0 else 0 if value <= 0.0 else 1


def mean(node: Node | None, seat: int) -> float:
    """``seat``'s average reward through ``node`` (its exact one when proven; 0 unvisited)."""
    if node is None or not node.visits:
        return 0.0
    return node.proven[seat] if node.proven is not None else node.totals[seat] / node.visits


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


def iterate(
    root: Node,
    world: State,
    perfect: bool,
    players: int,
    rng: random.Random,
    policy: PlayoutPolicy,
    exploration: float,
    solve: bool = False,
) -> None:
    """One selection–expansion–playout–backpropagation pass through ``world`` — the one search
    loop of play (``search``) and analysis (``games.bots.analysis``).

    ``solve`` (perfect information only: nodes keep their states) adds MCTS-Solver proofs: a
    finished position is proven, a proven node is scored by its exact rewards without a playout,
    and proofs are carried up the path (``_prove``). Without it a finished position expanded is
    scored like any playout's end.
    """
    node = root
    state = world
    path: list[Node] = []
    reward: tuple[float, ...] | None = None
    while True:
        if node.proven is not None:
            reward = node.proven
            break
        if state.is_over:
            assert state.result is not None
            reward = rewards(state.result, players)
            if solve:
                node.proven = reward
            break
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
        for m in moves:
            if m in children:
                children[m].available += 1
        if untried:
            move = untried[rng.randrange(len(untried))]
            state = state.play(move)
            child = Node(players, state if perfect else None)
            child.available = 1
            children[move] = child
            path.append(child)
            node = child
            if solve and state.is_over:
                continue  # proven at the top of the loop
            break
        best_child: Node | None = None
        best_score = -math.inf
        for m in moves:
            child = children[m]
            if child.proven is not None:
                score = child.proven[mover]
            else:
                score = child.totals[mover] / child.visits + exploration * math.sqrt(
                    math.log(child.available) / child.visits
                )
            if score > best_score:
                best_score, best_child, move = score, child, m
        assert best_child is not None
        node = best_child
        state = node.state if perfect and node.state is not None else state.play(move)
        path.append(node)

    if reward is None:
        while not state.is_over:
            state = state.play(policy(state, state.legal_moves(), rng))
        assert state.result is not None
        reward = rewards(state.result, players)
    seats = range(players)
    for visited in (root, *path):
        visited.visits += 1
        totals = visited.totals
        for seat in seats:
            totals[seat] += reward[seat]
    if solve:
        _prove(root, path)


def _prove(root: Node, path: list[Node]) -> None:
    """Carry proofs up the path just walked (perfect information: a node keeps its state). A node
    is proven when its mover has a proven child giving it the best reward there is, or when every
    child is proven (the mover then takes the best of them)."""
    for node in reversed([root, *path]):
        if node.proven is not None:
            continue
        state = node.state
        if state is None or node.moves is None:
            return
        mover = state.to_move
        assert mover is not None
        children = [node.children.get(m) for m in node.moves]
        known = [c.proven for c in children if c is not None and c.proven is not None]
        winning = [value for value in known if value[mover] >= 1.0]
        if winning:
            node.proven = winning[0]
        elif len(known) == len(node.moves):
            node.proven = max(known, key=lambda value: value[mover])
        else:
            return
