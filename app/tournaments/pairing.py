"""Tournament pairing and scoring: pure functions over plain values (no database, no web).

- **Swiss** (:func:`pair_swiss`): one maximum-weight matching (networkx, Edmonds' blossom) over
  the players still in. Rules, strongest first: as many games as possible; nobody meets the same
  opponent twice; at most one bye per player, given to the lowest-ranked player who has had
  none; players meet others of their own score group (a squared score difference is paid for);
  colours (seat 0 moves first) alternate, and nobody is forced a third time to the same seat.
- **Arena** (:func:`pair_arena`, :func:`arena_points`): players waiting are paired with the
  closest in score, then rating, never the opponent they just played (unless they are the only
  two players in); a win is 2 points, a draw 1, and after two wins in a row every game scores
  double until a game is not won (Lichess).
- **Duplicate** (:func:`duplicate_tables`, :func:`seat_table`, :func:`rank_points`): tables of
  the sizes the game asks for (``Game.table_sizes``), best players together, seats rotated so a
  player sits in each seat as evenly as possible; rank points shared by tied places.
- Tie-breaks (:func:`swiss_standings`): Buchholz, then Sonneborn–Berger.

A ``result`` for a player in a game is 1 (win), 0.5 (draw) or 0 (loss); a bye scores ``BYE_POINTS``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx

BYE_POINTS = 1.0
"""A bye is a full point (FIDE's default and Lichess Swiss)."""

_BYE = -1
"""The bye's node in the matching graph (user ids are positive)."""

# Weights, each level dominating every sum of the levels below it (integers: exact matching).
_REPEAT = 10**16
_BYE_RANK = 10**11
_COLOUR_ABSOLUTE = 10**9
_GROUP = 10**6
_COLOUR = 1_000
_SPARSE_NEIGHBOURS = 6


@dataclass(frozen=True)
class SwissPlayer:
    """A player as the Swiss pairing sees them, from the rounds played so far."""

    id: int
    score: float = 0.0
    rating: float = 0.0
    colours: tuple[int, ...] = ()
    """Seats played, in order (0 = first to move, 1 = second); byes leave no colour."""
    opponents: frozenset[int] = frozenset()
    byes: int = 0


@dataclass(frozen=True)
class Board:
    """One game of a round: ``white`` moves first; ``black`` is None for a bye."""

    white: int
    black: int | None


def _colour_balance(colours: Sequence[int]) -> int:
    """Games with the first seat minus games with the second."""
    return sum(1 if c == 0 else -1 for c in colours)


def _wants(player: SwissPlayer) -> tuple[int | None, int]:
    """(seat wanted, strength): 3 absolute (else a third same seat in a row or a balance past
    ±2), 2 strong (balance ±1), 1 mild (alternation), 0 none (no game yet)."""
    if not player.colours:
        return None, 0
    balance = _colour_balance(player.colours)
    last_two = player.colours[-2:]
    if balance >= 2 or last_two == (0, 0):
        return 1, 3
    if balance <= -2 or last_two == (1, 1):
        return 0, 3
    if balance:
        return (1 if balance > 0 else 0), 2
    return 1 - player.colours[-1], 1


def _colour_penalty(a: SwissPlayer, b: SwissPlayer) -> int:
    seat_a, strength_a = _wants(a)
    seat_b, strength_b = _wants(b)
    if seat_a is None or seat_b is None or seat_a != seat_b:
        return 0
    if min(strength_a, strength_b) == 3:
        return _COLOUR_ABSOLUTE
    return _COLOUR * (strength_a + strength_b)


def _half_points(score: float) -> int:
    return round(score * 2)


def ranked(players: Iterable[SwissPlayer]) -> list[SwissPlayer]:
    """Pairing order: score, then rating, then id (the earliest entrant first)."""
    return sorted(players, key=lambda p: (-p.score, -p.rating, p.id))


def _pair_weight(a: SwissPlayer, b: SwissPlayer, rank: dict[int, int], group_size: dict[int, int]
                 ) -> int:
    gap = _half_points(a.score) - _half_points(b.score)
    weight = -_GROUP * gap * gap - _colour_penalty(a, b)
    # Inside a score group the top half meets the bottom half (the Dutch system's fold).
    ideal = group_size.get(_half_points(a.score), 2) // 2 if gap == 0 else 0
    weight -= abs(abs(rank[a.id] - rank[b.id]) - ideal) if gap == 0 else 0
    if b.id in a.opponents or a.id in b.opponents:
        weight -= _REPEAT
    return weight


def _group_sizes(order: list[SwissPlayer]) -> dict[int, int]:
    sizes: dict[int, int] = {}
    for p in order:
        sizes[_half_points(p.score)] = sizes.get(_half_points(p.score), 0) + 1
    return sizes


def _graph(pool: list[SwissPlayer], rank: dict[int, int], group_size: dict[int, int],
           odd_node: int | None, sparse: bool, allow_repeats: bool) -> nx.Graph:
    """Pairs of ``pool`` (and, when ``odd_node`` is given, one player to the bye or to float
    down: preferably the lowest ranked who has had no bye). ``sparse`` links each player only
    to its neighbours in ranking and around its fold partner."""
    graph = nx.Graph()
    half = len(pool) // 2
    for i, a in enumerate(pool):
        for j in range(i + 1, len(pool)):
            if sparse and abs(j - i) > _SPARSE_NEIGHBOURS and abs(j - i - half) > _SPARSE_NEIGHBOURS:
                continue
            b = pool[j]
            forbidden = (b.id in a.opponents or a.id in b.opponents
                         or _colour_penalty(a, b) == _COLOUR_ABSOLUTE)
            if forbidden and not allow_repeats:
                continue
            graph.add_edge(a.id, b.id, weight=_REPEAT * 4 + _pair_weight(a, b, rank, group_size))
    if odd_node is not None:
        for i, p in enumerate(pool):
            if p.byes == 0 or odd_node != _BYE:
                graph.add_edge(odd_node, p.id, weight=_REPEAT * 4 + _BYE_RANK * (i + 1))
            elif allow_repeats:
                graph.add_edge(odd_node, p.id, weight=_REPEAT * 2)
    return graph


_FLOAT = -2


def _odd_one_is_lowest(matching: set[tuple[int, int]], pool: list[SwissPlayer],
                       odd_node: int | None, bye_to: int | None) -> bool:
    """Whether the floater is the pool's lowest-ranked player, or the bye went to ``bye_to``,
    the lowest-ranked player of the whole field who has had none: a sparse graph may have had to
    pick another (then the full graph decides), and so may the last bracket, whose pool need not
    hold ``bye_to`` (it may have been paired in a bracket above while another floated down)."""
    if odd_node is None:
        return True
    chosen = next((x if y == odd_node else y for x, y in matching if odd_node in (x, y)), None)
    if odd_node == _BYE:
        return bye_to is not None and chosen == bye_to
    return bool(pool) and chosen == pool[-1].id


class _Stuck(Exception):
    """The last bracket cannot be paired as it stands."""


def _match(pool: list[SwissPlayer], rank: dict[int, int], group_size: dict[int, int],
           last: bool, allow_repeats: bool = False, bye_to: int | None = None
           ) -> tuple[set[tuple[int, int]], list[int]]:
    """Pairs of one bracket, and who floats down (not the last bracket) or is left (the last).
    ``bye_to``: who the last bracket must give the bye to (else it is stuck). The last resort
    (``allow_repeats``) takes the full graph at once: its weights alone choose the bye, and a
    sparse graph's answer could hold a repeat the full graph avoids."""
    odd_node = (_BYE if last else _FLOAT) if len(pool) % 2 else None
    wanted = len(pool) + len(pool) % 2
    matching: set[tuple[int, int]] = set()
    sparse_first = len(pool) > 3 * _SPARSE_NEIGHBOURS and not allow_repeats
    for sparse in (True, False) if sparse_first else (False,):
        graph = _graph(pool, rank, group_size, odd_node, sparse, allow_repeats)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) == wanted and _odd_one_is_lowest(matching, pool, odd_node, bye_to):
            break
    paired = {x for pair in matching for x in pair}
    left = [p.id for p in pool if p.id not in paired]
    floats = [x if y in (_FLOAT,) else y for x, y in matching if _FLOAT in (x, y)]
    pairs = {(x, y) for x, y in matching if _FLOAT not in (x, y)}
    if last and not allow_repeats and (
            left or not _odd_one_is_lowest(matching, pool, odd_node, bye_to)):
        raise _Stuck
    return pairs, floats + left


def _brackets(order: list[SwissPlayer], merged_tail: int) -> list[list[SwissPlayer]]:
    """Score groups, best first; the last ``merged_tail`` + 1 groups as one."""
    groups: list[list[SwissPlayer]] = []
    for p in order:
        if groups and _half_points(groups[-1][-1].score) == _half_points(p.score):
            groups[-1].append(p)
        else:
            groups.append([p])
    if merged_tail:
        keep = max(1, len(groups) - merged_tail)
        groups = [*groups[:keep - 1], [p for g in groups[keep - 1:] for p in g]]
    return groups


def _pair_by_brackets(order: list[SwissPlayer]) -> set[tuple[int, int]]:
    """Bracket by bracket from the top; a bracket's odd or unpairable players float down. When
    the last bracket cannot be completed (or only by a bye to someone else than the field's
    lowest-ranked player without one) it is merged with the one above, until one remains; then
    the whole field is one matching where a repeated pairing, a second bye or a third same seat
    in a row are allowed, as the last resort, each at a price far above any other."""
    rank = {p.id: i for i, p in enumerate(order)}
    group_size = _group_sizes(order)
    by_id = {p.id: p for p in order}
    bye_to = next((p.id for p in reversed(order) if p.byes == 0), None)
    groups = _brackets(order, 0)
    for tail in range(len(groups)):
        brackets = _brackets(order, tail)
        pairs: set[tuple[int, int]] = set()
        carry: list[int] = []
        try:
            for index, bracket in enumerate(brackets):
                pool = sorted([by_id[i] for i in carry] + bracket, key=lambda p: rank[p.id])
                found, carry = _match(pool, rank, group_size, index == len(brackets) - 1,
                                      bye_to=bye_to)
                pairs |= found
            return pairs
        except _Stuck:
            continue
    pairs, _ = _match(order, rank, group_size, True, allow_repeats=True)
    return pairs


def assign_seats(a: SwissPlayer, b: SwissPlayer) -> Board:
    """Who moves first: the one who wants the first seat more; else alternate the higher ranked."""
    seat_a, strength_a = _wants(a)
    seat_b, strength_b = _wants(b)
    if strength_a != strength_b or seat_a != seat_b:
        if strength_a >= strength_b and seat_a is not None:
            return Board(a.id, b.id) if seat_a == 0 else Board(b.id, a.id)
        if seat_b is not None:
            return Board(b.id, a.id) if seat_b == 0 else Board(a.id, b.id)
    balance_a, balance_b = _colour_balance(a.colours), _colour_balance(b.colours)
    if balance_a != balance_b:
        return Board(a.id, b.id) if balance_a < balance_b else Board(b.id, a.id)
    if a.colours and b.colours and a.colours[-1] != b.colours[-1]:
        return Board(a.id, b.id) if a.colours[-1] == 1 else Board(b.id, a.id)
    if a.colours:
        return Board(a.id, b.id) if a.colours[-1] == 1 else Board(b.id, a.id)
    return Board(a.id, b.id)


def pair_swiss(players: Iterable[SwissPlayer]) -> list[Board]:
    """The boards of the next round, top board first; a bye is ``Board(player, None)``.

    One matching per score bracket, top down (a large bracket links each player to its ranking
    neighbours and around its fold partner first); see ``_pair_by_brackets``."""
    order = ranked(players)
    if len(order) < 2:
        return [Board(p.id, None) for p in order]
    by_id = {p.id: p for p in order}
    matching = _pair_by_brackets(order)
    boards: list[Board] = []
    for x, y in matching:
        if _BYE in (x, y):
            boards.append(Board(x if y == _BYE else y, None))
        else:
            boards.append(assign_seats(by_id[x], by_id[y]))
    rank = {p.id: i for i, p in enumerate(order)}
    boards.sort(key=lambda board: (board.black is None, min(
        rank[board.white], rank.get(board.black, len(order)) if board.black else len(order))))
    return boards


# -- standings -----------------------------------------------------------------------------------

@dataclass
class SwissRecord:
    """A player's games: (opponent or None for a bye, result, seat or None) per round played."""

    id: int
    rating: float = 0.0
    games: list[tuple[int | None, float, int | None]] = field(default_factory=list)

    @property
    def score(self) -> float:
        return sum(BYE_POINTS if opponent is None else result
                   for opponent, result, _ in self.games)


@dataclass(frozen=True)
class Standing:
    id: int
    rank: int
    score: float
    buchholz: float
    sonneborn_berger: float


def swiss_standings(records: Iterable[SwissRecord]) -> list[Standing]:
    """Score, then Buchholz (the sum of the opponents' scores), then Sonneborn–Berger (the scores
    of the opponents beaten plus half those drawn with), then rating. A bye adds nothing to
    either tie-break; an opponent who withdrew counts with the score they finished with.
    Players tied on every count share a rank."""
    records = list(records)
    scores = {r.id: r.score for r in records}
    rows = []
    for r in records:
        played = [(o, res) for o, res, _ in r.games if o is not None]
        buchholz = sum(scores.get(o, 0.0) for o, _ in played)
        sb = sum(scores.get(o, 0.0) * res for o, res in played)
        rows.append((r, buchholz, sb))
    rows.sort(key=lambda row: (-row[0].score, -row[1], -row[2], -row[0].rating, row[0].id))
    standings: list[Standing] = []
    for index, (r, buchholz, sb) in enumerate(rows):
        key = (r.score, buchholz, sb)
        previous = standings[-1] if standings else None
        shared = previous is not None and (previous.score, previous.buchholz,
                                           previous.sonneborn_berger) == key
        standings.append(Standing(r.id, previous.rank if shared and previous else index + 1,
                                  r.score, buchholz, sb))
    return standings


def record_board(records: dict[int, SwissRecord], board: Board, result: float | None) -> None:
    """Add a finished board to both players' records (``result`` is the first seat's; a bye
    needs none)."""
    if board.black is None:
        records[board.white].games.append((None, BYE_POINTS, None))
        return
    assert result is not None
    records[board.white].games.append((board.black, result, 0))
    records[board.black].games.append((board.white, 1 - result, 1))


def swiss_players(records: Iterable[SwissRecord]) -> list[SwissPlayer]:
    """The pairing's view of each record."""
    return [SwissPlayer(id=r.id, score=r.score, rating=r.rating,
                        colours=tuple(seat for o, _, seat in r.games if o is not None and seat is not None),
                        opponents=frozenset(o for o, _, _ in r.games if o is not None),
                        byes=sum(1 for o, _, _ in r.games if o is None))
            for r in records]


# -- arena -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ArenaPlayer:
    id: int
    score: float = 0.0
    rating: float = 0.0
    last_opponent: int | None = None


def pair_arena(waiting: Iterable[ArenaPlayer], players_in: int | None = None) -> list[Board]:
    """Pairs among the players waiting: the closest in score (then rating), never last game's
    opponent again unless only those two are in the arena (``players_in``). Each player is
    linked to the next few in ranking only: one left out waits for the next pass. Colours: the
    caller alternates them (``white`` here is the higher-ranked)."""
    order = sorted(waiting, key=lambda p: (-p.score, -p.rating, p.id))
    if len(order) < 2:
        return []
    rematch_ok = players_in is not None and players_in <= 2
    graph = nx.Graph()
    for i, a in enumerate(order):
        for j in range(i + 1, min(len(order), i + 1 + _SPARSE_NEIGHBOURS)):
            b = order[j]
            if not rematch_ok and (a.last_opponent == b.id or b.last_opponent == a.id):
                continue
            gap = abs(a.score - b.score) * 1000 + abs(a.rating - b.rating)
            graph.add_edge(a.id, b.id, weight=10**9 - round(gap * 100) - (j - i))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    rank = {p.id: i for i, p in enumerate(order)}
    boards = [Board(*sorted((x, y), key=rank.__getitem__)) for x, y in matching]
    return sorted(boards, key=lambda board: rank[board.white])


BERSERK_BONUS = 1
"""Arena: a win after going berserk scores this much more..."""
BERSERK_MIN_MOVES = 7
"""...when the berserk player made at least this many moves in the game (Lichess)."""


def arena_points(results: Iterable[float]) -> list[int]:
    """Points of each game in order (Lichess): win 2, draw 1, loss 0; after two wins in a row
    ("on fire") a game is worth double until one is not won (a draw on fire scores 2 and ends
    the streak)."""
    points: list[int] = []
    streak = 0
    for result in results:
        base = 2 if result == 1 else 1 if result == 0.5 else 0
        on_fire = streak >= 2
        points.append(base * 2 if on_fire else base)
        streak = streak + 1 if result == 1 else 0
    return points


def arena_on_fire(results: Sequence[float]) -> bool:
    """Whether the next game counts double."""
    return len(results) >= 2 and results[-1] == 1 and results[-2] == 1


# -- duplicate --------------------------------------------------------------------------------------


def duplicate_tables(ranked_ids: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Players (best first) into tables of ``sizes`` (the game's ``table_sizes``): the best
    together, like a Swiss top board; players beyond the tables sit the round out."""
    tables, start = [], 0
    for size in sizes:
        tables.append(list(ranked_ids[start:start + size]))
        start += size
    return tables


def seat_table(players: Sequence[int], seats_taken: dict[int, list[int]]) -> list[int]:
    """The table's players in seat order, so each sits where they sat least before (then
    rotation: the order that moves the first-listed player on by one seat each round)."""
    best: tuple[tuple[int, int], list[int]] | None = None
    for order in itertools.permutations(players):
        cost = sum(seats_taken.get(user, []).count(seat) ** 2 for seat, user in enumerate(order))
        last = sum(1 for seat, user in enumerate(order)
                   if seats_taken.get(user) and seats_taken[user][-1] == seat)
        key = (cost, last)
        if best is None or key < best[0]:
            best = (key, list(order))
    assert best is not None
    return best[1]


def rank_points(ranking: Sequence[Sequence[int]], table_size: int) -> dict[int, float]:
    """Points of each seat from a game's ranking (groups of tied seats, best first).

    Places score 6 for first down to 0 for last, evenly spaced whatever the table size (4
    players: 6, 4, 2, 0; 3: 6, 3, 0; 2: 6, 0), so tables of different sizes weigh the same.
    Tied seats share the points of the places they cover."""
    step = 6 / (table_size - 1) if table_size > 1 else 0.0
    points: dict[int, float] = {}
    place = 0
    for group in ranking:
        covered = [6 - step * (place + k) for k in range(len(group))]
        share = sum(covered) / len(group) if group else 0.0
        for seat in group:
            points[seat] = round(share, 6)
        place += len(group)
    return points
