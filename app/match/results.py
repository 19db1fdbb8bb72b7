"""Result reasons are codes: each game's own (``highest_piece``, ``no_legal_move``…, labelled in
the game's folder) and these, which the site itself decides. Labels are English msgids; pages
translate them through the one catalog."""

from __future__ import annotations

from games import Game, registry

RESIGNED = "resigned"
TIME_OUT = "time_out"
OPPONENT_LEFT = "opponent_left"
LAST_STANDING = "last_standing"
DRAW_AGREED = "draw_agreed"
AGREED_END = "agreed_end"


def N_(text: str) -> str:
    """Marks a msgid for extraction (see babel.cfg); translated where it is shown."""
    return text


SITE_REASONS = {
    RESIGNED: N_("resignation"),
    TIME_OUT: N_("time out"),
    OPPONENT_LEFT: N_("opponent left"),
    LAST_STANDING: N_("last player standing"),
    DRAW_AGREED: N_("draw agreed"),
    AGREED_END: N_("agreed end"),
}
FORMER_SITE_REASONS = {"resignation": RESIGNED, "timeout": TIME_OUT,
                       "opponent left": OPPONENT_LEFT, "last player standing": LAST_STANDING,
                       "draw agreed": DRAW_AGREED}
"""Reason texts that matches finished before codes were stored still carry."""


def reason_code(reason: str) -> str:
    if reason.startswith("agreed end"):
        return AGREED_END
    return FORMER_SITE_REASONS.get(reason, reason)


def reason_label(game: Game | str, reason: str) -> str:
    """The English label of a reason code (site or game), old stored texts included."""
    code = reason_code(reason)
    if code in SITE_REASONS:
        return SITE_REASONS[code]
    return (registry.get(game) if isinstance(game, str) else game).reason_label(code)
