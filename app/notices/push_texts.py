"""What a push says, in the language of the device it goes to: the payload's JSON.

Built from what any seat may know (the match's header: the game, the names, the result), never
from a position or a hand, so a notification shown on a locked phone's screen gives away
nothing a player's opponents could not see.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from app.kernel import i18n
from app.kernel.i18n import gettext as _
from app.notices.messages import PushPayload
from games import registry


@contextlib.contextmanager
def written_in(language: str) -> Iterator[None]:
    """Translate with ``_`` in ``language`` for the block (the jobs have no request)."""
    token = i18n.current_language.set(language if language in i18n.LANGUAGES else
                                      i18n.DEFAULT_LANGUAGE)
    try:
        yield
    finally:
        i18n.current_language.reset(token)


def _game_title(game: str) -> str:
    try:
        return _(registry.get(game).title)
    except KeyError:
        return game


def _against(game: str, opponents: list[str]) -> str:
    if not opponents:
        return _game_title(game)
    return _("{game} against {names}").format(game=_game_title(game), names=", ".join(opponents))


def your_turn(match_id: str, game: str, opponents: list[str]) -> PushPayload:
    return PushPayload(type="yourTurn", match=match_id, url=f"/m/{match_id}",
                       title=_("Your turn"), body=_against(game, opponents))


def clock_reminder(match_id: str, game: str, opponents: list[str], hours_left: float
                   ) -> PushPayload:
    left = max(1, round(hours_left))
    return PushPayload(type="clockReminder", match=match_id, url=f"/m/{match_id}",
                       title=_("Your clock is running out"),
                       body=_("{game}: about {hours} h left to move").format(
                           game=_against(game, opponents), hours=left))


def game_over(match_id: str, game: str, opponents: list[str], outcome: str) -> PushPayload:
    """``outcome``: ``won``, ``lost``, ``draw`` or ``ended`` (aborted, several winners…)."""
    words = {"won": _("You won"), "lost": _("You lost"), "draw": _("A draw"),
             "ended": _("The game has ended")}
    return PushPayload(type="gameOver", match=match_id, url=f"/m/{match_id}",
                       title=_("Game over"), body=f"{words.get(outcome, words['ended'])} · "
                                                  f"{_against(game, opponents)}")


def challenge(challenge_id: str, game: str, challenger: str) -> PushPayload:
    return PushPayload(type="challenge", challenge=challenge_id, url="/",
                       title=_("A challenge"),
                       body=_("{name} challenges you to {game}").format(name=challenger,
                                                                        game=_game_title(game)))


def tournament_game(tournament_id: str, match_id: str, game: str, opponents: list[str]
                    ) -> PushPayload:
    """A tournament paired the person: their new game (a round's table, or an arena's next)."""
    return PushPayload(type="tournament", tournament=tournament_id, match=match_id,
                       url=f"/m/{match_id}", title=_("Your tournament game starts"),
                       body=_against(game, opponents))


def followed_game(match_id: str, game: str, name: str, opponents: list[str]) -> PushPayload:
    """A person the device's owner follows started a game: watch it."""
    return PushPayload(type="followedGame", match=match_id, url=f"/m/{match_id}",
                       title=_("{name} started a game").format(name=name),
                       body=_against(game, opponents))
