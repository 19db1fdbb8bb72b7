"""What every fault test asserts, read from the database the topology owns: no move lost or
doubled (each stored log replays to its snapshot; each acknowledged move is stored once, at its
ply), every client current soon after the fault, no win claimed against a present player."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from sqlalchemy import create_engine, text

from games import registry
from tests.faults.driver import Driver, Shown

CURRENT_SECONDS = 5.0
"""Every client shows every change committed before the fault ended within this (the issue's
acceptance bound)."""


class Database:
    def __init__(self, url: str) -> None:
        self.engine = create_engine(url, pool_pre_ping=True)

    def rows(self, sql: str, **params: Any) -> list[Any]:
        with self.engine.connect() as connection:
            return list(connection.execute(text(sql), params))

    def snapshot(self, *queries: tuple[str, dict[str, Any]]) -> list[list[Any]]:
        """Several reads from one snapshot of the database (REPEATABLE READ): a match row and
        its moves read while its game goes on (a bot still playing) agree with each other."""
        isolated = self.engine.connect().execution_options(isolation_level="REPEATABLE READ")
        with isolated as connection, connection.begin():
            return [list(connection.execute(text(sql), params)) for sql, params in queries]

    def versions(self, match_ids: set[str]) -> dict[str, tuple[int, int, str]]:
        """match id -> (version, ply, status)."""
        if not match_ids:
            return {}
        found = self.rows("select id, version, ply, status from matches where id = any(:ids)",
                          ids=list(match_ids))
        return {row.id: (row.version, row.ply, row.status) for row in found}

    def close(self) -> None:
        self.engine.dispose()


def assert_logs_replay(database: Database, match_ids: list[str]) -> int:
    """Every match's stored moves are plies 1..N, once each, and replay from its seed to its
    stored snapshot. Returns the number of moves checked."""
    checked = 0
    for match_id in match_ids:
        matches, moves = database.snapshot(
            ("select game, options, seed, num_seats, rules_version, ply, snapshot from matches "
             "where id = :id", {"id": match_id}),
            ("select ply, move from moves where match_id = :id order by ply, id", {"id": match_id}))
        match = matches[0]
        plies = [move.ply for move in moves]
        doubled = [ply for ply, count in Counter(plies).items() if count > 1]
        assert not doubled, f"match {match_id}: plies stored twice: {doubled}"
        assert plies == list(range(1, match.ply + 1)), (
            f"match {match_id} at ply {match.ply} stores plies {plies}")
        game = registry.get(match.game)
        state = game.replay_start(match.rules_version or 1, players=match.num_seats,
                                  options=match.options, seed=int(match.seed))
        for move in moves:
            state = state.play(move.move)
        assert state.to_json() == match.snapshot, f"match {match_id}: its log does not replay"
        checked += len(moves)
    return checked


def assert_acks_stored_once(database: Database, driver: Driver) -> None:
    """Each move the server acknowledged is the stored move of the ply it was sent for, and no
    ply was acknowledged twice."""
    acked = Counter((ack.match_id, ack.ply) for ack in driver.acks)
    twice = [key for key, count in acked.items() if count > 1]
    assert not twice, f"plies acknowledged twice: {twice}"
    early = [ack for ack in driver.acks if ack.answered < ack.ply]
    assert not early, f"acknowledged at a ply before the move's own: {early[:5]}"
    stored = {(row.match_id, row.ply): row.move for row in database.rows(
        "select match_id, ply, move from moves where match_id = any(:ids)",
        ids=list({ack.match_id for ack in driver.acks}))}
    lost = [(ack, stored.get((ack.match_id, ack.ply))) for ack in driver.acks
            if stored.get((ack.match_id, ack.ply)) != ack.move]
    assert not lost, ("acknowledged but not stored as acknowledged (ack, stored move at its "
                      f"ply): {lost[:5]} ({len(lost)} of {len(driver.acks)})")


def assert_no_move_lost_or_doubled(database: Database, driver: Driver) -> int:
    assert driver.acks, "the players made moves"
    assert_acks_stored_once(database, driver)
    return assert_logs_replay(database, sorted(set(driver.matches)))


def assert_spectators_saw_the_stored_moves(database: Database, driver: Driver) -> None:
    """Every move a page showed is the stored move of that ply (none invented, none changed)."""
    stored = {(row.match_id, row.ply): row.move for row in database.rows(
        "select match_id, ply, move from moves where match_id = any(:ids)",
        ids=list(set(driver.matches)))}
    for feed in driver.feeds:
        for ply, _version, last in feed.seen:
            if last is not None and ply > 0:
                assert stored.get((feed.match_id, last["ply"])) == last["move"], (
                    f"{feed.role} of {feed.match_id} was shown {last} at ply {ply}")


def wait_until_current(database: Database, driver: Driver,
                       seconds: float = CURRENT_SECONDS) -> float:
    """Waits until every open page shows at least the version its match had in the database
    when this was called (the fault's end); fails after ``seconds``. Returns the time taken."""
    began = time.monotonic()
    feeds = driver.live_feeds()
    truth = database.versions({feed.match_id for feed in feeds})

    def behind() -> list[str]:
        return [f"{feed.role} of {feed.match_id} shows v{feed.version} (ply {feed.ply}), "
                f"the database has v{truth[feed.match_id][0]} (ply {truth[feed.match_id][1]})"
                for feed in feeds if not feed.done and feed.match_id in truth
                and feed.version < truth[feed.match_id][0]]

    wait_for(lambda: not behind(), seconds,
             lambda: f"clients still behind {seconds} s after the fault ended: {behind()}")
    return time.monotonic() - began


def wait_until_every_match_moves_on(database: Database, driver: Driver,
                                    seconds: float = 20.0) -> None:
    """Every match that was in play when this was called gets a new move or ends (nothing is
    left waiting for a player who was never told, or for a bot that never answers)."""
    feeds = driver.live_feeds()
    before = {match_id: state for match_id, state in
              database.versions({feed.match_id for feed in feeds}).items()
              if state[2] == "active"}

    def stuck() -> list[str]:
        now = database.versions(set(before))
        return [match_id for match_id, (_version, ply, status) in now.items()
                if status == "active" and ply <= before[match_id][1]]

    wait_for(lambda: not stuck(), seconds,
             lambda: f"matches that did not move on within {seconds} s: {stuck()}")


def assert_no_wrong_claim(driver: Driver, claim_after: float) -> None:
    wrong = [(match_id, absent) for match_id, absent in driver.claims_granted
             if absent < claim_after]
    assert not wrong, f"claim-victory granted against a player at the board: {wrong}"


def wait_for(check: Callable[[], bool], seconds: float, why: Callable[[], str]) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(why())
        time.sleep(0.05)


def summary(driver: Driver) -> str:
    return (f"acks {len(driver.acks)}, errors shown {len(driver.shown)} "
            f"{Counter((s.status, s.code) for s in driver.shown)}, statuses {dict(driver.statuses)}, "
            f"handshakes refused {dict(driver.handshakes)}, claims refused {driver.claims_refused}, "
            f"granted {driver.claims_granted}")


def failures(driver: Driver, allowed: tuple[int, ...] = ()) -> list[Shown]:
    """Answers of 500 and above (nginx's 502 among them) that are not ``allowed``, and every
    refused socket handshake (an exception before a socket is accepted is an HTTP 403 to the
    client)."""
    shown = [s for s in driver.shown if s.status >= 500 and s.status not in allowed]
    shown += [Shown("socket handshake", status, "refused")
              for status, count in driver.handshakes.items() if status not in allowed
              for _ in range(count)]
    return shown


def tally(shown: list[Shown]) -> dict[tuple[str, int, str], int]:
    """(where, status, code) -> how many, for a readable failure."""
    return dict(Counter((s.where, s.status, s.code) for s in shown))
