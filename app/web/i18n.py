"""English and Japanese: gettext catalogs in app/translations/*.po, read with Babel at start-up.

The language comes from ``?lang=`` / the ``lang`` cookie set by the switcher, else the browser's
Accept-Language, else English. Translated strings for the page scripts are embedded as JSON.
"""

from __future__ import annotations

from contextvars import ContextVar
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po
from starlette.requests import HTTPConnection

LANGUAGES = {"en": "English", "ja": "日本語"}
DEFAULT_LANGUAGE = "en"
TRANSLATIONS_DIR = Path(__file__).resolve().parents[1] / "translations"

current_language: ContextVar[str] = ContextVar("current_language", default=DEFAULT_LANGUAGE)


@cache
def catalog(language: str) -> dict[str, str]:
    """msgid -> msgstr for one language (English needs none: the msgids are English)."""
    path = TRANSLATIONS_DIR / f"{language}.po"
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        po = read_po(handle, locale=language)
    return {
        str(message.id): str(message.string)
        for message in po
        if message.id and message.string and not message.fuzzy and isinstance(message.id, str)
    }


def gettext(message: str) -> str:
    return catalog(current_language.get()).get(message, message)


def ngettext(singular: str, plural: str, count: int) -> str:
    return gettext(singular if count == 1 else plural)


def N_(message: str) -> str:
    return message


def choose_language(connection: HTTPConnection) -> str:
    wanted = connection.query_params.get("lang") or connection.cookies.get("lang")
    if wanted in LANGUAGES:
        return wanted
    for part in connection.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


# Strings the page scripts need, keyed by a stable name (translated when the page is rendered).
SCRIPT_MESSAGES = {
    "your_turn": N_("Your turn"),
    "their_turn": N_("Waiting for {name}"),
    "waiting_players": N_("Waiting for players to join"),
    "game_over": N_("Game over"),
    "winner": N_("{name} wins"),
    "you_win": N_("You win!"),
    "you_lose": N_("You lose"),
    "shared_win": N_("Shared win: {names}"),
    "draw": N_("Draw"),
    "reason_resignation": N_("by resignation"),
    "copied": N_("Copied"),
    "confirm_resign": N_("Resign this game?"),
    "pass": N_("Pass"),
    "swap": N_("Swap colours"),
    "connection_lost": N_("Connection lost — reconnecting…"),
    "open_seat": N_("open seat"),
    "you": N_("you"),
    "light": N_("Light"),
    "dark": N_("Dark"),
    "red": N_("Red"),
    "blue": N_("Blue"),
    "green": N_("Green"),
    "yellow": N_("Yellow"),
    "height": N_("height"),
    "no_moves_yet": N_("No moves yet"),
    "must_pass": N_("You have no legal move: pass."),
    "select_piece": N_("Select a highlighted piece, then its destination."),
    "challenges_you": N_("challenges you"),
    "rated": N_("Rated"),
    "casual": N_("Casual"),
    "quick": N_("quick play"),
    "cancel": N_("Cancel"),
    "accept": N_("Accept"),
    "decline": N_("Decline"),
    "leave": N_("Leave"),
    "join": N_("Join"),
    "challenge_declined": N_("Your challenge was declined."),
    "searching": N_("Looking for an opponent for {game}… (you can keep browsing this page)"),
    "watching": N_("{n} watching"),
    "online": N_("online"),
    "offline": N_("offline"),
    "replay": N_("Replay"),
    "start": N_("Start"),
    "previous": N_("Previous move"),
    "next": N_("Next move"),
    "end": N_("End"),
    "ply_of": N_("Move {ply} of {total}"),
    "ply_n": N_("move {ply}"),
    "no_live": N_("Nobody is playing right now."),
    "watch": N_("Watch"),
    "first_move_in": N_("First move within {time}, or the game is called off"),
    "withdraw": N_("Withdraw"),
    "offered_draw": N_("You offered a draw."),
    "offered_end": N_("You proposed to end the game and score the position."),
    "offered_takeback": N_("You asked to take back your move."),
    "offered_rematch": N_("You offered a rematch."),
    "offer_draw": N_("Your opponent offers a draw."),
    "offer_end": N_("Your opponent proposes to end the game and score the position."),
    "offer_takeback": N_("Your opponent asks to take back their move."),
    "offer_rematch": N_("Your opponent wants a rematch."),
    "abort": N_("Abort"),
    "confirm_abort": N_("Call this game off? It will count for nobody."),
    "resign_button": N_("Resign"),
    "propose_draw": N_("Offer a draw"),
    "propose_end": N_("Propose to end and score"),
    "propose_takeback": N_("Ask for a takeback"),
    "claim_victory": N_("Claim victory"),
    "rematch": N_("Rematch"),
    "go_to_rematch": N_("Go to the rematch"),
    "reason_timeout": N_("on time"),
    "reason_left": N_("the opponent left"),
    "reason_draw_agreed": N_("by agreement"),
    "reason_agreed_end": N_("position scored by agreement"),
    "aborted": N_("Game aborted"),
    "days_per_move": N_("{days} d/move"),
    "error_not_your_turn": N_("It is not your turn."),
    "error_stale_ply": N_("The game moved on meanwhile; the board is now up to date."),
    "error_time_out": N_("Your time ran out."),
    "error_match_not_active": N_("This game is not in play."),
    "error_cannot_claim": N_("Your opponent may still come back: try again a little later."),
    "error_cannot_abort": N_("Everyone has moved: resign instead of aborting."),
    "error_seek_closed": N_("That game was taken or cancelled."),
    "error_rated_needs_account": N_("Rated games are for accounts: sign up first (your games stay yours)."),
    "error_csrf_failed": N_("Your session expired: please reload the page and retry."),
    "error_unauthenticated": N_("Choose a name first."),
}


# Words the templates translate dynamically (game titles, option names and choices).
CATALOG_WORDS = [
    N_("Stairs"), N_("Sight"), N_("Scalas"), N_("Town of Stairs"),
    N_("Pie rule (swap)"), N_("Priority"), N_("absolute"), N_("movable"), N_("Board size"),
]
OPTION_LABELS = {"swap": "Pie rule (swap)", "priority": "Priority", "size": "Board size"}


def script_messages() -> dict[str, str]:
    return {key: gettext(text) for key, text in SCRIPT_MESSAGES.items()}
