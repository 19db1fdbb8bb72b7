"""Built-in bots: legal, reproducible, quick when forced, within budget, blind to others' secrets."""

from __future__ import annotations

import dataclasses
import random
from types import SimpleNamespace

import pytest

from games import Result, registry
from games.bots import LEVELS, Level, choose_move, mcts
from games.bots import halving as halving_module
from games.bots.halving import halving
from games.bots.mcts import rewards, search
from games.bots.policies import policy_for
from games.sight.board import POINT_INDEX
from games.town import GAME as TOWN

QUICK = Level("quick", 30, None)
SETUPS = [
    ("stairs", 2, {}),
    ("stairs", 2, {"swap": True}),
    ("sight", 2, {}),
    ("scalas", 2, {"size": 5}),
    ("scalas", 2, {"size": 7}),
    ("town", 2, {}),
    ("town", 3, {}),
    ("town", 4, {}),
]


def random_position(game_id: str, players: int, options: dict, seed: int, plies: int):
    rng = random.Random(seed)
    state = registry.get(game_id).new_state(players=players, options=options, seed=seed)
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


def sight_position(points: dict[str, int], turn: int = 0):
    board = [0] * 25
    for name, height in points.items():
        board[POINT_INDEX[name]] = height
    return registry.get("sight").from_json({"board": board, "turn": turn, "ply": 10})


def _points() -> list[str]:
    return sorted(POINT_INDEX, key=POINT_INDEX.get)


@pytest.mark.parametrize(("game_id", "players", "options"), SETUPS)
def test_the_bot_plays_a_legal_move_from_random_positions(game_id, players, options):
    for seed in range(4):
        state = random_position(game_id, players, options, seed, plies=seed * 7)
        while state.is_over:
            state = random_position(game_id, players, options, seed + 100, plies=3)
        move = choose_move(state, state.to_move, QUICK, seed)
        assert move in state.legal_moves()


class Playouts:
    """Counts the search's iterations (each one a playout) and reads a clock that only moves
    when the search reads it, so budgets are checked by counting work, not by timing it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, tick: float = 0.0) -> None:
        self.count = 0
        self.readings = 0
        self.tick = tick
        real_iterate = mcts.iterate

        def counted(*args, **kwargs):
            self.count += 1
            return real_iterate(*args, **kwargs)

        monkeypatch.setattr(mcts, "iterate", counted)
        monkeypatch.setattr(mcts, "time", SimpleNamespace(perf_counter=self.perf_counter))

    def perf_counter(self) -> float:
        self.readings += 1
        return self.readings * self.tick


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_forced_move_is_returned_without_a_search(level, monkeypatch):
    # Sight, light to place and one empty point left: the only legal move.
    state = sight_position({name: (1 if i % 2 else -1) for i, name in enumerate(_points()[1:])})
    assert state.legal_moves() == ["a1"]
    playouts = Playouts(monkeypatch)
    assert choose_move(state, 0, level, seed=1) == "a1"
    assert playouts.count == 0
    choose_move(random_position("sight", 2, {}, seed=1, plies=2), 0, QUICK, seed=1)
    assert playouts.count > 0  # the counter does see a search


@pytest.mark.parametrize("game_id", registry.ids())
def test_a_seed_and_an_iteration_budget_reproduce_the_search(game_id):
    state = random_position(game_id, 2, {}, seed=3, plies=4)
    runs = [
        search(state, state.to_move, random.Random(7), max_iterations=150, policy=policy_for(state))
        for _ in range(2)
    ]
    assert runs[0].move == runs[1].move
    assert runs[0].visits == runs[1].visits
    assert runs[0].iterations == 150 or sum(runs[0].visits.values()) <= 150


def test_the_bot_blocks_the_last_stack_for_an_immediate_win_in_sight():
    # Dark's only stack (a1, height 2) can step only to b2: placing there leaves dark no move.
    state = sight_position(
        {"a1": -2, "a2": 1, "b1": 1, "c1": -1, "e5": -1, "d4": 1, "c5": -1, "e2": 1}
    )
    assert len(state.legal_moves()) > 5
    assert state.play("b2").is_over and state.play("b2").result.winners == (0,)
    assert choose_move(state, 0, Level("test", 400, None), seed=1) == "b2"


def test_the_bot_takes_a_winning_move_in_a_stairs_endgame():
    # The first position of seeded random games where some moves end the game won and some do not.
    game = registry.get("stairs")
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_state()
        while not state.is_over:
            moves = state.legal_moves()
            seat = state.to_move
            winning = [m for m in moves if _wins_at_once(state, m, seat)]
            if winning and len(winning) < len(moves):
                assert choose_move(state, seat, Level("test", 400, None), seed=2) in winning
                return
            state = state.play(rng.choice(moves))
    pytest.fail("no Stairs position with a winning move found")


def _wins_at_once(state, move: str, seat: int) -> bool:
    after = state.play(move)
    return after.is_over and after.result.winners == (seat,)


@pytest.mark.parametrize("seconds", [0.05, 0.2])
def test_the_time_budget_ends_the_search_at_its_deadline(seconds, monkeypatch):
    """A level with seconds and no iteration cap searches until its clock passes the deadline
    (one reading per iteration) and no longer: the clock here moves 1 ms per reading."""
    state = registry.get("scalas").new_state(options={"size": 7})
    playouts = Playouts(monkeypatch, tick=0.001)
    choose_move(state, 0, Level("timed", None, seconds), seed=0)
    assert 0 < playouts.count <= round(seconds / playouts.tick)
    assert playouts.count >= round(seconds / playouts.tick) // 2  # it did use its budget


def _with_other_secrets(state, seat: int, rng: random.Random):
    """The same position as ``seat`` sees it, with the true decks and hidden start cards changed."""
    data = state.to_json()
    rng.shuffle(data["path_deck"])
    rng.shuffle(data["event_deck"])
    for other in range(state.num_players):
        if other != seat and not data["walks"][other]:
            known = {data["start_cards"][s] for s in range(state.num_players) if s != other}
            data["start_cards"][other] = rng.choice([n for n in range(1, 8) if n not in known])
    return TOWN.from_json(data)


@pytest.mark.parametrize("plies", [0, 5, 12])
def test_the_town_bot_decides_from_its_own_view_only(plies):
    state = random_position("town", 3, {}, seed=plies, plies=plies)
    seat = state.to_move
    other = _with_other_secrets(state, seat, random.Random(plies))
    assert other.to_json() != state.to_json() and other.view(seat) == state.view(seat)
    runs = [search(s, seat, random.Random(5), max_iterations=120) for s in (state, other)]
    assert runs[0].move == runs[1].move and runs[0].visits == runs[1].visits


@pytest.mark.parametrize(("players", "plies"), [(4, 0), (4, 9), (3, 13), (2, 20)])
def test_the_town_halving_search_decides_from_its_own_view_only(players, plies):
    """The halving search, fed the same view with other decks and other hidden start cards,
    samples the same worlds and plays the same move: its choice depends on the view and the seed
    alone."""
    state = random_position("town", players, {}, seed=plies + players, plies=plies)
    seat = state.to_move
    assert state.flat_search and state.settled_move() is None
    other = _with_other_secrets(state, seat, random.Random(plies))
    assert other.to_json() != state.to_json() and other.view(seat) == state.view(seat)
    runs = [halving(s, seat, random.Random(7), playouts=150, policy=policy_for(s))
            for s in (state, other)]
    assert runs[0] == dataclasses.replace(runs[1], seconds=runs[0].seconds)
    hard = dataclasses.replace(LEVELS["hard"], seconds=None, playouts=150)
    assert choose_move(state, seat, hard, seed=3) == choose_move(other, seat, hard, seed=3)


def test_a_level_with_playouts_searches_town_by_halving_within_its_budget(monkeypatch):
    """In Town a level with a playout budget compares its placements on common worlds, one
    playout per move left per world, and stops at its budget."""
    state = random_position("town", 4, {}, seed=1, plies=2)
    seat = state.to_move
    moves = state.legal_moves()
    stats = halving(state, seat, random.Random(1), playouts=300, policy=policy_for(state))
    assert stats.move in moves
    assert len(moves) <= stats.iterations <= 300
    assert set(stats.visits) <= set(moves) and len(set(stats.visits.values())) == 1
    calls = []
    monkeypatch.setattr("games.bots.levels.halving", lambda *a, **k: calls.append(k) or stats)
    level = dataclasses.replace(LEVELS["hard"], playouts=1500)
    assert choose_move(state, seat, level, seed=0) == stats.move
    assert calls and calls[0]["playouts"] == 1500
    assert calls[0]["deadline"] is not None  # the level's clock still bounds it


def test_the_halving_search_stops_after_the_world_that_passes_its_deadline(monkeypatch):
    """The clock is read once a world (it moves 1 s a reading here): with a deadline 2.5 s away
    the search plays three worlds, each with every move, and picks among moves compared on the
    same worlds."""
    state = random_position("town", 4, {}, seed=2, plies=3)
    seat = state.to_move
    readings = iter(range(1000))
    monkeypatch.setattr(halving_module, "time", SimpleNamespace(
        perf_counter=lambda: float(next(readings))))
    stats = halving(state, seat, random.Random(0), playouts=10_000, policy=policy_for(state),
                    deadline=2.5)
    moves = state.legal_moves()
    assert stats.iterations == 3 * len(moves)
    assert set(stats.visits) == set(moves) and set(stats.visits.values()) == {3}


def test_rewards_follow_the_ranking_and_share_ties():
    assert rewards(Result((1,), ((1,), (0,))), 2) == (0.0, 1.0)
    assert rewards(Result((), ((0, 1),)), 2) == (0.5, 0.5)
    four = rewards(Result((2,), ((2,), (0, 3), (1,))), 4)
    assert four == pytest.approx((0.5, 0.0, 1.0, 0.5))


def test_each_state_knows_its_game():
    for game in registry.all_games():
        assert game.new_state(players=game.min_players).game_id == game.id


def test_searching_out_of_turn_is_refused():
    state = registry.get("sight").new_state()
    with pytest.raises(ValueError):
        choose_move(state, 1, "easy", 0)


def test_the_search_stops_once_it_proves_a_win_and_plays_it():
    """Perfect information: the solver proves the won Stairs position of the analysis tests long
    before the budget runs out, and the move it plays keeps the win proven."""
    from games.bots.analysis import evaluate
    from tests.analysis.games import BLUNDER_GAME, BLUNDER_PLY

    state = registry.get("stairs").new_state(2, {}, 0)
    for move in BLUNDER_GAME[: BLUNDER_PLY - 1]:
        state = state.play(move)
    seat = state.to_move
    found = search(state, seat, random.Random(3), max_iterations=20_000, policy=policy_for(state),
                   early_stop=False)  # only the proof may end it early
    assert found.iterations < 20_000
    after = evaluate(state.play(found.move), random.Random(1), 2_000)
    assert after.proven and after.values[seat] == 1.0
