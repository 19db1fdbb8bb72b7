"""Checks shared by the preview tests (engine, match API, analysis board): a preview's view
against the view the seat really gets after the move, and a preview's items against the
contract (kinds, sentences, targets)."""

from __future__ import annotations

import json
import re
from typing import Any

from games import Game

SNAKE = re.compile(r"^[a-z]+(_[a-z]+)*$")
TARGETS = {
    "stairs": re.compile(r"^[a-f][1-6]$"),
    "sight": re.compile(r"^[a-e][1-5]$"),
    "scalas": re.compile(r"^[a-g][1-7]$"),
    "town": re.compile(r"^[a-g][0-5]$"),
}
DRAW_DEPENDENT = ("offer", "legal_slots", "clicks", "legal_moves", "fallback")
"""Town: the fields of the view after a placement that depend on the card it turns up."""


def check_items(game: Game, changes: list[dict[str, Any]]) -> None:
    """Each change is ``{kind, message?, targets, params}``: a snake_case kind, targets named as
    the game's notation names cells, JSON params."""
    for change in changes:
        assert SNAKE.match(change["kind"]), change
        assert all(TARGETS[game.id].match(target) for target in change["targets"]), change
        json.dumps(change["params"])
        if "message" in change:
            assert change["message"] and "{" not in change["message"], change


def same_view(game: Game, preview: dict[str, Any], actual: dict[str, Any], mover: int) -> None:
    """``preview`` is ``actual`` key for key; for Town (chance and secrets), every key the mover
    could know: a card the move turned up is null in the preview's offer (and the next turn's
    slots and moves are the other card's), and a seat whose walk began shows no start card and
    no walk."""
    assert set(preview) == set(actual)
    if game.id != "town":
        assert preview == actual
        return
    drawn = [i for i, (shown, real) in enumerate(zip(preview["offer"], actual["offer"],
                                                     strict=True)) if shown != real]
    begun = [seat for seat, (shown, real) in enumerate(zip(preview["walks"], actual["walks"],
                                                           strict=True)) if shown != real]
    for key in actual:
        if key in DRAW_DEPENDENT and drawn:
            continue
        if key in ("walks", "start_cards") and begun:
            continue
        assert preview[key] == actual[key], key
    assert len(drawn) <= 1 and all(preview["offer"][i] is None for i in drawn)
    if drawn:
        kept = [card for card in preview["offer"] if card is not None]
        assert set(preview["legal_slots"]) == set(kept)
        assert all(card in actual["offer"] for card in kept)
        if preview["fallback"] == actual["fallback"]:
            for card in kept:
                assert preview["legal_slots"][card] == actual["legal_slots"][card]
            assert set(preview["legal_moves"]) <= set(actual["legal_moves"])
    assert len(begun) <= 1
    for seat in begun:
        assert seat != mover
        assert preview["walks"][seat] == [] and preview["start_cards"][seat] is None
        assert len(actual["walks"][seat]) == 1  # the seaside step its start card names
        others = [s for s in range(len(actual["walks"])) if s != seat]
        assert [preview["walks"][s] for s in others] == [actual["walks"][s] for s in others]
        assert [preview["start_cards"][s] for s in others] == \
            [actual["start_cards"][s] for s in others]
