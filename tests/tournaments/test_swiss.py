"""A 7-player Swiss over 3 rounds played by bots to the end: no repeated pairing, the bye to the
lowest-ranked player without one, tie-breaks as computed here by hand; a restart in the
middle of a round, with schedulers running at once; withdrawals and late joins."""

from __future__ import annotations

import threading
from collections import defaultdict
from typing import Any

from sqlalchemy import func, select

from app.db.session import make_engine, make_session_factory
from app.tournaments.models import TournamentGame, TournamentSeat
from app.tournaments.service import TournamentService
from tests.tournaments.conftest import (
    Events,
    advance,
    create,
    make_users,
    play_out,
    tournament_matches,
    view,
)


def rounds_of(tournament: dict[str, Any]) -> dict[int, list[dict[str, Any]]]:
    rounds: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for game in tournament["games"]:
        rounds[game["round"]].append(game)
    return rounds


def test_seven_bots_play_three_swiss_rounds(factory, events: Events) -> None:  # type: ignore[no-untyped-def]
    (creator,) = make_users(factory, 1, kind="account", prefix="host")
    bots = make_users(factory, 7)
    tournament_id = create(factory, creator, bots, kind="swiss", game="sight", rounds=3)
    ratings = {b.id: 25.0 for b in bots}  # everyone new: the order is by entry (id)
    scores: dict[int, float] = defaultdict(float)
    byes: list[int] = []
    for number in range(1, 4):
        advance(factory, events)
        current = rounds_of(view(factory, tournament_id))[number]
        (bye,) = [g for g in current if g["status"] == "bye"]
        bye_player = bye["seats"][0]["user"]["id"]
        ranked = sorted(ratings, key=lambda u: (-scores[u], -ratings[u], u))
        assert bye_player == [u for u in ranked if u not in byes][-1]
        byes.append(bye_player)
        for match_id in tournament_matches(factory, tournament_id):
            play_out(factory, match_id, events)
        advance(factory, events)  # records the results
        for game in rounds_of(view(factory, tournament_id))[number]:
            for seat in game["seats"]:
                scores[seat["user"]["id"]] += seat["points"]
    tournament = view(factory, tournament_id)
    assert tournament["status"] == "finished"
    pairs = [frozenset(s["user"]["id"] for s in g["seats"]) for g in tournament["games"]
             if g["status"] == "finished"]
    assert len(pairs) == 9 and len(set(pairs)) == 9  # no repeated pairing
    assert len(set(byes)) == 3
    # Tie-breaks by hand from the games.
    opponents: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for game in tournament["games"]:
        if game["status"] != "finished":
            continue
        a, b = game["seats"]
        opponents[a["user"]["id"]].append((b["user"]["id"], a["result"]))
        opponents[b["user"]["id"]].append((a["user"]["id"], b["result"]))
    rows = tournament["standings"]
    for row in rows:
        me = row["user"]["id"]
        assert row["score"] == scores[me]
        assert row["buchholz"] == sum(scores[o] for o, _ in opponents[me])
        assert row["sonneborn_berger"] == sum(scores[o] * r for o, r in opponents[me])
    keys = [(-r["score"], -r["buchholz"], -r["sonneborn_berger"]) for r in rows]
    assert keys == sorted(keys)
    assert all(g["url"] == f"/m/{g['match_id']}" for g in tournament["games"] if g["match_id"])


def test_a_restart_in_the_middle_of_a_round_pairs_nobody_twice(database_url: str,
                                                                events: Events) -> None:
    url = database_url  # SQLite and PostgreSQL
    engine = make_engine(url)
    factory = make_session_factory(engine)
    (creator,) = make_users(factory, 1, kind="account", prefix="host")
    players = make_users(factory, 6)
    tournament_id = create(factory, creator, players, kind="swiss", game="sight", rounds=2)
    advance(factory, events)
    first, *rest = tournament_matches(factory, tournament_id)
    play_out(factory, first, events, level=None)
    engine.dispose()  # the scheduler goes away in the middle of round 1

    engine = make_engine(url)
    factory = make_session_factory(engine)

    def schedulers_at_once() -> None:
        threads = [threading.Thread(target=advance, args=(factory, events)) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    schedulers_at_once()
    assert len(tournament_matches(factory, tournament_id)) == 2  # round 1 goes on, unpaired again
    for match_id in rest:
        play_out(factory, match_id, events, level=None)
    schedulers_at_once()
    schedulers_at_once()
    with factory() as session:
        per_round = dict(session.execute(
            select(TournamentGame.round, func.count()).where(
                TournamentGame.tournament_id == tournament_id).group_by(TournamentGame.round)).all())
        seats = session.execute(select(TournamentSeat.slot, TournamentSeat.user_id).where(
            TournamentSeat.tournament_id == tournament_id)).all()
    assert per_round == {1: 3, 2: 3}
    assert len(seats) == len(set(seats)) == 12  # each player once per round
    assert view(factory, tournament_id)["round"] == 2
    engine.dispose()


def test_withdrawn_players_are_not_paired_and_late_joiners_are(factory, events: Events) -> None:  # type: ignore[no-untyped-def]
    (creator,) = make_users(factory, 1, kind="account", prefix="host")
    first, *others = make_users(factory, 4)
    (late,) = make_users(factory, 1, prefix="late")
    tournament_id = create(factory, creator, [first, *others], kind="swiss", game="sight", rounds=2)
    advance(factory, events)
    with factory() as session:
        service = TournamentService(session)
        service.withdraw(tournament_id, first)
        service.join(tournament_id, late)
    for match_id in tournament_matches(factory, tournament_id):
        play_out(factory, match_id, events, level=None)
    advance(factory, events)
    tournament = view(factory, tournament_id)
    round_two = [s["user"]["id"] for g in tournament["games"] if g["round"] == 2 for s in g["seats"]]
    assert sorted(round_two) == sorted([o.id for o in others] + [late.id])
    rows = {r["user"]["id"]: r for r in tournament["standings"]}
    assert rows[first.id]["withdrawn"] and rows[first.id]["score"] in (0.0, 0.5, 1.0)
    assert rows[late.id]["score"] == 0.0 and not rows[late.id]["withdrawn"]
