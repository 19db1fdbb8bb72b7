"""A join is written with Core statements and its record built from what it wrote (no re-read):
that record, and the published one, are the match as a fresh read finds it."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from app.accounts.identity import create_guest
from app.kernel.errors import Conflict
from app.match.records import MatchRecord
from app.match.service import MatchService


def test_the_joined_record_is_what_a_fresh_read_finds(session: Session) -> None:
    heard: list[MatchRecord] = []
    service = MatchService(session, heard.append)
    light, dark, third = (create_guest(session, name)[0] for name in ("L", "D", "T"))
    created = service.create(light, "town", players=3, seat=2, time_control={
        "kind": "realtime", "minutes": 5, "increment": 3})
    waiting = service.join(created.id, dark)
    assert waiting.status == "waiting" and waiting.version == created.version + 1
    assert waiting == service.get(created.id)
    started = service.join(created.id, third, seat=1)
    fresh = service.get(created.id)
    assert started == fresh and heard[-1] == fresh
    assert started.status == "active" and started.started_at is not None
    assert started.clock is not None
    assert [(s.seat, s.name) for s in started.seats] == [(0, "D"), (1, "T"), (2, "L")]


def test_joining_twice_or_a_taken_seat_changes_nothing(session: Session) -> None:
    service = MatchService(session, lambda record: None)
    light, dark, third = (create_guest(session, name)[0] for name in ("L", "D", "T"))
    created = service.create(light, "town", players=3, seat=0)
    with pytest.raises(Conflict) as twice:
        service.join(created.id, light)
    assert twice.value.code == "already_joined"
    with pytest.raises(Conflict) as taken:
        service.join(created.id, dark, seat=0)
    assert taken.value.code == "seat_taken"
    assert service.get(created.id) == created
    service.join(created.id, dark)
    service.join(created.id, third)
    with pytest.raises(Conflict) as full:
        service.join(created.id, create_guest(session, "X")[0])
    assert full.value.code == "match_full"
