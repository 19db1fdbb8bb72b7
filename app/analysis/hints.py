"""Who may be shown "a good move": a player, on their turn, in a casual game whose every other
seat is a built-in bot — never in a rated game (403 ``hints_rated``), never in a tournament game
whoever the opponent (403 ``hints_tournament``: the standings are at stake even against an
entered bot), nor in a game with another person or a third-party bot account in it (403
``hints_people``). On the analysis board anyone may ask (nothing is at stake there).

The hint searches only what the asking seat knows (``State.determinize``), like a bot would.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.kernel.errors import Forbidden
from app.kernel.identity import Identity
from app.match import read_match, require_active, seat_of, state_of


def hint_position(session: Session, match_id: str, user: Identity) -> tuple[str, dict[str, Any]]:
    """(game id, full state) of a position the user may get a hint for; raises why not."""
    match = read_match(session, match_id)
    seat = seat_of(match, user)
    if match.rated:
        raise Forbidden("Hints are only for casual games against the computer.",
                        code="hints_rated")
    if match.tournament_id is not None:
        raise Forbidden("There are no hints in tournament games.", code="hints_tournament")
    for player in match.players:
        if player.user_id == user.id:
            continue
        if player.user.builtin_bot is None:
            raise Forbidden("Hints are only for games against the built-in bots.",
                            code="hints_people")
    require_active(match)
    state = state_of(match)
    if state.to_move != seat:
        raise Forbidden("A hint is for your turn.", code="not_your_turn")
    return match.game, state.to_json()
