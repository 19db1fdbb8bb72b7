"""A match service built without a publisher only reads: a change made through it would commit
and never be announced (spectators stuck, the player to move never told), so it fails loudly."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from app.accounts.identity import create_guest
from app.match.service import MatchService


def test_a_service_without_a_publisher_refuses_to_announce_a_change(session: Session) -> None:
    heard: list[str] = []
    writer = MatchService(session, lambda record: heard.append(record.id))
    light, dark = create_guest(session, "L")[0], create_guest(session, "D")[0]
    match = writer.join(writer.create(light, "stairs", seat=0).id, dark)
    assert heard == [match.id, match.id]
    reader = MatchService(session)
    assert reader.get(match.id).status == "active"  # reading needs no publisher
    with pytest.raises(RuntimeError, match="read-only"):
        reader.resign(match.id, light)
