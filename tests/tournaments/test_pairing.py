"""Independent checks of the pairing over simulated events (hypothesis): every player once per
round, no repeated pairing, at most one bye each and to the lowest-ranked player without one,
colours balanced; plus the tie-breaks, arena and duplicate-Town rules."""

from __future__ import annotations

import random

import networkx as nx
from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.tournaments.pairing import (
    ArenaPlayer,
    Board,
    SwissPlayer,
    SwissRecord,
    arena_on_fire,
    arena_points,
    duplicate_tables,
    pair_arena,
    pair_swiss,
    rank_points,
    ranked,
    record_board,
    seat_table,
    swiss_players,
    swiss_standings,
)
from games import registry
from tests.fixture_game import StackToeGame


def simulate(players: int, rounds: int, seed: int, withdraw: int = 0, late: int = 0
             ) -> tuple[dict[int, SwissRecord], list[list[Board]], list[list[int]]]:
    """Random results; ``withdraw`` players leave after round 1, ``late`` join before round 2.
    Returns the records, the boards of each round and who was in each round (ranked)."""
    rng = random.Random(seed)
    records = {i: SwissRecord(i, rating=rng.uniform(1000, 2000)) for i in range(1, players + 1)}
    active = set(records)
    history: list[list[Board]] = []
    orders: list[list[int]] = []
    for number in range(rounds):
        if number == 1:
            for gone in rng.sample(sorted(active), withdraw):
                active.discard(gone)
            for newcomer in range(players + 1, players + late + 1):
                records[newcomer] = SwissRecord(newcomer, rating=rng.uniform(1000, 2000))
                active.add(newcomer)
        field = swiss_players(records[i] for i in active)
        orders.append([p.id for p in ranked(field)])
        boards = pair_swiss(field)
        history.append(boards)
        for board in boards:
            record_board(records, board, rng.choice([1.0, 0.5, 0.0]))
    return records, history, orders


events = st.integers(4, 30).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(1, max(1, n // 2 - 2)), st.integers(0, 2**31),
    st.integers(0, 2), st.integers(0, 2)))


@settings(max_examples=30, deadline=None)
@given(events)
def test_swiss_never_repeats_and_gives_byes_fairly(event: tuple[int, int, int, int, int]) -> None:
    players, rounds, seed, withdraw, late = event
    records, history, orders = simulate(players, rounds, seed, withdraw, late)
    for boards, order in zip(history, orders, strict=True):
        seated = [b.white for b in boards] + [b.black for b in boards if b.black is not None]
        assert sorted(seated) == sorted(order)  # everyone in, once
        byes = [b.white for b in boards if b.black is None]
        assert len(byes) == len(order) % 2
    for record in records.values():
        opponents = [o for o, _, _ in record.games if o is not None]
        assert len(opponents) == len(set(opponents)), record
        assert sum(1 for o, _, _ in record.games if o is None) <= 1, record


@settings(max_examples=30, deadline=None)
@given(events)
@example((24, 7, 0, 0, 0))  # round 7: the lowest group had all had byes; 19 (2.0) was lower than 25
def test_the_bye_goes_to_the_lowest_ranked_who_can_have_it(event: tuple[int, int, int, int, int]
                                                       ) -> None:
    players, rounds, seed, _, _ = event
    _, history, orders = simulate(players | 1, rounds, seed)
    had_bye: set[int] = set()
    met: set[frozenset[int]] = set()
    for boards, order in zip(history, orders, strict=True):
        (bye,) = [b.white for b in boards if b.black is None]
        eligible = [p for p in order if p not in had_bye]
        assert bye in eligible
        for lower in eligible[eligible.index(bye) + 1:]:  # each lower one could not have it
            assert not pairable([p for p in order if p != lower], met), (bye, lower)
        had_bye.add(bye)
        met |= {frozenset((b.white, b.black)) for b in boards if b.black is not None}


def test_the_bye_is_not_left_to_whoever_floats_into_a_bracket_of_former_byes() -> None:
    # Brackets [1, 2, 3] and [4, 5]; 3, 4 and 5 have had a bye. 1 has met 2 and 3, so 1 floats
    # down, into a last bracket where 1 is the only one without a bye: yet 2 ranks lower and can
    # have it (1-4, 3-5).
    players = [SwissPlayer(1, 1.0, opponents=frozenset({2, 3})),
               SwissPlayer(2, 1.0, opponents=frozenset({1})),
               SwissPlayer(3, 1.0, opponents=frozenset({1}), byes=1),
               SwissPlayer(4, 0.0, byes=1), SwissPlayer(5, 0.0, byes=1)]
    boards = pair_swiss(players)
    assert [b.white for b in boards if b.black is None] == [2]
    assert {frozenset((b.white, b.black)) for b in boards if b.black is not None} == {
        frozenset((1, 4)), frozenset((3, 5))}


def pairable(players: list[int], met: set[frozenset[int]]) -> bool:
    """Whether everyone can meet someone new (an unweighted maximum matching, computed apart)."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for i, a in enumerate(players) for b in players[i + 1:]
                         if frozenset((a, b)) not in met)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(players)


@settings(max_examples=30, deadline=None)
@given(events)
def test_colours_stay_balanced(event: tuple[int, int, int, int, int]) -> None:
    players, rounds, seed, _, _ = event
    records, _, _ = simulate(players, rounds, seed)
    for record in records.values():
        seats = [seat for o, _, seat in record.games if o is not None]
        assert abs(seats.count(0) - seats.count(1)) <= 2, seats
        assert all(len(set(seats[i:i + 3])) > 1 for i in range(len(seats) - 2)), seats


def test_first_round_folds_the_field_by_rating() -> None:
    records = {i: SwissRecord(i, rating=2000 - i) for i in range(1, 9)}
    boards = pair_swiss(swiss_players(records.values()))
    assert {frozenset((b.white, b.black)) for b in boards} == {
        frozenset(p) for p in ((1, 5), (2, 6), (3, 7), (4, 8))}


def test_a_256_player_round_pairs_everyone() -> None:
    # Its time is measured by bench/tournaments.py, not here.
    records, _, _ = simulate(256, 4, 7)
    boards = pair_swiss(swiss_players(records.values()))
    assert len(boards) == 128 and all(b.black is not None for b in boards)


def test_buchholz_and_sonneborn_berger() -> None:
    # 1 beat 2 and drew 3; 2 beat 3; 3 beat 4; 4 beat 2 — scores 1.5, 1, 1.5, 1 (2 games each,
    # 4 has a bye worth one point: 4 has 2 then).
    records = {i: SwissRecord(i) for i in range(1, 5)}
    def game(a: int, b: int, result: float) -> None:
        records[a].games.append((b, result, 0))
        records[b].games.append((a, 1 - result, 1))
    game(1, 2, 1.0)
    game(1, 3, 0.5)
    game(2, 3, 1.0)
    game(3, 4, 1.0)
    records[4].games.append((None, 1.0, None))
    standings = {s.id: s for s in swiss_standings(records.values())}
    assert standings[1].score == 1.5 and standings[3].score == 1.5
    assert standings[1].buchholz == 1.0 + 1.5  # opponents 2 (1) and 3 (1.5)
    assert standings[3].buchholz == 1.5 + 1.0 + 1.0  # 1, 2, 4
    assert standings[1].sonneborn_berger == 1.0 * 1 + 1.5 * 0.5
    assert standings[3].sonneborn_berger == 1.5 * 0.5 + 1.0 * 1
    order = [s.id for s in swiss_standings(records.values())]
    assert order[0] == 3  # same score as 1, higher Buchholz
    assert standings[4].buchholz == 1.5  # the bye adds nothing


def test_arena_pairs_neighbours_and_avoids_the_last_opponent() -> None:
    waiting = [ArenaPlayer(1, 10, last_opponent=2), ArenaPlayer(2, 9, last_opponent=1),
               ArenaPlayer(3, 2), ArenaPlayer(4, 1)]
    boards = {frozenset((b.white, b.black)) for b in pair_arena(waiting, players_in=4)}
    assert boards == {frozenset((1, 3)), frozenset((2, 4))}
    assert pair_arena(waiting[:2], players_in=3) == []
    assert pair_arena(waiting[:2], players_in=2) == [Board(1, 2)]


def test_arena_streaks_double_points_until_a_game_is_not_won() -> None:
    assert arena_points([1, 1, 1, 1, 0.5, 1, 0]) == [2, 2, 4, 4, 2, 2, 0]
    assert arena_points([0.5, 1, 0, 1, 1, 0]) == [1, 2, 0, 2, 2, 0]
    assert arena_on_fire([1, 1]) and not arena_on_fire([1, 0.5])


def test_town_tables_hold_two_to_four() -> None:
    town = registry.get("town")
    assert town.table_sizes(1) == []
    assert town.table_sizes(2) == [2]
    assert town.table_sizes(5) == [3, 2]
    assert town.table_sizes(7) == [4, 3]
    assert town.table_sizes(9) == [3, 3, 3]
    assert town.table_sizes(12) == [4, 4, 4]
    for n in range(2, 60):
        sizes = town.table_sizes(n)
        assert sum(sizes) == n and all(2 <= s <= 4 for s in sizes)
    assert duplicate_tables([5, 4, 3, 2, 1], town.table_sizes(5)) == [[5, 4, 3], [2, 1]]


def test_tables_follow_the_games_player_counts() -> None:
    """Any game can be played in duplicate: its tables come from its own player counts."""
    class ThreeOrFour(StackToeGame):
        min_players, max_players = 3, 4

    game = ThreeOrFour()
    assert game.table_sizes(2) == []
    assert game.table_sizes(6) == [3, 3]
    assert game.table_sizes(7) == [4, 3]
    assert game.table_sizes(5) == [4]  # a table of 3 and one of 2 cannot be: one sits out
    for n in range(3, 60):
        sizes = game.table_sizes(n)
        assert n - sum(sizes) < 3 and all(3 <= s <= 4 for s in sizes)
        assert max(sizes) - min(sizes) <= 1
    assert duplicate_tables([5, 4, 3, 2, 1], [4]) == [[5, 4, 3, 2]]  # the last sits out


def test_seats_rotate_between_rounds() -> None:
    seats: dict[int, list[int]] = {}
    for _ in range(4):
        order = seat_table([1, 2, 3, 4], seats)
        for seat, user in enumerate(order):
            seats.setdefault(user, []).append(seat)
    assert all(sorted(s) == [0, 1, 2, 3] for s in seats.values())


def test_rank_points_share_tied_places() -> None:
    assert rank_points([[2], [0], [3], [1]], 4) == {2: 6, 0: 4, 3: 2, 1: 0}
    assert rank_points([[0, 1], [2], [3]], 4) == {0: 5, 1: 5, 2: 2, 3: 0}
    assert rank_points([[1], [0, 2]], 3) == {1: 6, 0: 1.5, 2: 1.5}
    assert rank_points([[0], [1]], 2) == {0: 6, 1: 0}
