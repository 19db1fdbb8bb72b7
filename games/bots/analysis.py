"""Position evaluation for game analysis: what a position is worth to every seat, which move the
search prefers, and — where the search can prove it — the exact result.

Play (``mcts.search``) only needs the best move of one seat; analysis needs a value for every
seat (to tell how much a move cost its mover, in games of two or more players) and proofs (a won
position thrown away must read "won", not "probably won"). So this is a UCT of its own over the
same engine verbs, whose nodes keep one summed reward per seat:

- **values**: the reward vector averaged over every iteration from the root, in [0, 1] per seat
  (``mcts.rewards``). Not the preferred move's own average: with a few hundred iterations over a
  hundred moves, that one is the luckiest of many small samples and flatters the mover by 0.3 and
  more, so every opening move would have looked like a blunder (measured on the blunder game of
  tests/analysis). The root's average leans the other way (it counts the moves explored), which
  makes marks cautious rather than spurious; it converges to the same value.
- **proofs** (MCTS-Solver, perfect information only): a finished position is proven; a position
  is proven when its mover has a proven child that gives it the best possible reward, or when
  every child is proven (the mover then takes the best of them). A proven root's value is exact.
- **hidden information**: every iteration searches a determinization for the seat to move
  (``State.determinize``), so a value reflects what the mover could know — even when the
  analysis runs after the game, with everything public. Nothing is proven then.

Seeded ``rng`` + an iteration budget = the same analysis every time.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from games.base import State
from games.bots.mcts import EXPLORATION, PlayoutPolicy, random_policy, rewards


@dataclass(frozen=True)
class Evaluation:
    """What one position is worth. ``values[seat]`` in [0, 1] (1 = first place). ``best``: the
    preferred move (None when the game is over). ``proven``: the values are exact."""

    values: tuple[float, ...]
    best: str | None
    proven: bool
    iterations: int


class _Node:
    __slots__ = ("available", "children", "moves", "proven", "state", "totals", "visits")

    def __init__(self, players: int, state: State | None) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.totals = [0.0] * players
        self.available = 0
        self.state = state
        self.moves: list[str] | None = None
        self.proven: tuple[float, ...] | None = None


def evaluate(state: State, rng: random.Random, iterations: int,
             policy: PlayoutPolicy = random_policy, exploration: float = EXPLORATION) -> Evaluation:
    """Search ``state`` for ``iterations`` iterations (fewer when the root gets proven)."""
    players = state.num_players
    if state.is_over:
        assert state.result is not None
        return Evaluation(rewards(state.result, players), None, True, 0)
    mover = state.to_move
    assert mover is not None
    first = state.determinize(mover, rng)
    perfect = first is state
    root = _Node(players, state if perfect else None)
    done = 0
    while done < iterations and root.proven is None:
        world = first if perfect or done == 0 else state.determinize(mover, rng)
        _iterate(root, world, perfect, players, rng, policy, exploration)
        done += 1
    if root.proven is not None:
        best = _proven_best(root, mover)
        return Evaluation(root.proven, best, True, done)
    moves = state.legal_moves()
    best = max(moves, key=lambda m: (_visits(root.children.get(m)), _mean(root.children.get(m),
                                                                          mover)))
    mean = tuple(total / max(1, root.visits) for total in root.totals)
    return Evaluation(mean, best, False, done)


def _visits(node: _Node | None) -> int:
    return 0 if node is None else node.visits


def _mean(node: _Node | None, seat: int) -> float:
    if node is None or not node.visits:
        return 0.0
    return node.proven[seat] if node.proven is not None else node.totals[seat] / node.visits


def _proven_best(root: _Node, mover: int) -> str:
    proven = {m: c.proven for m, c in root.children.items() if c.proven is not None}
    return max(proven, key=lambda m: (proven[m][mover], root.children[m].visits))  # type: ignore[index]


def _iterate(root: _Node, world: State, perfect: bool, players: int, rng: random.Random,
             policy: PlayoutPolicy, exploration: float) -> None:
    node, state = root, world
    path: list[tuple[_Node, int]] = []  # (node reached, seat that chose the move into it)
    reward: tuple[float, ...] | None = None
    while True:
        if node.proven is not None:
            reward = node.proven
            break
        if state.is_over:
            assert state.result is not None
            reward = rewards(state.result, players)
            if perfect:
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
            child = _Node(players, state if perfect else None)
            child.available = 1
            children[move] = child
            path.append((child, mover))
            node = child
            if state.is_over:
                continue  # proven (perfect) or scored at the top of the loop
            break
        best_child, best_score, chosen = None, -math.inf, moves[0]
        for m in moves:
            child = children[m]
            if child.proven is not None:
                score = child.proven[mover]
            else:
                score = child.totals[mover] / child.visits + exploration * math.sqrt(
                    math.log(child.available) / child.visits)
            if score > best_score:
                best_score, best_child, chosen = score, child, m
        assert best_child is not None
        node = best_child
        state = node.state if perfect and node.state is not None else state.play(chosen)
        path.append((node, mover))
    if reward is None:
        while not state.is_over:
            state = state.play(policy(state, state.legal_moves(), rng))
        assert state.result is not None
        reward = rewards(state.result, players)
    root.visits += 1
    for seat in range(players):
        root.totals[seat] += reward[seat]
    for visited, _ in path:
        visited.visits += 1
        for seat in range(players):
            visited.totals[seat] += reward[seat]
    if perfect:
        _prove(root, [n for n, _ in path])


def _prove(root: _Node, path: list[_Node]) -> None:
    """Carry proofs up the path just walked (perfect information: a node keeps its state)."""
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
