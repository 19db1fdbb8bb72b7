"""Every rules-page diagram is an engine position, and its caption's claims hold in the engine.

A diagram is replayed from the start through its moves (so it is reachable by construction), then
each claim in its ``claims`` is checked here against the engine: the legal moves marked are exactly
the legal ones, a "finished" position is over, the stated winner wins, and so on. This is what keeps
a figure from showing a position that could not arise or a move the rules forbid.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

import pytest

from app.web import diagrams
from games import registry
from games.figures import Diagram
from games.sight.board import POINT_INDEX, POINT_NAMES, RAYS, is_even_point

GAMES = ("stairs", "sight", "scalas", "town")
ALL = [d for game in GAMES for d in diagrams.diagrams(game)]
FILES = "abcdefg"


def ids(diagram: Diagram) -> str:
    return f"{diagram.game}/{diagram.id}"


def seat_of(colour: str) -> int:
    return {"light": 0, "dark": 1, "red": 0, "blue": 1, "green": 2, "yellow": 3}[colour]


# -- what every diagram must satisfy -----------------------------------------------------------


@pytest.mark.parametrize("diagram", ALL, ids=ids)
def test_every_diagram_replays_and_has_both_captions(diagram: Diagram) -> None:
    diagram.state()  # every move legal in turn: the position can arise in a game
    assert set(diagram.captions) == {"en", "ja"}
    for caption in diagram.captions.values():
        assert "<em>" not in caption and caption.strip()


@pytest.mark.parametrize("diagram", ALL, ids=ids)
def test_every_diagram_claim_is_checked(diagram: Diagram) -> None:
    unknown = set(diagram.claims) - set(CHECKS[diagram.game])
    assert not unknown, f"no check for claims {unknown}"


@pytest.mark.parametrize("diagram", ALL, ids=ids)
def test_every_claim_holds_in_the_engine(diagram: Diagram) -> None:
    for claim, expected in diagram.claims.items():
        CHECKS[diagram.game][claim](diagram, expected)


@pytest.mark.parametrize("diagram", ALL, ids=ids)
def test_squares_named_in_both_captions_agree(diagram: Diagram) -> None:
    """The English and Japanese captions talk about the same squares and points."""
    named = [set(re.findall(r"<code>([a-g][0-9])</code>", text)) for text in diagram.captions.values()]
    assert named[0] == named[1]


@pytest.mark.parametrize("diagram", ALL, ids=ids)
def test_every_diagram_draws_in_both_languages(diagram: Diagram) -> None:
    for language in ("en", "ja"):
        html = str(diagrams.figure(diagram.game, diagram.id, language))
        assert html.startswith('<figure class="diagram"') and "<svg" in html
        assert diagram.captions[language] in html


# -- common checks -----------------------------------------------------------------------------


def _to_move(diagram: Diagram, colour: str) -> None:
    assert diagram.state().to_move == seat_of(colour)


def _over(diagram: Diagram, expected: bool) -> None:
    assert diagram.state().is_over is expected


def _winner(diagram: Diagram, seat: int) -> None:
    result = diagram.state().result
    assert result is not None and result.winners == (seat,)


def _legal(diagram: Diagram, moves: list[str]) -> None:
    assert sorted(diagram.state().legal_moves()) == sorted(moves)


COMMON = {"to_move": _to_move, "over": _over, "winner": _winner, "legal": _legal}


# -- Stairs ------------------------------------------------------------------------------------


def _stairs_view(diagram: Diagram) -> dict[str, Any]:
    return diagram.state().view(None)


def _stairs_heights(diagram: Diagram) -> dict[str, int]:
    view = _stairs_view(diagram)
    return dict(zip(view["squares"], view["heights"], strict=True))


def _stairs_tops(diagram: Diagram) -> dict[str, str | None]:
    view = _stairs_view(diagram)
    return {sq: (st[-1] if st else None) for sq, st in zip(view["squares"], view["board"], strict=True)}


def _stairs_all_heights(diagram: Diagram, height: int) -> None:
    assert set(_stairs_heights(diagram).values()) == {height}


def _stairs_on(colour: str):
    def check(diagram: Diagram, squares: list[str]) -> None:
        tops = _stairs_tops(diagram)
        assert all(tops[sq] == colour for sq in squares)

    return check


def _stairs_height(diagram: Diagram, expected: dict[str, int]) -> None:
    heights = _stairs_heights(diagram)
    assert {sq: heights[sq] for sq in expected} == expected


def _stairs_targets(diagram: Diagram, expected: dict[str, list[str]]) -> None:
    movable = _stairs_view(diagram)["movable"]
    for square, targets in expected.items():
        assert sorted(movable[square]) == sorted(targets)
    marks = diagram.marks
    if marks.get("focus") in expected:
        assert sorted(marks["targets"]) == sorted(expected[marks["focus"]])
        assert not set(marks.get("not", [])) & set(movable[marks["focus"]])


def _stairs_lowest(diagram: Diagram, height: int) -> None:
    heights = _stairs_heights(diagram)
    assert {heights[sq] for sq in _stairs_view(diagram)["movable"]} == {height}


def _stairs_movable(diagram: Diagram, squares: list[str]) -> None:
    assert sorted(_stairs_view(diagram)["movable"]) == sorted(squares)
    assert sorted(diagram.marks.get("movable", squares)) == sorted(squares)


def _stairs_could_climb(diagram: Diagram, expected: dict[str, list[str]]) -> None:
    """Pieces with a same-height neighbour that still may not move (lowest first)."""
    heights, tops = _stairs_heights(diagram), _stairs_tops(diagram)
    mover = "L" if diagram.state().to_move == 0 else "D"
    for square, targets in expected.items():
        f, r = FILES.index(square[0]), int(square[1:])
        around = [f"{FILES[f + df]}{r + dr}" for df in (-1, 0, 1) for dr in (-1, 0, 1)
                  if (df or dr) and 0 <= f + df < 6 and 1 <= r + dr <= 6]
        assert tops[square] == mover
        assert sorted(sq for sq in around if heights[sq] == heights[square]) == sorted(targets)
        assert square not in _stairs_view(diagram)["movable"]


def _stairs_max_height(diagram: Diagram, height: int) -> None:
    assert max(_stairs_heights(diagram).values()) == height


def _stairs_at_max(diagram: Diagram, expected: dict[str, str]) -> None:
    heights, tops = _stairs_heights(diagram), _stairs_tops(diagram)
    top = max(heights.values())
    assert {sq: tops[sq] for sq in heights if heights[sq] == top} == expected
    assert sorted(diagram.marks.get("top", [])) == sorted(expected)


def _stairs_arrivals(diagram: Diagram, plies: list[int]) -> None:
    result = diagram.state().result
    assert result is not None and result.details["arrival_plies"] == plies


# -- Sight -------------------------------------------------------------------------------------


def _sight_board(state: Any) -> dict[str, dict[str, Any]]:
    return {name: cell for name, cell in state.view(None)["board"].items() if cell}


def _sight_even(expected: bool):
    def check(diagram: Diagram, points: list[str]) -> None:
        assert all(is_even_point(POINT_INDEX[p]) is expected for p in points)

    return check


def _sight_places(diagram: Diagram, expected: bool) -> None:
    """Placement turn: the mover has no stack and every legal move is a placement."""
    state = diagram.state()
    colour = "light" if state.to_move == 0 else "dark"
    stacks = [c for c in _sight_board(state).values() if c["colour"] == colour and c["height"] >= 2]
    assert (not stacks) is expected
    assert all(("-" not in move) is expected for move in state.legal_moves())


def _sight_grows(diagram: Diagram, expected: dict[str, list[str]]) -> None:
    """Playing the move adds one piece to exactly these points (besides the point moved to)."""
    state = diagram.state()
    before = _sight_board(state)
    for move, points in expected.items():
        after = _sight_board(state.play(move))
        target = move.rpartition("-")[2]
        grown = sorted(p for p in after if p != target and p in before
                       and after[p]["height"] == before[p]["height"] + 1)
        assert grown == sorted(points)
    if "move" in diagram.marks:
        assert diagram.marks["move"] in expected


def _sight_seen_from(state: Any, point: str) -> list[str]:
    occupied = _sight_board(state)
    seen = []
    for ray in RAYS[POINT_INDEX[point]]:
        first = next((POINT_NAMES[p] for p in ray if POINT_NAMES[p] in occupied), None)
        if first:
            seen.append(first)
    return sorted(seen)


def _sight_in_sight(diagram: Diagram, expected: dict[str, list[str]]) -> None:
    for point, seen in expected.items():
        assert _sight_seen_from(diagram.state(), point) == sorted(seen)


def _sight_hidden(diagram: Diagram, expected: dict[str, list[str]]) -> None:
    """Friendly pieces on a line from the point but behind another piece: not in sight."""
    state = diagram.state()
    board = _sight_board(state)
    for point, hidden in expected.items():
        for name in hidden:
            assert board[name]["colour"] == ("light" if state.to_move == 0 else "dark")
            assert name not in _sight_seen_from(state, point)
            assert any(POINT_INDEX[name] in ray for ray in RAYS[POINT_INDEX[point]])


def _sight_legal_from(diagram: Diagram, points: list[str]) -> None:
    assert sorted({m.split("-")[0] for m in diagram.state().legal_moves()}) == sorted(points)


def _sight_source_after(diagram: Diagram, expected: dict[str, int]) -> None:
    state = diagram.state()
    for move, height in expected.items():
        assert _sight_board(state.play(move))[move.split("-")[0]]["height"] == height


def _sight_height(diagram: Diagram, expected: dict[str, int]) -> None:
    board = _sight_board(diagram.state())
    assert {p: board[p]["height"] for p in expected} == expected


def _sight_turn_of(diagram: Diagram, colour: str) -> None:
    assert len(diagram.spec["moves"]) % 2 == seat_of(colour)


def _sight_movable_variant(diagram: Diagram, moves: list[str]) -> None:
    """The same game under ``priority: movable``: the shorter stack must move instead."""
    state = diagram.states(options={"priority": "movable"})[-1]
    assert sorted(state.legal_moves()) == sorted(moves)


@pytest.mark.parametrize("diagram", diagrams.diagrams("sight"), ids=ids)
def test_sight_diagrams_are_reachable_by_parity(diagram: Diagram) -> None:
    """Every turn occupies exactly one more point, so light moves with an even number occupied."""
    occupied = len(_sight_board(diagram.state()))
    assert occupied == len(diagram.spec["moves"])
    if diagram.state().to_move == 0:
        assert occupied % 2 == 0


# -- Scalas ------------------------------------------------------------------------------------


def _scalas_heights(state: Any) -> dict[str, int]:
    return {sq["name"]: sq["height"] for sq in state.view(None)["squares"]}


def _scalas_steps(name: str, size: int) -> list[str]:
    f, r = FILES.index(name[0]), int(name[1:])
    return [f"{FILES[f + df]}{r + dr}" for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= f + df < size and 1 <= r + dr <= size]


def _is_descent(heights: dict[str, int], path: list[str]) -> bool:
    """Orthogonal steps, each level or one down, ending at the bottom level (0 while any square
    is empty, else the lowest height): written out here, independently of the engine."""
    bottom = 0 if 0 in heights.values() else min(heights.values())
    size = int(len(heights) ** 0.5)
    steps_ok = all(
        b in _scalas_steps(a, size) and heights[a] - 1 <= heights[b] <= heights[a]
        for a, b in pairwise(path)
    )
    return steps_ok and heights[path[-1]] == bottom


def _has_descent(heights: dict[str, int], start: str) -> bool:
    bottom = 0 if 0 in heights.values() else min(heights.values())
    size = int(len(heights) ** 0.5)
    seen, todo = {start}, [start]
    while todo:
        a = todo.pop()
        if heights[a] == bottom:
            return True
        for b in _scalas_steps(a, size):
            if b not in seen and heights[a] - 1 <= heights[b] <= heights[a]:
                seen.add(b)
                todo.append(b)
    return False


def _with_cube(heights: dict[str, int], square: str) -> dict[str, int]:
    return {**heights, square: heights[square] + 1}


def _scalas_legal_include(diagram: Diagram, squares: list[str]) -> None:
    assert set(squares) <= set(diagram.state().legal_moves())


def _scalas_not_legal(diagram: Diagram, squares: list[str]) -> None:
    assert not set(squares) & set(diagram.state().legal_moves())


def _scalas_descent_before(diagram: Diagram, path: list[str]) -> None:
    assert _is_descent(_scalas_heights(diagram.state()), path)
    assert diagram.marks.get("path", path) == path


def _scalas_descent_after(diagram: Diagram, expected: dict[str, list[str]]) -> None:
    heights = _scalas_heights(diagram.state())
    for square, path in expected.items():
        assert _is_descent(_with_cube(heights, square), path)
        assert path[0] == square


def _scalas_fails_before(diagram: Diagram, squares: list[str]) -> None:
    heights = _scalas_heights(diagram.state())
    assert all(not _has_descent(heights, sq) for sq in squares)
    assert sorted(diagram.marks.get("fails_before", squares)) == sorted(squares)


def _scalas_fails_after(diagram: Diagram, squares: list[str]) -> None:
    heights = _scalas_heights(diagram.state())
    for square in squares:
        assert _has_descent(heights, square)
        assert not _has_descent(_with_cube(heights, square), square)
    assert sorted(diagram.marks.get("fails_after", squares)) == sorted(squares)


def _scalas_height(diagram: Diagram, expected: dict[str, int]) -> None:
    heights = _scalas_heights(diagram.state())
    assert {sq: heights[sq] for sq in expected} == expected


def _scalas_forced_after(diagram: Diagram, expected: dict[str, list[str]]) -> None:
    state = diagram.state()
    for move, targets in expected.items():
        after = state.play(move)
        assert sorted(after.view(None)["pending"]) == sorted(targets)
        assert after.to_move == state.to_move  # the same player fills them
    if "forced" in diagram.marks:
        assert sorted(diagram.marks["forced"]) == sorted(expected[diagram.marks["focus"]])


# -- Town of Stairs ----------------------------------------------------------------------------

CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"


def _town_view(diagram: Diagram) -> dict[str, Any]:
    return diagram.state().view(None)


def _town_faces(diagram: Diagram, expected: dict[str, dict[str, list[str]]]) -> None:
    cards = _town_view(diagram)["cards"]
    for card, face in expected.items():
        assert {"bl": cards[card]["bl"], "br": cards[card]["br"]} == face
    if "cards" in diagram.marks:
        assert set(diagram.marks["cards"]) == set(expected)


def _town_offer(diagram: Diagram, offer: list[str]) -> None:
    assert _town_view(diagram)["offer"] == offer


def _town_legal_slots(diagram: Diagram, expected: dict[str, list[str]]) -> None:
    slots = _town_view(diagram)["legal_slots"]
    for card, where in expected.items():
        assert sorted(slots[card]) == sorted(where)
    assert sorted(diagram.marks.get("slots", [])) == sorted(next(iter(expected.values())))


def _town_touching_but_refused(diagram: Diagram, expected: dict[str, list[str]]) -> None:
    view = _town_view(diagram)
    grid = view["grid"]
    for card, where in expected.items():
        for slot in where:
            col, row = FILES.index(slot[0]), int(slot[1:])
            assert grid[row - 1][col] is None and slot not in view["legal_slots"][card]
            around = [(col + dc, row + dr) for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            assert row == 1 or any(
                0 <= c < 7 and 1 <= r <= 4 and grid[r - 1][c] is not None for c, r in around
            )
    assert sorted(diagram.marks.get("refused", [])) == sorted(next(iter(expected.values())))


def _town_stairs_in_row(diagram: Diagram, expected: dict[str, int]) -> None:
    view = _town_view(diagram)
    for row, count in expected.items():
        cards = [c for c in view["grid"][int(row) - 1] if c is not None]
        assert sum(view["cards"][c]["stairs"] for c in cards) == count


def _town_walk(diagram: Diagram, expected: dict[str, list[str]]) -> None:
    """The walk's squares, and a caption that numbers every step it draws, each at its slot."""
    walks = _town_view(diagram)["walks"]
    for seat, path in expected.items():
        assert [step["pos"] for step in walks[int(seat)]] == path
        if diagram.marks.get("walk") == int(seat):
            for caption in diagram.captions.values():
                named = set(re.findall(r"[①-⑳]", caption))
                for first, last in re.findall(r"([①-⑳])\s*(?:to|〜)\s*([①-⑳])", caption):
                    named |= set(CIRCLED[CIRCLED.index(first):CIRCLED.index(last) + 1])
                for number in range(1, len(path)):
                    assert CIRCLED[number - 1] in named, f"step {number} not in the caption"
                for mark, slot in re.findall(r"([①-⑳])\s*<code>([a-g][0-9])</code>", caption):
                    assert path[CIRCLED.index(mark) + 1] == slot


def _town_actions(diagram: Diagram, expected: dict[str, dict[str, list[Any]]]) -> None:
    walks = _town_view(diagram)["walks"]
    for seat, steps in expected.items():
        for index, (action, chosen) in steps.items():
            step = walks[int(seat)][int(index)]
            assert (step["action"], step["chosen"]) == (action, chosen)


def _town_diary(diagram: Diagram, expected: dict[str, list[str]]) -> None:
    diaries = _town_view(diagram)["diaries"]
    assert {seat: diaries[int(seat)] for seat in expected} == expected


def _town_walk_end(diagram: Diagram, expected: dict[str, str]) -> None:
    ends = _town_view(diagram)["walk_end"]
    assert {seat: ends[int(seat)] for seat in expected} == expected


def _town_score(diagram: Diagram, expected: dict[str, int]) -> None:
    scores = _town_view(diagram)["scores"]
    assert {seat: scores[int(seat)] for seat in expected} == expected


def _town_version_one_end(diagram: Diagram, expected: dict[str, str]) -> None:
    """The same moves under rules version 1 end the walk where the caption says they used to."""
    start = diagram.spec["start"]
    state = registry.get("town").replay_start(1, start["players"], start["options"], 0)
    for move in diagram.spec["moves"]:
        if state.is_over or move not in state.legal_moves():
            break
        state = state.play(move)
    ends = state.view(None)["walk_end"]
    assert {seat: ends[int(seat)] for seat in expected} == expected


CHECKS: dict[str, dict[str, Any]] = {
    "stairs": {
        **COMMON,
        "all_heights": _stairs_all_heights,
        "light_on": _stairs_on("L"),
        "dark_on": _stairs_on("D"),
        "height": _stairs_height,
        "targets": _stairs_targets,
        "lowest_movable_height": _stairs_lowest,
        "movable": _stairs_movable,
        "could_climb": _stairs_could_climb,
        "max_height": _stairs_max_height,
        "at_max_height": _stairs_at_max,
        "arrival_plies": _stairs_arrivals,
    },
    "sight": {
        **COMMON,
        "even_points": _sight_even(True),
        "odd_points": _sight_even(False),
        "places": _sight_places,
        "grows": _sight_grows,
        "in_sight": _sight_in_sight,
        "hidden": _sight_hidden,
        "legal_from": _sight_legal_from,
        "source_after": _sight_source_after,
        "height": _sight_height,
        "turn_of": _sight_turn_of,
        "legal_with_movable_priority": _sight_movable_variant,
    },
    "scalas": {
        **COMMON,
        "legal_squares_include": _scalas_legal_include,
        "not_legal": _scalas_not_legal,
        "descent_before": _scalas_descent_before,
        "descent_after": _scalas_descent_after,
        "fails_before": _scalas_fails_before,
        "fails_after": _scalas_fails_after,
        "height": _scalas_height,
        "forced_after": _scalas_forced_after,
    },
    "town": {
        **COMMON,
        "faces": _town_faces,
        "offer": _town_offer,
        "legal_slots": _town_legal_slots,
        "touching_but_refused": _town_touching_but_refused,
        "stairs_in_row": _town_stairs_in_row,
        "walk": _town_walk,
        "actions": _town_actions,
        "diary": _town_diary,
        "walk_end": _town_walk_end,
        "score": _town_score,
        "version_one_walk_end": _town_version_one_end,
    },
}


