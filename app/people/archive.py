"""A person's finished games as game records, newest first: the archive a program downloads
(``GET /api/v1/users/{name}/games``, NDJSON, as Lichess's ``/api/games/user/{name}``).

The matches are chosen in one query (``since`` / ``until`` on the time each was created, in
milliseconds since the epoch, ``max``, a game); their records are then built a batch at a time,
each batch in a short session of its own, so no database connection waits on a slow reader.
A sealed table of a duplicate round is left out for everyone not seated at it, as on profiles.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import orjson
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import Match, MatchPlayer
from app.match import build_record
from app.people.profiles import visible_to

BATCH = 50


@dataclass(frozen=True, slots=True)
class ArchiveQuery:
    """Which of a person's finished games: created in [since, until] (ms), newest first, at
    most ``most``, of one ``game`` (None: every game)."""

    since_ms: int | None = None
    until_ms: int | None = None
    most: int | None = None
    game: str | None = None


def _moment(ms: int) -> datetime:
    """Milliseconds since the epoch as the naive UTC time the tables store."""
    return datetime.fromtimestamp(ms / 1000, UTC).replace(tzinfo=None)


def archived(session: Session, user_id: int, viewer_id: int | None, query: ArchiveQuery
             ) -> list[tuple[str, int]]:
    """(match id, version) of the games to export, newest first: the versions tell whether an
    export is still the one a client has (its ETag)."""
    chosen = (select(Match.id, Match.version).join(MatchPlayer)
              .where(MatchPlayer.user_id == user_id, Match.status == "finished",
                     visible_to(viewer_id))
              .order_by(Match.created_at.desc(), Match.id.desc()).limit(query.most))
    if query.since_ms is not None:
        chosen = chosen.where(Match.created_at >= _moment(query.since_ms))
    if query.until_ms is not None:
        chosen = chosen.where(Match.created_at <= _moment(query.until_ms))
    if query.game is not None:
        chosen = chosen.where(Match.game == query.game)
    return [(match_id, version) for match_id, version in session.execute(chosen)]


def record_lines(session_factory: sessionmaker[Session], match_ids: list[str],
                 viewer_id: int | None) -> Iterator[bytes]:
    """One JSON record a line; the session of each batch is closed before its lines go out."""
    for start in range(0, len(match_ids), BATCH):
        with session_factory() as session:
            lines = [orjson.dumps(build_record(session, match_id, viewer_id)) + b"\n"
                     for match_id in match_ids[start:start + BATCH]]
        yield b"".join(lines)
