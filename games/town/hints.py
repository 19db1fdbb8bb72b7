"""Town's build-phase playout hint: a builder places the card that does the most for its own walk.

A seat's walk over a town still being built runs (with the engine's rules) until it reaches an
empty slot: its *frontier*. Every walk choice met on the way is a branch, so a seat has a few
frontiers, each with the diary collected so far. A card placed on a frontier decides how that walk
goes on: an event the walker lacks fills its diary there and then, a climb lifts it a row closer to
the lighthouse, a turn may send it round into a loop. The hint scores each legal placement by the
best branch the mover's walk has after it, and only placements on the mover's own frontiers can
change that; the rest score the same. Walking the whole frontier costs one walk per placement, so a
playout ply stays cheap.

Knowledge of the rules stays here and in ``engine.py``; this module only reads a position's grid,
the mover's start card and colour, and the rules version.
"""

from __future__ import annotations

from games.town.cards import EVENT_OF, INTERESTS, OPTIONS, SUNSET

WIDTH, HEIGHT = 7, 4
LIGHTHOUSE_ROW = HEIGHT + 1
DIARY_LIMIT = 5
RIGHT, LEFT = 1, -1
ENTRY_SIDE = {RIGHT: "left", LEFT: "right"}
CLIMBS = ("UR", "UL")
SLOT_INDEX = {f"{'abcdefg'[i % WIDTH]}{i // WIDTH + 1}": i for i in range(WIDTH * HEIGHT)}
MAX_BRANCHES = 12  # walks explored per frontier search: a town of choices is cut short, not slow
# On a finished town a walk forks at most a few times (at most 4 ends from any seaside card on
# 300 random 4-player towns, every colour and start): walking every choice is cheap and exact.
EXHAUSTIVE = 10**6
OPEN_BONUS = 1.0  # an open walk may still collect: worth a diary card more than one that ended
ROW_BONUS = 0.4  # each row climbed brings the lighthouse (3 points) closer


class Branch:
    """One way the walk can go (after its choices so far): where it stands and what it has."""

    __slots__ = ("col", "declined", "diary", "direction", "entered", "row", "slot", "value")

    def __init__(self, col: int, row: int, direction: int, diary: tuple[str, ...],
                 entered: dict[tuple[int, int, str], int],
                 declined: frozenset[tuple[int, str]], slot: int | None, value: float) -> None:
        self.col, self.row, self.direction = col, row, direction
        self.diary, self.entered, self.declined = diary, entered, declined
        self.slot = slot  # the empty slot the walk waits at; None when the walk has ended
        self.value = value


def points(diary: tuple[str, ...], seat: int) -> int:
    interests = INTERESTS[seat]
    return sum(3 if e == SUNSET else 2 if e in interests else 1 for e in diary)


def _ends_as_loop(version: int, entries_before: int, declined: bool) -> bool:
    """Mirrors ``TownState._ends_as_loop``."""
    if version == 1:
        return entries_before > 0
    return entries_before >= 2 or (entries_before == 1 and not declined)


def walk(grid: tuple[str | None, ...], version: int, seat: int, col: int, row: int,
         direction: int, action: str, diary: tuple[str, ...],
         entered: dict[tuple[int, int, str], int], declined: frozenset[tuple[int, str]],
         out: list[Branch], budget: list[int]) -> None:
    """Leave (col, row) by ``action`` and walk on, as ``TownState._walk`` does, until the walk ends
    or reaches an empty slot; every choice met forks the walk (while ``budget`` lasts). The ends
    and frontiers reached are appended to ``out``."""
    options_of = OPTIONS[version][seat]
    entered = dict(entered)
    while True:
        if action in CLIMBS:
            direction, row = (RIGHT if action == "UR" else LEFT), row + 1
            declined = frozenset()
        elif action == "rev":
            direction = -direction
        col = (col + direction) % WIDTH
        if row == LIGHTHOUSE_ROW:
            diary = (*diary, SUNSET)
            out.append(Branch(col, row, direction, diary, entered, declined, None,
                              points(diary, seat)))
            return
        side = ENTRY_SIDE[direction]
        key = (col, row, side)
        before = entered.get(key, 0)
        if _ends_as_loop(version, before, bool(declined)):
            out.append(Branch(col, row, direction, diary, entered, declined, None,
                              points(diary, seat)))
            return
        slot = (row - 1) * WIDTH + col
        card = grid[slot]
        if card is None:
            out.append(Branch(col, row, direction, diary, entered, declined, slot,
                              points(diary, seat) + OPEN_BONUS + ROW_BONUS * row))
            return
        entered[key] = before + 1
        event = EVENT_OF[card]
        if event is not None and event not in diary:
            diary = (*diary, event)
            if len(diary) == DIARY_LIMIT:
                out.append(Branch(col, row, direction, diary, entered, declined, None,
                                  points(diary, seat)))
                return
        options = options_of[card][0 if direction == RIGHT else 1]
        if (col, side) in declined:
            options = tuple(a for a in options if a in CLIMBS) or options
        if len(options) > 1 and budget[0] > 0:
            budget[0] -= len(options) - 1
            for choice in options:
                after = declined | {(col, side)} if choice == "straight" else declined
                walk(grid, version, seat, col, row, direction, choice, diary, entered, after,
                     out, budget)
            return
        action = options[0]


def branches(grid: tuple[str | None, ...], version: int, seat: int, start: int) -> list[Branch]:
    """Every way ``seat``'s walk from seaside card ``start`` (1–7) can go on this grid."""
    out: list[Branch] = []
    budget = [MAX_BRANCHES]
    for choice in CLIMBS:  # the seaside step: UR or UL into row 1
        walk(grid, version, seat, start - 1, 0, RIGHT, choice, (), {}, frozenset(), out, budget)
    return out


def placement_scores(grid: tuple[str | None, ...], version: int, seat: int, start: int,
                     moves: list[str]) -> list[float]:
    """For each placement ``CARD@slot`` in ``moves``, the best branch ``seat``'s walk has after
    it (see the module docstring)."""
    found = branches(grid, version, seat, start)
    unchanged = max(b.value for b in found)
    waiting: dict[int, list[Branch]] = {}
    for branch in found:
        if branch.slot is not None:
            waiting.setdefault(branch.slot, []).append(branch)
    if not waiting:
        return [unchanged] * len(moves)
    scores = []
    cells = list(grid)
    for move in moves:
        card, _, where = move.partition("@")
        slot = SLOT_INDEX[where]
        here = waiting.get(slot)
        if here is None:
            scores.append(unchanged)
            continue
        cells[slot] = card
        placed = tuple(cells)
        cells[slot] = None
        rest = max((b.value for b in found if b.slot != slot), default=-1.0)
        best = rest
        for branch in here:
            out: list[Branch] = []
            # Step back onto the slot's left or right neighbour and walk into the new card.
            walk(placed, version, seat, (branch.col - branch.direction) % WIDTH,
                 branch.row, branch.direction, "straight", branch.diary, branch.entered,
                 branch.declined, out, [MAX_BRANCHES // 2])
            best = max(best, *(b.value for b in out))
        scores.append(best)
    return scores


def choice_values(grid: tuple[str | None, ...], version: int, seat: int,
                  steps: tuple[dict, ...], diary: tuple[str, ...],
                  choices: tuple[str, ...] | list[str]) -> list[float]:
    """For each walk choice pending at the end of ``steps`` (the walker's steps so far, as the
    engine records them; ``diary`` what it has collected), the best diary score the walk can
    still reach after it, walking every later choice on the finished town: exact."""
    here = steps[-1]
    col, row = here["col"], here["row"]
    direction = LEFT if here["dir"] == "left" else RIGHT
    entered: dict[tuple[int, int, str], int] = {}
    for s in steps:
        if s["row"] > 0:
            key = (s["col"], s["row"], s["side"])
            entered[key] = entered.get(key, 0) + 1
    declined = frozenset((s["col"], s["side"]) for s in steps
                         if s["row"] == row and s["chosen"] and s["action"] == "straight")
    values = []
    for choice in choices:
        after = declined | {(col, here["side"])} if choice == "straight" else declined
        out: list[Branch] = []
        walk(grid, version, seat, col, row, direction, choice, diary, entered, after, out,
             [EXHAUSTIVE])
        values.append(max(b.value for b in out))
    return values
