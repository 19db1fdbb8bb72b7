"""Sealed matches: readable by their seated players only.

Every table of a duplicate round plays the same deal, so watching another table of the round
shows the cards still to come at one's own. Such a match is stored ``sealed``; every read path
(the match, its moves, replay, export, analysis, chat, sockets, streams, the Watch list, its
page) calls :func:`require_visible` for the viewer, and a sealed match answers 403
``match_sealed`` to anyone not seated at it. The tournament scheduler opens the round's tables
in the same transaction that closes the round, when every table has ended: the deal is public
from then on.

Reads that would reveal the whole deal (the computer analysis, the analysis board from the
match's start, the seed in the game record) wait for the opening even for the seated players:
a finished table's deal is still being played at the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.db.models import Match
from app.kernel import i18n
from app.kernel.errors import Forbidden
from app.match.records import MatchHeader

if TYPE_CHECKING:
    from app.match.store import AnyMatch

CODE = "match_sealed"
MESSAGE = i18n.N_("This table is sealed until the round ends: every table of the round plays "
                  "the same deal.")


def _seated(match: AnyMatch | MatchHeader, viewer_id: int | None) -> bool:
    if viewer_id is None:
        return False
    if isinstance(match, MatchHeader):
        return match.seat_of(viewer_id) is not None
    return any(p.user_id == viewer_id for p in match.players)


def sealed_for(match: AnyMatch | MatchHeader, viewer_id: int | None) -> bool:
    """Whether ``viewer_id`` (None: an anonymous visitor) may not see this match now."""
    return bool(match.sealed) and not _seated(match, viewer_id)


def sealed_error() -> Forbidden:
    return Forbidden(i18n.gettext(MESSAGE), code=CODE)


def require_visible(match: AnyMatch | MatchHeader, viewer_id: int | None) -> None:
    """Raise 403 ``match_sealed`` unless the viewer may see the match."""
    if sealed_for(match, viewer_id):
        raise sealed_error()


def require_open(match: AnyMatch | MatchHeader) -> None:
    """Raise 403 ``match_sealed`` while the match is sealed, whoever asks (reads that reveal
    the whole deal: the analysis, the board from its start)."""
    if match.sealed:
        raise sealed_error()


def unseal(session: Session, match_ids: list[str]) -> list[str]:
    """Open these matches (caller commits): each sealed one's version is bumped, so caches keyed
    by version see the change. Returns the ids that were sealed."""
    if not match_ids:
        return []
    opened = list(session.scalars(select(Match.id).where(Match.id.in_(match_ids),
                                                         Match.sealed.is_(True))))
    if opened:
        session.execute(update(Match).where(Match.id.in_(opened), Match.sealed.is_(True))
                        .values(sealed=False, version=Match.version + 1)
                        .execution_options(synchronize_session=False))
    return opened

