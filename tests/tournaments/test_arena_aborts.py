"""An aborted arena game is no result for either player (as on Lichess): no points, no game in
the standings, and a streak goes on through it; the tournament page says so."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from app.kernel import timesource
from app.kernel.identity import Identity
from app.match.service import MatchService
from games import registry
from tests.lobby.test_lobby import make_account
from tests.tournaments.conftest import Events, advance, create, make_users, view

REALTIME = {"kind": "realtime", "minutes": 1, "increment": 0}


def _playing(factory: sessionmaker[Session], tournament_id: str) -> tuple[str, list[int]]:
    (game,) = [g for g in view(factory, tournament_id)["games"] if g["status"] == "playing"]
    return game["match_id"], [s["user"]["id"] for s in game["seats"]]


def _standing(factory: sessionmaker[Session], tournament_id: str) -> dict[int, dict]:
    return {row["user"]["id"]: row for row in view(factory, tournament_id)["standings"]}


def test_an_aborted_game_scores_nothing_and_keeps_the_streak(factory, events: Events
                                                              ) -> None:  # type: ignore[no-untyped-def]
    clock = timesource.FakeClock()
    with timesource.use(clock):
        (creator,) = make_users(factory, 1, kind="account", prefix="host")
        winner, loser = make_users(factory, 2, kind="account")
        people = {winner.id: winner, loser.id: loser}
        tournament_id = create(factory, creator, [winner, loser], kind="arena", game="sight",
                               minutes=30, time_control=REALTIME)
        advance(factory, events)

        def next_game(finish: str) -> None:
            match_id, seated = _playing(factory, tournament_id)
            with factory() as session:
                matches = MatchService(session, events.record)
                if finish == "resign":
                    matches.resign(match_id, loser)
                else:  # the first seat moves, the other calls the game off
                    record = matches.get(match_id)
                    state = registry.get(record.game).from_json(record.snapshot)
                    assert state.to_move == 0
                    matches.play(match_id, people[seated[0]], state.legal_moves()[0], record.ply,
                                 seat=0)
                    matches.abort(match_id, Identity(id=seated[1], name="x", kind="account"))
            clock.advance(5)
            advance(factory, events)

        next_game("resign")
        next_game("resign")
        assert _standing(factory, tournament_id)[winner.id]["on_fire"]
        next_game("abort")
        standing = _standing(factory, tournament_id)
        assert standing[winner.id]["score"] == 4 and standing[winner.id]["games"] == 2
        assert standing[loser.id]["score"] == 0 and standing[loser.id]["games"] == 2
        assert standing[winner.id]["on_fire"]  # the abort did not end the streak
        aborted = [g for g in view(factory, tournament_id)["games"] if g["status"] == "void"]
        assert len(aborted) == 1
        assert all(s["result"] is None and s["points"] is None for s in aborted[0]["seats"])
        next_game("resign")  # the third win in a row counts double
        standing = _standing(factory, tournament_id)
        assert standing[winner.id]["score"] == 2 + 2 + 4 and standing[winner.id]["games"] == 3


def test_the_arena_page_says_an_abort_counts_for_nobody(client: TestClient) -> None:
    host = make_account(client, "host")
    made = client.post("/api/v1/tournaments", headers=host, json={
        "name": "Evening arena", "kind": "arena", "game": "sight", "minutes": 30,
        "time_control": REALTIME})
    assert made.status_code == 201, made.text
    url = f"/tournaments/{made.json()['id']}"
    assert "An aborted game counts for nobody" in client.get(f"{url}?lang=en").text
    assert "中止された対局はどちらにも数えません" in client.get(f"{url}?lang=ja").text
