"""The text game record: written, read back and replayed to the same position, for every game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.match.game_records import (
    GameRecordError,
    export_text,
    parse_ranking,
    parse_text,
    public_options,
    ranking_text,
    replay,
)
from games import Game, State, registry

GAMES = registry.all_games()


def _random_record(game: Game, seed: int, players: int, max_plies: int | None = None
                   ) -> tuple[dict[str, Any], State]:
    """A JSON record (as build_record makes it) of a random game, and its final state."""
    rng = random.Random(seed)
    state = game.new_state(players=players, seed=seed)
    moves = []
    while not state.is_over and (max_plies is None or len(moves) < max_plies):
        seat = state.to_move
        move = rng.choice(state.legal_moves())
        state = state.play(move)
        moves.append({"ply": len(moves) + 1, "seat": seat, "move": move, "time_spent_ms": 10})
    result = state.result.to_json() if state.result else None
    record = {
        "format": "stepwell-record", "version": 1, "match_id": "Ab12Cd34", "game": game.id,
        "title": game.title, "options": game.options().model_dump(mode="json"), "seed": seed,
        "num_seats": players, "rated": False, "time_control": None,
        "status": "finished" if result else "active", "date": "2026.11.23",
        "players": [{"seat": s, "user": {"id": s + 1, "name": f'P"{s}\\', "kind": "guest",
                                         "bot": False}, "rating": None}
                    for s in range(players)],
        "created_at": "2026-11-23T03:00:00Z", "started_at": None, "finished_at": None,
        "result": result, "moves": moves,
    }
    return record, state


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_text_record_round_trips_and_replays_to_the_same_state(game: Game, seed: int) -> None:
    for players in sorted({game.min_players, game.max_players}):
        record, final = _random_record(game, seed, players)
        text = export_text(record)
        parsed = parse_text(text)
        assert parsed.game_id == game.id and parsed.num_seats == players
        assert parsed.moves == [m["move"] for m in record["moves"]]
        assert parsed.seed == seed and parsed.options == record["options"]
        assert parsed.players == [p["user"]["name"] for p in record["players"]]
        assert replay(parsed) == final
        assert parsed.tags["Reason"] == record["result"]["reason"]
        assert parse_ranking(parsed.tags["Ranking"]) == record["result"]["ranking"]


def test_two_seat_result_is_written_pgn_style() -> None:
    record, final = _random_record(registry.get("stairs"), 5, 2)
    winners = final.result.winners if final.result else ()
    expected = {(0,): "1-0", (1,): "0-1"}.get(tuple(winners), "1/2-1/2")
    assert parse_text(export_text(record)).tags["Result"] == expected


def test_unfinished_game_has_an_open_result_and_still_replays() -> None:
    record, state = _random_record(registry.get("sight"), 7, 2, max_plies=6)
    parsed = parse_text(export_text(record))
    assert parsed.tags["Result"] == "*" and "Ranking" not in parsed.tags
    assert replay(parsed) == state


def test_ranking_text_keeps_shared_places() -> None:
    assert ranking_text([[2], [0, 1], [3]]) == "2 > 0 = 1 > 3"
    assert parse_ranking("2 > 0 = 1 > 3") == [[2], [0, 1], [3]]


def test_comments_and_loose_spacing_are_read() -> None:
    parsed = parse_text('[Game "stairs"]\n[Seats "2"]\n\n1.c3-d4 {a comment} 2.   pass\n')
    assert parsed.moves == ["c3-d4", "pass"]


@pytest.mark.parametrize("text, complaint", [
    ('[Game "stairs"\n[Seats "2"]\n', "not a tag pair"),
    ('[Seats "2"]\n\n1. c3-d4\n', "Game tag is missing"),
    ('[Game "stairs"]\n[Seats "2"]\n\n1. c3-d4 3. pass\n', "move 3 found where move 2"),
    ('[Game "stairs"]\n[Seats "2"]\n\n1. c3-d4 junk\n', "unexpected text"),
])
def test_unreadable_text_names_the_problem(text: str, complaint: str) -> None:
    with pytest.raises(GameRecordError, match=complaint):
        parse_text(text)


def test_illegal_move_in_a_record_is_reported_with_its_ply() -> None:
    parsed = parse_text('[Game "stairs"]\n[Seats "2"]\n[Seed "1"]\n\n1. zz-zz\n')
    with pytest.raises(GameRecordError, match=r"move 1 \(zz-zz\)"):
        replay(parsed)


def test_unknown_game_in_a_record_is_reported() -> None:
    with pytest.raises(GameRecordError, match="unknown game"):
        replay(parse_text('[Game "chess"]\n[Seats "2"]\n'))


def test_options_fixing_a_deal_are_not_public() -> None:
    town = registry.get("town")
    options = town.parse_options({"start_cards": [3, 5]}).model_dump(mode="json")
    shown = public_options(town, options)
    assert "start_cards" not in shown
    assert public_options(registry.get("stairs"), {"swap": True}) == {"swap": True}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_record_replays_under_the_rules_version_it_was_played_with(seed: int) -> None:
    town = registry.get("town")
    rng = random.Random(seed)
    state = town.replay_start(1, players=2, seed=seed)
    moves = []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        state = state.play(move)
        moves.append({"ply": len(moves) + 1, "seat": 0, "move": move, "time_spent_ms": 1})
    record, _ = _random_record(town, seed, 2, max_plies=0)
    record |= {"rules_version": 1, "moves": moves, "result": state.result.to_json(),
               "status": "finished"}
    parsed = parse_text(export_text(record))
    assert parsed.rules_version == 1
    assert replay(parsed) == state, "a version-1 game must not be replayed under version 2"
