"""Position evaluation for game analysis: what a position is worth to every seat, which move the
search prefers, and — where the search can prove it — the exact result.

Play (``mcts.search``) only needs the best move of one seat; analysis needs a value for every
seat (to tell how much a move cost its mover, in games of two or more players) and proofs (a won
position thrown away must read "won", not "probably won"). Both run the same search loop
(``mcts.iterate``: nodes keep one summed reward per seat); analysis turns on its solver and reads
the root:

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
- **settled moves**: where the game knows the mover's best move exactly (``State.settled_move``:
  a Town walker's way to its best diary), that is the preferred move, as the bots play it; a
  search scored by rank is indifferent between two walks that keep the same place.

Seeded ``rng`` + an iteration budget = the same analysis every time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.base import State
from games.bots.mcts import EXPLORATION, Node, PlayoutPolicy, iterate, mean, random_policy, rewards


@dataclass(frozen=True)
class Evaluation:
    """What one position is worth. ``values[seat]`` in [0, 1] (1 = first place). ``best``: the
    preferred move (None when the game is over). ``proven``: the values are exact."""

    values: tuple[float, ...]
    best: str | None
    proven: bool
    iterations: int


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
    root = Node(players, state if perfect else None)
    done = 0
    while done < iterations and root.proven is None:
        world = first if perfect or done == 0 else state.determinize(mover, rng)
        iterate(root, world, perfect, players, rng, policy, exploration, solve=perfect)
        done += 1
    if root.proven is not None:
        best = _proven_best(root, mover)
        return Evaluation(root.proven, best, True, done)
    moves = state.legal_moves()
    best = state.settled_move() or max(
        moves, key=lambda m: (_visits(root.children.get(m)), mean(root.children.get(m), mover)))
    average = tuple(total / max(1, root.visits) for total in root.totals)
    return Evaluation(average, best, False, done)


def _visits(node: Node | None) -> int:
    return 0 if node is None else node.visits


def _proven_best(root: Node, mover: int) -> str:
    proven = {m: c.proven for m, c in root.children.items() if c.proven is not None}
    return max(proven, key=lambda m: (proven[m][mover], root.children[m].visits))
