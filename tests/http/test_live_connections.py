"""The live-connection registry on its own: which announcement ends which connection."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from app.http.live_connections import LiveConnections
from app.http.principal import ANONYMOUS, Principal
from app.http.ratelimit import RateLimited
from app.kernel.identity import Identity
from app.kernel.timesource import now

ALICE, BOB = Identity(1, "Alice", "user"), Identity(2, "Bob", "user")


class Ends:
    """Records why each connection was ended."""

    def __init__(self) -> None:
        self.reasons: dict[str, str] = {}

    def of(self, name: str):  # type: ignore[no-untyped-def]
        return lambda reason: self.reasons.__setitem__(name, reason)


def _token(user: Identity, token_hash: str, **extra: object) -> Principal:
    return Principal(user, "token", token_hash=token_hash, **extra)  # type: ignore[arg-type]


def _session(user: Identity, session_hash: str) -> Principal:
    return Principal(user, "session", session_hash=session_hash)


def test_each_announcement_ends_exactly_its_connections() -> None:
    registry, ends = LiveConnections(8), Ends()
    registry.open(_token(ALICE, "t1"), ends.of("alice t1"))
    registry.open(_token(ALICE, "t2"), ends.of("alice t2"))
    registry.open(_session(ALICE, "s1"), ends.of("alice s1"))
    registry.open(_session(ALICE, "s2"), ends.of("alice s2"))
    registry.open(_session(BOB, "s3"), ends.of("bob s3"))
    registry.open(ANONYMOUS, ends.of("anonymous"))
    assert registry.apply({"type": "forget_user", "user_id": 1}) == 0  # a rename: caches only
    assert registry.apply({"type": "forget_token", "token_hash": "t1"}) == 1
    assert registry.apply({"type": "forget_session", "session_hash": "s1"}) == 1
    assert registry.apply({"type": "end_user", "user_id": 1, "credential": "session"}) == 1
    assert ends.reasons == {"alice t1": "revoked", "alice s1": "logged_out",
                            "alice s2": "logged_out"}
    assert registry.apply({"type": "end_user", "user_id": 1, "credential": None}) == 1
    assert ends.reasons["alice t2"] == "logged_out" and "bob s3" not in ends.reasons


def test_a_connection_that_registers_just_after_its_token_was_revoked_ends_at_once() -> None:
    registry, ends = LiveConnections(8), Ends()
    registry.apply({"type": "forget_token", "token_hash": "t1"})  # resolved before, opens after
    registry.open(_token(ALICE, "t1"), ends.of("late"))
    assert ends.reasons == {"late": "revoked"}


def test_a_token_holds_at_most_the_cap_and_a_closed_one_frees_its_place() -> None:
    registry, ends = LiveConnections(2), Ends()
    first = registry.open(_token(ALICE, "t1"), ends.of("1"))
    registry.open(_token(ALICE, "t1"), ends.of("2"))
    with pytest.raises(RateLimited):
        registry.open(_token(ALICE, "t1"), ends.of("3"))
    registry.open(_session(ALICE, "s1"), ends.of("session"))  # sessions are not counted
    registry.close(first)
    registry.open(_token(ALICE, "t1"), ends.of("4"))


def test_an_expiring_token_ends_when_it_expires() -> None:
    async def scenario() -> dict[str, str]:
        registry, ends = LiveConnections(8), Ends()
        soon = now() + timedelta(seconds=0.2)
        registry.open(_token(ALICE, "t1", expires_at=soon), ends.of("expiring"))
        closed = registry.open(_token(ALICE, "t2", expires_at=soon), ends.of("closed first"))
        registry.close(closed)
        await asyncio.sleep(0.1)
        assert ends.reasons == {}
        await asyncio.sleep(0.3)
        return ends.reasons

    assert asyncio.run(scenario()) == {"expiring": "expired"}
