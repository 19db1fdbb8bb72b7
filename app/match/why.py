""""Why not here": an illegal move's reason as a code with parameters, worded in the viewer's
language.

Engines raise :class:`games.IllegalMove` with ``code``, ``params`` and an English ``reason``; the
game's ``words.illegal`` holds the English template of each code, translated in the game's own
``translations/<lang>.po`` (the few reasons common to every game are marked here, in the site's
catalog). A move refused by the match service and the side-effect-free question "why can I not
play this here?" (``POST /api/v1/matches/{id}/why``) both answer with the same body:
``{code: "illegal_move", message, reason: {code, params}}``.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from sqlalchemy.orm import Session

from app.kernel import i18n
from app.kernel.errors import Forbidden, Invalid
from app.kernel.identity import Identity
from app.kernel.json_types import JSONObject
from app.match import store
from games import COMMON_ILLEGAL, Game, IllegalMove, registry

# The common reasons (games/base.py COMMON_ILLEGAL), marked for the site's catalog; a test checks
# that the two stay the same.
COMMON_WORDS = {
    "illegal": i18n.N_("{move} is not a legal move here"),
    "game_over": i18n.N_("the game is over"),
    "not_a_move": i18n.N_("{move} is not a move"),
}


def reason_text(game: Game, error: IllegalMove) -> str:
    """The reason in the current language; the engine's English sentence when the code has no
    template (an engine that raised a bare ``IllegalMove(text)``) or the template does not fit."""
    template = game.words.illegal.get(error.code) or COMMON_ILLEGAL.get(error.code)
    if template is None:
        return error.reason
    try:
        return i18n.game_text(game, template).format(**error.params)
    except (KeyError, IndexError, ValueError):  # a translation that lost or broke a field
        return error.reason


class IllegalBody(TypedDict):
    """Why a move is refused: the code, the reason in words and the game's reason record."""

    code: str
    message: str
    reason: JSONObject  # the game's ``IllegalMove.to_json()``


class WhyAnswer(TypedDict):
    """Whether a move is legal now, and if not why (``WhyOut`` documents it)."""

    legal: bool
    move: str
    code: NotRequired[str]
    message: NotRequired[str]
    reason: NotRequired[JSONObject]


def illegal_body(game: Game, error: IllegalMove) -> IllegalBody:
    """The JSON body that explains an illegal move (also the ``why`` answer for one)."""
    return {"code": "illegal_move", "message": reason_text(game, error), "reason": error.to_json()}


def illegal_move_error(game_id: str, error: IllegalMove) -> Invalid:
    """The 422 the match service raises for a refused move: translated, with the reason code."""
    body = illegal_body(registry.get(game_id), error)
    return Invalid(body["message"], code="illegal_move", extra={"reason": body["reason"]})


def why_not(session: Session, match_id: str, user: Identity, move: str) -> WhyAnswer:
    """Whether the seated ``user`` could play ``move`` (or pick up the piece it names) now, and
    if not why. Reads the match, changes nothing; the reason sees only what the seat sees."""
    match = store.read(session, match_id)
    seat = store.seat_of(match, user)
    store.require_active(match)
    state = store.state_of(match)
    if state.to_move != seat and not any(
        p.user_id == user.id and p.seat == state.to_move for p in match.players
    ):
        raise Forbidden("It is not your turn.", code="not_your_turn")
    error = state.why_not(move)
    if error is None:
        return {"legal": True, "move": move}
    return {"legal": False, "move": move, **illegal_body(registry.get(match.game), error)}
