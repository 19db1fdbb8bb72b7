"""What a Town of Stairs move would do, from what the mover can see only.

The engine computes a preview on ``determinize``'s state for the mover (both deck orders and
every start card it cannot see replaced by a fixed sample that depends on its view alone) and
masks what the sample decided before it leaves (``TownState.preview``): this module only turns
what the mover may know into change items.

Building (``P3@c2``): the card placed; the draw; and the mover's own walk over the town as it
stands (the only walk the mover can foresee: the others' start cards are secret): every way the
walk can go (each choice on it followed) that waits at the slot built on now goes on into the new
card, to the next choice, empty slot or end, with the diary cards it would collect there, and
the best diary the walk can have so far, before and after. Walking (``UR``…): the cards walked
through, the diary cards collected, how the walk ends or the next choice, and the score.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.preview import Change, Ended, game_end
from games.town.cards import COLOURS, EVENT_OF, IS_STAIRS
from games.town.walk import CLIMBS, COLUMNS, RIGHT, WIDTH, Walker
from games.town.words import WORDS

MAX_WAYS = 64
"""Ways of the mover's walk followed on a town being built (choices fork them); past this many,
a way stops at its next choice."""

Points = Callable[[str], int]
"""What one diary card (an event type) is worth to the mover."""
Record = list[tuple[int, int, int, str | None, str | None]]


def _seat_word(seat: int) -> str:
    return WORDS.terms[COLOURS[seat]]


def _pos(col: int, row: int) -> str:
    return f"{COLUMNS[col]}{row}"


@dataclass
class _Way:
    """One way the mover's walk can go on a town: its choices, the cards it entered, and where
    it stopped (``options``: the choice where the budget ran out)."""

    walker: Walker
    via: tuple[str, ...]
    path: list[str] = field(default_factory=list)
    options: tuple[str, ...] | None = None


def _follow(grid: tuple[str | None, ...], walker: Walker, action: str, via: tuple[str, ...],
            path: list[str], out: list[_Way], budget: list[int]) -> None:
    """Leave the walker's card by ``action`` and walk on, forking at every choice while the
    budget lasts; each way's end, empty slot, or choice where the budget ran out goes to
    ``out``."""
    while True:
        record: Record = []
        options = walker.go(grid, action, True, record)
        path = path + [_pos(col, row) for col, row, *_ in record]
        if options is None:
            out.append(_Way(walker, via, path))
            return
        if budget[0] < len(options) - 1:
            out.append(_Way(walker, via, path, options))
            return
        budget[0] -= len(options) - 1
        *others, last = options
        for choice in others:
            _follow(grid, walker.copy(), choice, (*via, choice), path, out, budget)
        action, via = last, (*via, last)


def _ways(grid: tuple[str | None, ...], version: int, seat: int, start: int) -> list[_Way]:
    """Every way ``seat``'s walk from seaside card ``start`` (1–7) can go on ``grid``."""
    out: list[_Way] = []
    budget = [MAX_WAYS]
    for choice in CLIMBS:
        _follow(grid, Walker(version, seat, start - 1, 0, RIGHT), choice, (choice,), [], out,
                budget)
    return out


def _best(ways: list[_Way], points: Points) -> int:
    return max(sum(points(event) for event in way.walker.diary) for way in ways)


def _diaries(seat: int, taken: Sequence[tuple[str, str]], points: Points, wording: str
             ) -> list[Change]:
    return [Change("diary", targets=(at,), params={
        "seat": seat, "event": event, "points": points(event), "at": at},
        wording=wording, terms={"event": WORDS.terms[event]}) for event, at in taken]


def _going_on(way: _Way, grid: tuple[str | None, ...], slot: str, seat: int
              ) -> tuple[Change, list[tuple[str, str]]]:
    """A way that waited at ``slot``, walked on into the card now there: its ``walk`` item and
    the diary cards it collects."""
    walker = way.walker.copy()
    walker.col = (walker.col - walker.direction) % WIDTH  # step back, then walk into the card
    record: Record = []
    options = walker.go(grid, "straight", False, record)
    path = [_pos(col, row) for col, row, *_ in record]
    taken = [(event, _pos(col, row)) for col, row, _d, event, _a in record if event]
    params: dict[str, Any] = {"seat": seat, "via": list(way.via), "from": slot, "path": path,
                              "diary": [event for event, _ in taken], "stop": "waits",
                              "at": None, "options": None, "end": None}
    terms: dict[str, str] = {}
    if options is not None:
        params |= {"stop": "choice", "at": path[-1], "options": list(options)}
        wording = "walk_would_choose"
    elif walker.end is not None:
        params |= {"stop": "end", "end": walker.end}
        wording = "walk_would_end"
        terms["end"] = WORDS.terms[walker.end]
    else:
        assert walker.slot is not None
        params["at"] = _pos(walker.slot % WIDTH, walker.slot // WIDTH + 1)
        wording = "walk_would_wait"
    return Change("walk", targets=tuple(path), params=params, wording=wording,
                  terms=terms), taken


def built(grids: tuple[tuple[str | None, ...], tuple[str | None, ...]], version: int,
          seat: int, start: int, move: str, deck: str, left: int, points: Points
          ) -> list[Change]:
    """The changes of the placement ``move`` (``CARD@slot``) by ``seat``, whose start card is
    ``start``: ``grids`` before and after it, ``deck`` the deck that refills the offer
    (``path`` or ``event``) with ``left`` cards in it before the draw."""
    card, _, slot = move.partition("@")
    event = EVENT_OF[card]
    kind = "event" if event is not None else "stairs" if IS_STAIRS[card] else "path"
    found = [Change("place_card", targets=(slot,), params={
        "seat": seat, "card": card, "slot": slot, "kind": kind, "event": event})]
    found.append(Change("draw" if left else "deck_empty",
                        params={"deck": deck, "left": max(left - 1, 0)},
                        terms={"deck": WORDS.terms[deck]}))
    index = COLUMNS.index(slot[0]) + (int(slot[1:]) - 1) * WIDTH
    ways = _ways(grids[0], version, seat, start)
    seen: set[tuple[Any, ...]] = set()
    collected: list[tuple[str, str]] = []
    for way in ways:
        if way.options is not None or way.walker.slot != index:
            continue
        change, taken = _going_on(way, grids[1], slot, seat)
        key = (change.targets, change.params["stop"], change.params["at"], change.params["end"])
        if key not in seen:
            seen.add(key)
            found.append(change)
            collected.extend(item for item in taken if item not in collected)
    found.extend(_diaries(seat, collected, points, "diary_would"))
    before, after = _best(ways, points), _best(_ways(grids[1], version, seat, start), points)
    found.append(Change("score", params={"seat": seat, "before": before, "after": after,
                                         "projected": True}, wording="score_projected"))
    return found


def walked(seat: int, move: str, steps: tuple[Sequence[Mapping[str, Any]],
                                               Sequence[Mapping[str, Any]]],
           diaries: tuple[Sequence[str], Sequence[str]], end: str | None,
           pending: Sequence[str] | None, points: Points) -> list[Change]:
    r"""The changes of the walk choice ``move`` by ``seat``: its walk's ``steps`` and ``diaries``
    before and after it, how the walk ``end``\ s or the choices ``pending`` after it."""
    here = steps[0][-1]["pos"]
    path = [step["pos"] for step in steps[1][len(steps[0]):]]
    found = [Change("walk", targets=tuple(path), params={
        "seat": seat, "choice": move, "from": here, "path": path})]
    found.extend(_diaries(seat, [(step["diary"], step["pos"]) for step in steps[1][len(steps[0]):]
                                 if step["diary"]], points, "diary"))
    if end is not None:
        found.append(Change("walk_end", targets=tuple(path[-1:]),
                            params={"seat": seat, "end": end}, terms={"end": WORDS.terms[end]}))
    elif pending:
        found.append(Change("choice", targets=tuple(path[-1:]), params={
            "seat": seat, "at": path[-1] if path else here, "options": list(pending)}))
    found.append(Change("score", params={
        "seat": seat, "before": sum(points(e) for e in diaries[0]),
        "after": sum(points(e) for e in diaries[1]), "projected": False}))
    return found


def walk_begins(seat: int) -> Change:
    """``seat``'s walk begins (its start card is not told)."""
    return Change("walk_begins", params={"seat": seat}, terms={"player": _seat_word(seat)})


def ended(result: Ended | None) -> list[Change]:
    return game_end(result, _seat_word, lambda code: WORDS.reasons.get(code, code))
