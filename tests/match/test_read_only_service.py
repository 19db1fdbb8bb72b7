"""A match service built to read (``MatchService.read_only``) has no publisher: a change made
through it would commit and never be announced (spectators stuck, the player to move never told),
so it fails loudly; and no service is built without saying who hears its changes."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from app.accounts.identity import create_guest
from app.match.service import MatchService


def test_a_read_only_service_refuses_to_announce_a_change(session: Session) -> None:
    heard: list[str] = []
    writer = MatchService(session, lambda record: heard.append(record.id))
    light, dark = create_guest(session, "L")[0], create_guest(session, "D")[0]
    match = writer.join(writer.create(light, "stairs", seat=0).id, dark)
    assert heard == [match.id, match.id]
    reader = MatchService.read_only(session)
    assert reader.get(match.id).status == "active"  # reading needs no publisher
    with pytest.raises(RuntimeError, match="read-only"):
        reader.resign(match.id, light)


def test_a_service_cannot_be_built_without_saying_who_hears_its_changes(session: Session) -> None:
    with pytest.raises(TypeError, match="publish"):
        MatchService(session)  # type: ignore[call-arg]  # the mistake this test pins down
