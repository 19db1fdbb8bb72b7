"""Engine previews (``State.preview``): at every ply of random games the preview's view is the view
the mover gets after the move (Town: everything it could know), every item is worded by its game,
and what the items say holds in the position after the move — checked with the engine's own
verbs and views, not with the preview's code. Town previews never show a hidden card and do not
vary with the hidden cards."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from string import Formatter
from typing import Any

import pytest

from app.kernel import i18n
from games import Game, State, registry
from games.base import play_forced
from games.preview import Change, Preview, english
from tests.games.previews import check_items, same_view

SEEDS = (1, 2, 3)
VARIANTS = {"stairs": {"swap": True}, "sight": {"priority": "movable"}, "scalas": {"size": 6}}
"""Options other than the defaults, played too."""
TABLES = [(game.id, players, seed, None) for game in registry.all_games()
          for players in range(game.min_players, game.max_players + 1) for seed in SEEDS] + [
    (game_id, 2, seed, options) for game_id, options in VARIANTS.items() for seed in SEEDS]
CARD = re.compile(r"\b[PE]\d{1,2}\b")


def random_line(game_id: str, players: int, seed: int, options: dict[str, Any] | None = None
                ) -> list[tuple[State, str, Preview, State]]:
    """(state, move, its preview for the mover, the state after it and the forced moves) at
    every ply of a random game."""
    game = registry.get(game_id)
    rng = random.Random(seed)
    state = game.new_state(players=players, options=options, seed=seed)
    line = []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        seat = state.to_move
        assert seat is not None
        snapshot = state.to_json()
        preview = state.preview(move, seat)
        assert state.to_json() == snapshot  # a preview changes nothing
        after, _ = play_forced(state.play(move))
        line.append((state, move, preview, after))
        state = after
    return line


def items(preview: Preview, kind: str) -> list[Change]:
    return [change for change in preview.changes if change.kind == kind]


@pytest.mark.parametrize(("game_id", "players", "seed", "options"), TABLES)
def test_the_preview_is_the_view_after_the_move_and_every_item_is_worded(
        game_id: str, players: int, seed: int, options: dict[str, Any] | None) -> None:
    game = registry.get(game_id)
    for state, move, preview, after in random_line(game_id, players, seed, options):
        seat = state.to_move
        assert seat is not None
        assert preview.move == state.parse_move(move)
        same_view(game, preview.view, after.view(seat), seat)
        check_items(game, [change.to_json() for change in preview.changes])
        for change in preview.changes:
            assert english(change, game.words.changes)


def test_stairs_items_hold_in_the_position_after_the_move() -> None:
    """Landing heights, pieces freed or locked (asked of the engine's own ``why_not`` for the
    side to move next) and the standing (the views' top height, counts and leader)."""
    seen: Counter[str] = Counter()
    for seed in (*SEEDS, 4, 5, 6):
        for state, _move, preview, after in random_line("stairs", 2, seed, {"swap": seed < 3}):
            before_view, after_view = state.view(None), after.view(None)
            for change in items(preview, "lands"):
                to = after_view["squares"].index(change.params["to"])
                assert after_view["heights"][to] == change.params["height"]
                assert after_view["board"][to][-1] == change.params["colour"][0].upper()
            (standing,) = items(preview, "standing")
            for when, view in (("before", before_view), ("after", after_view)):
                told = standing.params[when]
                assert told["max_height"] == view["max_height"]
                assert told["counts"] == view["max_height_counts"]
                assert told["leader"] == view["leader"]
            seen[standing.key] += 1
            colour = after_view["colour_to_move"]
            if after.is_over or after_view["must_pass"]:
                continue
            for change in items(preview, "movable") + items(preview, "locked"):
                if change.params["colour"] != colour:
                    continue
                for square in change.params["squares"]:
                    why = after.why_not(square)
                    if change.kind == "movable":
                        assert why is None, (square, why)
                    else:
                        assert why is not None and why.code == {
                            "lowest_first": "lower_piece_first",
                            "no_destination": "no_destination"}[change.params["why"]]
                seen[change.key] += 1
    assert {"movable", "locked_lowest_first", "locked_no_destination", "standing_kept",
            "standing_flips"} <= set(seen), seen


def test_a_stairs_swap_takes_over_the_first_movers_colour() -> None:
    state = registry.get("stairs").new_state(options={"swap": True}, seed=1)
    state = state.play(state.legal_moves()[0])
    (swap,) = items(state.preview("swap", 1), "swap")
    assert swap.params == {"seat": 1, "colour": "light"}
    assert english(swap, state.words.changes if state.words else {}) == \
        "you take over the light pieces"


def test_sight_growth_is_the_views_growth() -> None:
    for seed in SEEDS:
        for state, move, preview, after in random_line("sight", 2, seed):
            grown = items(preview, "grows")
            assert [c.params["point"] for c in grown] == state.view(None)["growth"][move]
            board = after.view(None)["board"]
            assert all(board[c.params["point"]]["height"] == c.params["height"] for c in grown)


def test_scalas_chain_replays_in_order_and_scores_the_turn() -> None:
    """Playing the move, then each forced cube in the listed order, reproduces the heights told,
    ends the mover's turn, and tops the squares the score item says."""
    chains = 0
    for seed in (*SEEDS, 4, 5):
        for state, _move, preview, _after in random_line("scalas", 2, seed):
            seat = state.to_move
            placed = items(preview, "place") + items(preview, "forced")
            assert [c.params["step"] for c in placed[1:]] == list(range(1, len(placed)))
            turn = state
            for change in placed:
                turn = turn.play(change.params["square"])
                square = next(s for s in turn.view(None)["squares"]
                              if s["name"] == change.params["square"])
                assert square["height"] == change.params["height"]
            turn, _ = play_forced(turn)
            assert turn.is_over or turn.to_move != seat or not turn.view(None)["pending"]
            (score,) = items(preview, "score")
            assert score.params["before"] == state.view(None)["score"]
            assert score.params["after"] == turn.view(None)["score"]
            chains += len(placed) > 1
    assert chains


def _hidden_cards(state: State) -> set[str]:
    data = state.to_json()
    return set(data["path_deck"]) | set(data["event_deck"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_town_previews_never_show_a_hidden_card(players: int) -> None:
    """Neither the view (but its catalogue of every card face) nor the items nor their sentences
    name a card still in a deck, and no other seat's start card shows before its walk."""
    game = registry.get("town")
    for seed in SEEDS:
        for state, _move, preview, _after in random_line("town", players, seed):
            seat = state.to_move
            view = {key: value for key, value in preview.view.items() if key != "cards"}
            shown = json.dumps([view, [c.to_json() for c in preview.changes],
                                [english(c, game.words.changes) for c in preview.changes]])
            assert not set(CARD.findall(shown)) & _hidden_cards(state)
            walked = [bool(walk) for walk in state.to_json()["walks"]]
            for other, known in enumerate(preview.view["start_cards"]):
                if other != seat and not walked[other]:
                    assert known is None and preview.view["walks"][other] == []


@pytest.mark.parametrize("players", [2, 4])
def test_town_previews_do_not_vary_with_the_hidden_cards(players: int) -> None:
    """Other deals the mover cannot tell from this one (``determinize``: both decks and the
    others' unseen start cards drawn again) preview every legal move exactly alike."""
    for state, _move, _preview, _after in random_line("town", players, seed=7):
        seat = state.to_move
        assert seat is not None
        worlds = [state] + [state.determinize(seat, random.Random(k)) for k in (11, 12)]
        for move in state.legal_moves()[:6]:
            shown = [_as_json(world.preview(move, seat)) for world in worlds]
            assert shown[1:] == shown[:1] * 2, move


def _as_json(preview: Preview) -> Any:
    return [preview.move, preview.view, [c.to_json() for c in preview.changes]]


def test_town_walk_items_are_the_walk_played() -> None:
    """A walk choice's items: the cards walked through and the diary cards taken are the steps
    the walk records, the score the view's."""
    walks = 0
    for seed in SEEDS:
        for state, _move, preview, after in random_line("town", 3, seed):
            seat = state.to_move
            if state.view(seat)["phase"] != "walk":
                continue
            (walk,) = items(preview, "walk")
            before_steps = state.view(seat)["walks"][seat]
            steps = after.view(seat)["walks"][seat][len(before_steps):]
            assert walk.params["path"] == [step["pos"] for step in steps]
            assert [(c.params["event"], c.params["at"]) for c in items(preview, "diary")] == [
                (step["diary"], step["pos"]) for step in steps if step["diary"]]
            (score,) = items(preview, "score")
            assert score.params["after"] == after.view(seat)["scores"][seat]
            walks += 1
    assert walks


def test_a_town_placement_tells_how_the_movers_own_walk_goes_on() -> None:
    """While building, a ``walk`` item starts in the slot built on and goes on through cards
    of the new town; the projected best diary never falls."""
    told = 0
    for seed in (*SEEDS, 8, 9):
        for state, move, preview, after in random_line("town", 2, seed):
            if state.view(0)["phase"] != "build":
                continue
            slot = move.partition("@")[2]
            grid = after.view(0)["grid"]
            for walk in items(preview, "walk"):
                assert walk.params["from"] == slot and walk.params["path"][0] == slot
                for pos in walk.params["path"]:
                    row = int(pos[1:])
                    assert row == 5 or grid[row - 1]["abcdefg".index(pos[0])] is not None
                told += 1
            (score,) = items(preview, "score")
            assert score.params["projected"] and score.params["after"] >= score.params["before"]
    assert told


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda game: game.id)
def test_every_wording_a_preview_uses_is_a_word_of_the_game(game: Game) -> None:
    """Each template of ``words.changes`` is used, and its fields are the item's."""
    used: set[str] = set()
    for players in sorted({game.min_players, game.max_players}):
        for seed in SEEDS:
            for _state, _move, preview, _after in random_line(game.id, players, seed):
                used |= {change.key for change in preview.changes}
    rare = {"passes", "swap", "game_drawn", "deck_empty", "walk_would_choose",
            "walk_would_wait", "walk_would_end", "choice", "uncovers", "chain_cut",
            "locked_lowest_first", "locked_no_destination", "standing_flips", "diary_would"}
    assert set(game.words.changes) - rare <= used, set(game.words.changes) - used


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda game: game.id)
def test_each_sentence_keeps_its_fields_in_japanese(game: Game) -> None:
    """A translation that lost or renamed a field would fall back to English at run time."""
    japanese = i18n.game_catalog(game, "ja")

    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in Formatter().parse(text) if name}

    for template in game.words.changes.values():
        assert fields(japanese[template]) == fields(template), template
