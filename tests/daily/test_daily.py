"""The daily duplicate Town deal: everyone who plays a day's deal gets the same cards, their games
are sealed until the day ends (a controllable clock here), then the deal and the games are
revealed once; a finished player sees their rank, percentile and the score distribution.
SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.daily.service import DailyService
from app.db.models import DailyDeal, Match
from app.kernel import timesource
from app.kernel.settings import Settings
from app.main import create_app
from games import registry
from tests.playing import play_out, random_moves

MORNING = datetime(2026, 11, 26, 9, 0, 0)


@pytest.fixture
def clock() -> Iterator[timesource.FakeClock]:
    fake = timesource.FakeClock(MORNING)
    with timesource.use(fake):
        yield fake


@pytest.fixture
def client(database_url: str, clock: timesource.FakeClock) -> Iterator[TestClient]:
    """The app without background jobs: the tests play every seat themselves."""
    app = create_app(Settings(database_url=database_url, secret_key="test-secret",
                              background_jobs="off"))
    with TestClient(app) as test_client:
        yield test_client


class Person:
    def __init__(self, client: TestClient, name: str) -> None:
        answer = client.post("/api/v1/guests", json={"name": name})
        assert answer.status_code == 201, answer.text
        self.id = answer.json()["user"]["id"]
        self.headers = {"Authorization": f"Bearer {answer.json()['token']}"}


def _play(client: TestClient, person: Person, players: int, seat: int) -> dict[str, Any]:
    answer = client.post("/api/v1/daily/town/play", json={"players": players, "seat": seat},
                         headers=person.headers)
    assert answer.status_code == 201, answer.text
    return answer.json()  # type: ignore[no-any-return]


def _match(client: TestClient, match_id: str) -> Match:
    app: Any = client.app
    with app.state.session_factory() as session:
        match = session.get(Match, match_id)
        assert match is not None
        session.expunge(match)
        return match


def _play_out(client: TestClient, match_id: str, seed: int) -> None:
    """Every seat plays random legal moves through the match service until the game ends."""
    app: Any = client.app
    play_out(app.state.session_factory, match_id, random_moves(seed))


def _deal(client: TestClient, person: Person | None, players: int) -> dict[str, Any]:
    answer = client.get("/api/v1/daily/town", headers=person.headers if person else {})
    assert answer.status_code == 200, answer.text
    return next(d for d in answer.json()["deals"] if d["players"] == players)


def test_two_people_get_the_same_sealed_deal(client: TestClient) -> None:
    aiko, bob = Person(client, "Aiko"), Person(client, "Bob")
    mine = _play(client, aiko, 3, 0)["you"]
    theirs = _play(client, bob, 3, 2)["you"]
    assert (mine["seat"], theirs["seat"]) == (0, 2)
    first, second = _match(client, mine["match_id"]), _match(client, theirs["match_id"])
    assert first.seed == second.seed  # one deal: the same decks and start cards
    assert first.snapshot == second.snapshot
    assert first.sealed and second.sealed
    # each plays their own seat, bots the others
    assert client.get(f"/api/v1/matches/{mine['match_id']}", headers=aiko.headers
                      ).json()["your_seat"] == 0
    seen = client.get(f"/api/v1/matches/{theirs['match_id']}", headers=bob.headers).json()
    assert seen["your_seat"] == 2
    assert [s["user"]["kind"] for s in seen["seats"]] == ["bot", "bot", "guest"]
    # nobody else may look at a game of the deal while the day lasts
    for path in (f"/api/v1/matches/{theirs['match_id']}",
                 f"/api/v1/matches/{theirs['match_id']}/moves",
                 f"/api/v1/matches/{theirs['match_id']}/replay"):
        for headers in (aiko.headers, {}):
            refused = client.get(path, headers=headers)
            assert refused.status_code == 403, (path, refused.text)
            assert refused.json()["code"] == "match_sealed"
    page = client.get(f"/m/{theirs['match_id']}", headers=aiko.headers)
    assert page.status_code == 403
    # the seed is in no answer: neither the deal's nor the match's
    for answer in (client.get("/api/v1/daily/town", headers=aiko.headers),
                   client.get(f"/api/v1/matches/{mine['match_id']}", headers=aiko.headers)):
        assert str(first.seed) not in answer.text
    deal = _deal(client, None, 3)
    assert (deal["entries"], deal["finished"], deal["deal"], deal["revealed"]) == (2, 0, None, False)
    # another player count is another deal
    other = _match(client, _play(client, aiko, 2, 1)["you"]["match_id"])
    assert other.seed != first.seed


def test_one_attempt_per_person_day_and_player_count(client: TestClient) -> None:
    aiko = Person(client, "Aiko")
    _play(client, aiko, 4, 3)
    again = client.post("/api/v1/daily/town/play", json={"players": 4, "seat": 0},
                        headers=aiko.headers)
    assert again.status_code == 409 and again.json()["code"] == "daily_played"
    past = client.post("/api/v1/daily/town/play", json={"players": 3, "seat": 3},
                       headers=aiko.headers)
    assert past.status_code == 422 and past.json()["code"] == "invalid_seat"
    for body in ({"players": 5, "seat": 0}, {"players": 1}, {"players": "4"}):
        assert client.post("/api/v1/daily/town/play", json=body,
                           headers=aiko.headers).status_code == 422
    assert client.post("/api/v1/daily/town/play", json={"players": 2}).status_code == 401


def test_a_read_only_token_cannot_start_a_game(client: TestClient) -> None:
    account = client.post("/api/v1/accounts", json={"username": "aiko",
                                                     "password": "correct horse 1"})
    full = {"Authorization": f"Bearer {account.json()['token']}"}
    reader = client.post("/api/v1/tokens", headers=full,
                         json={"description": "reader", "scopes": ["read"]}).json()["token"]
    refused = client.post("/api/v1/daily/town/play", json={"players": 2},
                          headers={"Authorization": f"Bearer {reader}"})
    assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    assert client.get("/api/v1/daily/town",
                      headers={"Authorization": f"Bearer {reader}"}).status_code == 200


def test_a_finished_player_sees_where_they_stand(client: TestClient) -> None:
    aiko, bob, carol = Person(client, "Aiko"), Person(client, "Bob"), Person(client, "Carol")
    mine = _play(client, aiko, 2, 0)["you"]["match_id"]
    theirs = _play(client, bob, 2, 1)["you"]["match_id"]
    _play(client, carol, 2, 0)  # still playing
    _play_out(client, mine, 1)
    _play_out(client, theirs, 2)
    scores = {mine: _match(client, mine).result["scores"][0],  # type: ignore[index]
              theirs: _match(client, theirs).result["scores"][1]}  # type: ignore[index]
    deal = _deal(client, aiko, 2)
    you = deal["you"]
    assert you["score"] == scores[mine] and you["counted"] is True
    others = [scores[mine], scores[theirs]]
    assert you["rank"] == 1 + sum(s > scores[mine] for s in others)
    expected = 100.0 if scores[mine] > scores[theirs] else 0.0 if scores[mine] < scores[theirs] \
        else 50.0
    assert you["percentile"] == expected
    assert sum(row["players"] for row in deal["distribution"]) == 2
    assert [row["score"] for row in deal["standings"]] == sorted(others, reverse=True)
    links = {row["user"]["name"]: row["match_id"] for row in deal["standings"]}
    assert links == {"Aiko": mine, "Bob": None}  # the others' games wait for the day's end
    assert (deal["entries"], deal["finished"]) == (3, 2)
    # one who has not finished sees no results yet; neither does a visitor
    for viewer in (carol, None):
        seen = _deal(client, viewer, 2)
        assert seen["distribution"] is None and seen["standings"] is None


def test_the_deal_and_the_games_are_revealed_once_when_the_day_ends(
        client: TestClient, clock: timesource.FakeClock) -> None:
    aiko, bob = Person(client, "Aiko"), Person(client, "Bob")
    mine = _play(client, aiko, 2, 0)["you"]["match_id"]
    late = _play(client, bob, 2, 1)["you"]["match_id"]
    _play_out(client, mine, 3)
    clock.moment = datetime(2026, 11, 26, 23, 59, 59)
    assert _deal(client, None, 2)["revealed"] is False
    assert client.get(f"/api/v1/matches/{mine}").status_code == 403
    clock.moment = datetime(2026, 11, 27, 0, 0, 1)  # the next day
    today = client.get("/api/v1/daily/town").json()
    assert today["day"] == "2026-11-27" and all(d["entries"] == 0 for d in today["deals"])
    app: Any = client.app
    with app.state.session_factory() as session:
        revealed_at = session.scalar(select(DailyDeal.revealed_at).where(DailyDeal.players == 2))
        assert revealed_at == clock.moment
        # a second reveal (the job, another instance) opens nothing and moves nothing
        assert DailyService(session).reveal_due() == []
        assert session.scalar(select(DailyDeal.revealed_at).where(DailyDeal.players == 2)) \
            == revealed_at
    answer = client.get("/api/v1/daily/town", params={"day": "2026-11-26"})
    deal = next(d for d in answer.json()["deals"] if d["players"] == 2)
    assert deal["revealed"] is True
    start = registry.get("town").new_state(players=2, seed=_match(client, mine).seed).to_json()
    assert deal["deal"]["start_cards"] == start["start_cards"]
    assert deal["deal"]["path_deck"][0] == start["offer"][0]
    assert [row["match_id"] for row in deal["standings"]] == [mine]  # counted, and open to all
    assert client.get(f"/api/v1/matches/{mine}").status_code == 200
    # the game still in play when the day ended stays sealed, and never counts
    assert client.get(f"/api/v1/matches/{late}").status_code == 403
    _play_out(client, late, 4)
    with app.state.session_factory() as session:
        assert DailyService(session).reveal_due() == [late]
    assert client.get(f"/api/v1/matches/{late}").status_code == 200
    again = next(d for d in client.get("/api/v1/daily/town", params={"day": "2026-11-26"})
                 .json()["deals"] if d["players"] == 2)
    assert [row["match_id"] for row in again["standings"]] == [mine]
    assert again["finished"] == 2
    future = client.get("/api/v1/daily/town", params={"day": "2026-11-28"})
    assert future.status_code == 422 and future.json()["code"] == "daily_future"
    clock.moment += timedelta(days=1)


def test_the_page_starts_a_game_from_a_form(client: TestClient) -> None:
    page = client.get("/daily")
    assert page.status_code == 200 and "Play today's deal" in page.text
    csrf = page.text.split('name="csrf" value="')[1].split('"')[0]
    started = client.post("/daily/play", data={"csrf": csrf, "name": "Aiko", "players": "3",
                                               "seat": "1"}, follow_redirects=False)
    assert started.status_code == 303, started.text
    match_id = started.headers["location"].removeprefix("/m/")
    assert _match(client, match_id).sealed
    assert client.get(started.headers["location"]).status_code == 200
    assert "Continue your game" in client.get("/daily").text
    _play_out(client, match_id, 5)
    page = client.get("/daily").text
    assert "Scores on this deal" in page and "Nobody else has finished yet." in page
    refused = client.post("/daily/play", data={"players": "3", "seat": "1"})
    assert refused.status_code == 403


def test_instances_racing_to_reveal_reveal_once(client: TestClient,
                                                clock: timesource.FakeClock) -> None:
    """The job of one instance and a read on another at the same moment: one reveal, every
    ended game opened, nothing refused."""
    people = [Person(client, f"P{n}") for n in range(3)]
    games = [_play(client, person, 2, n % 2)["you"]["match_id"] for n, person in enumerate(people)]
    for n, match_id in enumerate(games):
        _play_out(client, match_id, 10 + n)
    clock.moment = datetime(2026, 11, 27, 0, 0, 5)
    app: Any = client.app
    opened: list[list[str]] = []
    errors: list[BaseException] = []
    gate = threading.Barrier(3)

    def reveal() -> None:
        try:
            gate.wait()
            with app.state.session_factory() as session:
                opened.append(DailyService(session).reveal_due())
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=reveal) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert set().union(*map(set, opened)) == set(games)
    with app.state.session_factory() as session:
        deal = session.scalar(select(DailyDeal).where(DailyDeal.players == 2))
        assert deal is not None and deal.revealed_at == clock.moment
        assert not any(session.get(Match, m).sealed for m in games)  # type: ignore[union-attr]
    for match_id in games:
        assert client.get(f"/api/v1/matches/{match_id}").status_code == 200


@pytest.mark.parametrize("day", ["0000-00-00", "2026-02-30", "2026-13-01"])
def test_a_day_that_is_no_date_is_a_422(client: TestClient, day: str) -> None:
    answer = client.get("/api/v1/daily/town", params={"day": day})
    assert answer.status_code == 422 and answer.json()["code"] == "invalid_day", answer.text
