"""Tournament pairing and scoring: pure functions over plain values (no database, no web).

- **Swiss** (:func:`pair_swiss`): maximum-weight matchings (networkx, Edmonds' blossom), one
  per score bracket, over the players still in. Rules, strongest first: as many games as
  possible; nobody meets the same opponent twice; at most one bye per player, given to the
  lowest-ranked player who has had none; two players who must both have the same seat do not
  meet; then as the Dutch system (FIDE C.04.3) orders its criteria: the lowest scores float
  down, players meet their own score group (a squared score difference is paid for), the
  fewest seat wishes are denied, the lowest-ranked floats, the fold (:class:`_Weights`). Seats
  (seat 0 moves first, as white) as the Dutch system allocates colours (:func:`assign_seats`).
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

_FLOAT = -2
"""The node a bracket's odd player is matched with to float down to the next bracket."""

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
    """(seat wanted, strength), FIDE's colour preference: 3 absolute (a balance past ±1, else
    the same seat in the last two games), 2 strong (balance ±1), 1 mild (alternation), 0 none
    (no game yet)."""
    if not player.colours:
        return None, 0
    balance = _colour_balance(player.colours)
    last_two = player.colours[-2:]
    if abs(balance) >= 2:
        return (1 if balance > 0 else 0), 3
    if len(last_two) == 2 and last_two[0] == last_two[1]:
        return 1 - last_two[0], 3
    if balance:
        return (1 if balance > 0 else 0), 2
    return 1 - player.colours[-1], 1


def _seat_conflict(a: SwissPlayer, b: SwissPlayer) -> tuple[bool, bool, bool]:
    """What pairing ``a`` with ``b`` costs in seat wishes (FIDE C.04.3 C.10–C.13): (both wishes
    absolute for the same seat: not to be paired; one player denied their wish; the player
    denied it had a strong or absolute one)."""
    seat_a, strength_a = _wants(a)
    seat_b, strength_b = _wants(b)
    if seat_a is None or seat_b is None or seat_a != seat_b:
        return False, False, False
    return min(strength_a, strength_b) == 3, True, min(strength_a, strength_b) >= 2


def _half_points(score: float) -> int:
    return round(score * 2)


def ranked(players: Iterable[SwissPlayer]) -> list[SwissPlayer]:
    """Pairing order: score, then rating, then id (the earliest entrant first)."""
    return sorted(players, key=lambda p: (-p.score, -p.rating, p.id))


@dataclass(frozen=True)
class _Weights:
    """Integer edge weights of one pairing (exact matching), each level worth more than every
    sum of the levels below it can reach over a round, strongest first: a repeated pairing (the
    last resort), the bye's rank, two absolute wishes for the same seat (the last resort), the
    score of whoever floats down, squared score differences, seat wishes denied, strong seat
    wishes denied, the rank of whoever floats down (the lowest first), the fold (see
    ``_pair_weight``)."""

    fold: int
    float_rank: int
    strong: int
    wish: int
    group: int
    float_score: int
    absolute: int
    bye_rank: int
    repeat: int

    @classmethod
    def of(cls, order: list[SwissPlayer]) -> _Weights:
        n = len(order) + 1
        pairs = n // 2 + 1
        spread = _half_points(order[0].score) - _half_points(order[-1].score) + 1 if order else 1
        total = 0
        levels = []
        for count in (n * pairs, n, pairs, pairs, pairs * spread * spread, spread, pairs, n, n):
            levels.append(total + 1)
            total += (total + 1) * count
        return cls(*levels)


@dataclass(frozen=True)
class _Field:
    """What every bracket's matching needs to know of the whole field."""

    rank: dict[int, int]
    group_size: dict[int, int]
    weights: _Weights


def _pair_weight(a: SwissPlayer, b: SwissPlayer, field_: _Field) -> int:
    """The weight of pairing ``a`` with ``b`` (higher is better). Below the score and seat
    levels, the Dutch system's order: inside a score group the top half meets the bottom half
    (the fold: the rank distance's deviation from half the group is paid for); a player from a
    higher group meets the highest-ranked player it can (the rank distance is paid for)."""
    w = field_.weights
    gap = _half_points(a.score) - _half_points(b.score)
    absolute, denied, strong = _seat_conflict(a, b)
    weight = -w.group * gap * gap - w.absolute * absolute - w.wish * denied - w.strong * strong
    distance = abs(field_.rank[a.id] - field_.rank[b.id])
    if gap == 0:
        distance = abs(distance - field_.group_size.get(_half_points(a.score), 2) // 2)
    weight += -w.fold * distance
    if b.id in a.opponents or a.id in b.opponents:
        weight -= w.repeat
    return weight


def _group_sizes(order: list[SwissPlayer]) -> dict[int, int]:
    sizes: dict[int, int] = {}
    for p in order:
        sizes[_half_points(p.score)] = sizes.get(_half_points(p.score), 0) + 1
    return sizes


def _graph(pool: list[SwissPlayer], field_: _Field, odd_node: int | None, sparse: bool,
           allow_repeats: bool) -> nx.Graph:
    """Pairs of ``pool`` (and, when ``odd_node`` is given, one player to the bye — the lowest
    ranked who has had none — or to float down: the lowest score, then the fewest seat wishes
    denied, then the lowest rank). ``sparse`` links each player only to its neighbours in
    ranking and around its fold partner."""
    w = field_.weights
    base = w.repeat * 4
    graph = nx.Graph()
    half = len(pool) // 2
    for i, a in enumerate(pool):
        for j in range(i + 1, len(pool)):
            if sparse and abs(j - i) > _SPARSE_NEIGHBOURS and abs(j - i - half) > _SPARSE_NEIGHBOURS:
                continue
            b = pool[j]
            forbidden = (b.id in a.opponents or a.id in b.opponents
                         or _seat_conflict(a, b)[0])
            if forbidden and not allow_repeats:
                continue
            graph.add_edge(a.id, b.id, weight=base + _pair_weight(a, b, field_))
    if odd_node == _BYE:
        for i, p in enumerate(pool):
            if p.byes == 0:
                graph.add_edge(_BYE, p.id, weight=base + w.bye_rank * (i + 1))
            elif allow_repeats:
                graph.add_edge(_BYE, p.id, weight=w.repeat * 2)
    elif odd_node == _FLOAT:
        top = _half_points(pool[0].score)
        for i, p in enumerate(pool):
            graph.add_edge(_FLOAT, p.id, weight=base + w.float_score * (
                top - _half_points(p.score)) + w.float_rank * (i + 1))
    return graph


def _odd_one_is_right(matching: set[tuple[int, int]], pool: list[SwissPlayer],
                      odd_node: int | None, bye_to: int | None) -> bool:
    """Whether the bye went to ``bye_to``, the lowest-ranked player of the whole field who has
    had none, or the floater has the pool's lowest score: a sparse graph may have had to pick
    another (then the full graph decides), and so may the last bracket, whose pool need not
    hold ``bye_to`` (it may have been paired in a bracket above while another floated down)."""
    if odd_node is None:
        return True
    chosen = next((x if y == odd_node else y for x, y in matching if odd_node in (x, y)), None)
    if odd_node == _BYE:
        return bye_to is not None and chosen == bye_to
    lowest = {p.id for p in pool if p.score == pool[-1].score}
    return chosen in lowest


class _Stuck(Exception):
    """The last bracket cannot be paired as it stands."""


def _match(pool: list[SwissPlayer], field_: _Field, last: bool, allow_repeats: bool = False,
           bye_to: int | None = None) -> tuple[set[tuple[int, int]], list[int]]:
    """Pairs of one bracket, and who floats down (not the last bracket) or is left (the last).
    ``bye_to``: who the last bracket must give the bye to (else it is stuck). The last resort
    (``allow_repeats``) takes the full graph at once: its weights alone choose the bye, and a
    sparse graph's answer could hold a repeat the full graph avoids."""
    odd_node = (_BYE if last else _FLOAT) if len(pool) % 2 else None
    wanted = len(pool) + len(pool) % 2
    matching: set[tuple[int, int]] = set()
    sparse_first = len(pool) > 3 * _SPARSE_NEIGHBOURS and not allow_repeats
    for sparse in (True, False) if sparse_first else (False,):
        graph = _graph(pool, field_, odd_node, sparse, allow_repeats)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) == wanted and _odd_one_is_right(matching, pool, odd_node, bye_to):
            break
    paired = {x for pair in matching for x in pair}
    left = [p.id for p in pool if p.id not in paired]
    floats = [x if y == _FLOAT else y for x, y in matching if _FLOAT in (x, y)]
    pairs = {(x, y) for x, y in matching if _FLOAT not in (x, y)}
    if last and not allow_repeats and (
            left or not _odd_one_is_right(matching, pool, odd_node, bye_to)):
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
    field_ = _Field(rank, _group_sizes(order), _Weights.of(order))
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
                found, carry = _match(pool, field_, index == len(brackets) - 1, bye_to=bye_to)
                pairs |= found
            return pairs
        except _Stuck:
            continue
    pairs, _ = _match(order, field_, True, allow_repeats=True)
    return pairs


def _seat_of_higher(higher: SwissPlayer, lower: SwissPlayer, board: int) -> int:
    """The seat of the higher-ranked player of a board (FIDE Dutch system, C.04.3 E, with the
    first seat as white), deciding by the first rule that tells them apart:

    1. both seat wishes are granted when they differ (or only one player has one);
    2. else the stronger wish, two absolute ones going to the wider seat imbalance;
    3. else the seats alternate from the most recent game in which they sat differently;
    4. else the higher-ranked player gets their wish;
    5. neither has played yet (round 1): the top board's higher-ranked player takes the first
       seat, the next board's the second, and so on alternating (FIDE alternates by pairing
       number, which in round 1 is the board number).
    """
    seat_h, strength_h = _wants(higher)
    seat_l, strength_l = _wants(lower)
    if seat_h is None and seat_l is None:
        return 0 if board % 2 else 1
    if seat_h is None or seat_l is None or seat_h != seat_l:
        return seat_h if seat_h is not None else 1 - (seat_l or 0)
    if strength_h != strength_l:
        return seat_h if strength_h > strength_l else 1 - seat_h
    if strength_h == 3:
        wider_h = abs(_colour_balance(higher.colours))
        wider_l = abs(_colour_balance(lower.colours))
        if wider_h != wider_l:
            return seat_h if wider_h > wider_l else 1 - seat_h
    for mine, theirs in zip(reversed(higher.colours), reversed(lower.colours), strict=False):
        if mine != theirs:
            return theirs
    return seat_h


def assign_seats(higher: SwissPlayer, lower: SwissPlayer, board: int = 1) -> Board:
    """The board of two players, ``higher`` the higher-ranked (by score, then rating, then id)
    and ``board`` its number (1 the top board): who takes the first seat, as the Dutch system
    allocates colours (``_seat_of_higher``)."""
    if _seat_of_higher(higher, lower, board) == 0:
        return Board(higher.id, lower.id)
    return Board(lower.id, higher.id)


def pair_swiss(players: Iterable[SwissPlayer]) -> list[Board]:
    """The boards of the next round, top board first; a bye is ``Board(player, None)``.

    One matching per score bracket, top down (a large bracket links each player to its ranking
    neighbours and around its fold partner first); see ``_pair_by_brackets``. Boards are
    ordered by their higher score, then their lower score, then the rank of their higher-ranked
    player (the bye last); seats follow (``assign_seats``). The ranking alone orders every
    choice, so the order in which ``players`` come does not change the pairing."""
    order = ranked(players)
    if len(order) < 2:
        return [Board(p.id, None) for p in order]
    by_id = {p.id: p for p in order}
    rank = {p.id: i for i, p in enumerate(order)}
    pairs: list[tuple[SwissPlayer, SwissPlayer | None]] = []
    for x, y in _pair_by_brackets(order):
        if _BYE in (x, y):
            pairs.append((by_id[x if y == _BYE else y], None))
        else:
            first, second = sorted((by_id[x], by_id[y]), key=lambda p: rank[p.id])
            pairs.append((first, second))
    pairs.sort(key=lambda pair: (pair[1] is None, -_half_points(pair[0].score),
                                 -_half_points(pair[1].score) if pair[1] else 0, rank[pair[0].id]))
    return [Board(higher.id, None) if lower is None else assign_seats(higher, lower, number)
            for number, (higher, lower) in enumerate(pairs, start=1)]


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
