"""An arena of 6 bots over a short window (fake clock), and a duplicate Town round over three
tables: the same deal at every table, rank points, the deal hidden until the round ends."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict

from sqlalchemy import select

from app.db.models import Match
from app.kernel import timesource
from app.match.payloads import match_payload
from app.match.service import MatchService
from app.tournaments.models import TournamentGame
from games import registry
from tests.tournaments.conftest import (
    Events,
    advance,
    create,
    make_users,
    play_out,
    tournament_matches,
    view,
)


def lichess_points(results: list[float]) -> list[int]:
    """Computed here independently: 2/1/0, doubled from the third win in a row on."""
    out, wins = [], 0
    for result in results:
        base = {1.0: 2, 0.5: 1, 0.0: 0}[result]
        out.append(base * (2 if wins >= 2 else 1))
        wins = wins + 1 if result == 1.0 else 0
    return out


def test_an_arena_of_six_bots(factory, events: Events) -> None:  # type: ignore[no-untyped-def]
    clock = timesource.FakeClock()
    with timesource.use(clock):
        (creator,) = make_users(factory, 1, kind="account", prefix="host")
        bots = make_users(factory, 6)
        tournament_id = create(factory, creator, bots, kind="arena", game="sight", minutes=1,
                               time_control={"kind": "realtime", "minutes": 1, "increment": 0})
        for _ in range(5):  # games end, players are paired again at once
            advance(factory, events)
            for match_id in tournament_matches(factory, tournament_id):
                play_out(factory, match_id, events, level=None)
            clock.advance(10)
        advance(factory, events)  # results, then the next games...
        advance(factory, events)
        still_playing = tournament_matches(factory, tournament_id)
        assert still_playing
        clock.advance(30)  # ...which the end of the window cuts off
        advance(factory, events)
        tournament = view(factory, tournament_id)
    assert tournament["status"] == "finished"
    games = [g for g in tournament["games"] if g["status"] == "finished"]
    assert {g["status"] for g in tournament["games"]} == {"finished", "void"}
    assert len(games) >= 15
    history: dict[int, list[tuple[int, float, float]]] = defaultdict(list)
    for game in games:  # in pairing order
        a, b = game["seats"]
        history[a["user"]["id"]].append((b["user"]["id"], a["result"], a["points"]))
        history[b["user"]["id"]].append((a["user"]["id"], b["result"], b["points"]))
    for player, played in history.items():
        opponents = [o for o, _, _ in played]
        assert all(x != y for x, y in itertools.pairwise(opponents)), player
        assert [p for _, _, p in played] == lichess_points([r for _, r, _ in played])
    by_user = {row["user"]["id"]: row for row in tournament["standings"]}
    for player, played in history.items():
        assert by_user[player]["score"] == sum(p for _, _, p in played)
    scores = [row["score"] for row in tournament["standings"]]
    assert scores == sorted(scores, reverse=True)


def expected_rank_points(ranking: list[list[int]], size: int) -> dict[int, float]:
    ladder = {4: [6, 4, 2, 0], 3: [6, 3, 0], 2: [6, 0]}[size]
    out, place = {}, 0
    for group in ranking:
        share = sum(ladder[place:place + len(group)]) / len(group)
        out.update({seat: share for seat in group})
        place += len(group)
    return out


def test_a_duplicate_town_round_over_three_tables(factory, events: Events) -> None:  # type: ignore[no-untyped-def]
    (creator,) = make_users(factory, 1, kind="account", prefix="host")
    players = make_users(factory, 10)
    tournament_id = create(factory, creator, players, kind="duplicate", game="town", rounds=2)
    advance(factory, events)
    with factory() as session:
        matches = list(session.scalars(select(Match).join(
            TournamentGame, TournamentGame.match_id == Match.id).where(
            TournamentGame.tournament_id == tournament_id).order_by(TournamentGame.board)))
        assert [m.num_seats for m in matches] == [4, 3, 3]
        starts = [registry.get("town").new_state(m.num_seats, m.options, m.seed).to_json()
                  for m in matches]
        payloads = [match_payload(MatchService.read_only(session).get(m.id), None) for m in matches]
    for start in starts:  # the same decks at every table, the same start cards seat by seat
        assert (start["offer"], start["path_deck"], start["event_deck"]) == (
            starts[0]["offer"], starts[0]["path_deck"], starts[0]["event_deck"])
        assert start["start_cards"] == starts[0]["start_cards"][:start["players"]]
    for payload in payloads:  # the match itself never shows the deal
        assert not {"path_deck", "event_deck", "start_cards"} & set(payload["options"])
        assert json.dumps(starts[0]["path_deck"])[1:-1] not in json.dumps(payload)

    round_one = [m.id for m in matches]
    play_out(factory, round_one[0], events, level=None)
    advance(factory, events)
    outsider = view(factory, tournament_id)
    assert outsider["rounds_info"][0]["deal"] is None  # not every table has finished
    assert all(g["match_id"] is None for g in outsider["games"])
    seated = view(factory, tournament_id, players[0].id)
    assert sum(1 for g in seated["games"] if g["match_id"]) == 1  # one's own table only

    for match_id in round_one[1:]:
        play_out(factory, match_id, events, level=None)
    advance(factory, events)
    tournament = view(factory, tournament_id)
    deal = tournament["rounds_info"][0]["deal"]
    assert deal["path_deck"][0] == starts[0]["offer"][0]
    with factory() as session:
        results = {m.id: session.get(Match, m.id).result for m in matches}
    first_round = [g for g in tournament["games"] if g["round"] == 1]
    for game in first_round:
        ranking = results[game["match_id"]]["ranking"]
        expected = expected_rank_points(ranking, len(game["seats"]))
        assert {s["seat"]: s["points"] for s in game["seats"]} == expected
    seats_before = {s["user"]["id"]: s["seat"] for g in first_round for s in g["seats"]}
    second = [g for g in tournament["games"] if g["round"] == 2]
    assert len(second) == 3
    for game in second:  # seats rotate: as few players keep their seat as the table allows
        players = [s["user"]["id"] for s in game["seats"]]
        kept = sum(1 for s in game["seats"] if s["seat"] == seats_before[s["user"]["id"]])
        fewest = min(sum(1 for seat, p in enumerate(order) if seats_before[p] == seat)
                     for order in itertools.permutations(players))
        assert kept == fewest, game
    for match_id in tournament_matches(factory, tournament_id):
        play_out(factory, match_id, events, level=None)
    advance(factory, events)
    tournament = view(factory, tournament_id)
    assert tournament["status"] == "finished"
    totals: dict[int, float] = defaultdict(float)
    for game in tournament["games"]:
        for seat in game["seats"]:
            totals[seat["user"]["id"]] += seat["points"]
    assert {r["user"]["id"]: r["score"] for r in tournament["standings"]} == totals
