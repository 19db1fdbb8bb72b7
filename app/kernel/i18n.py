"""English and Japanese: gettext catalogs in app/translations/*.po, read with Babel at start-up.

Each game brings its own words (``games/<id>/words.py``, translated in
``games/<id>/translations/<lang>.po``); they are merged into the one catalog here, so ``_()`` in
templates translates game titles, option labels and choices like any other string.

The language comes from ``?lang=`` / the ``lang`` cookie set by the switcher, else the browser's
Accept-Language, else English. The page scripts' words are embedded per page by app/web/script_words.py.
"""

from __future__ import annotations

import gettext as gettext_module
from collections.abc import Callable
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from games import Game, registry

LANGUAGES = {"en": "English", "ja": "日本語"}
DEFAULT_LANGUAGE = "en"
TRANSLATIONS_DIR = Path(__file__).resolve().parents[1] / "translations"

current_language: ContextVar[str] = ContextVar("current_language", default=DEFAULT_LANGUAGE)


@cache
def _read_po(path: Path, language: str) -> dict[str, str]:
    """msgid -> msgstr of one .po file (translated, non-fuzzy entries only); {} when missing."""
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        po = read_po(handle, locale=language)
    return {
        str(message.id): str(message.string)
        for message in po
        if message.id and message.string and not message.fuzzy and isinstance(message.id, str)
    }


@cache
def _read_plural_po(path: Path, language: str) -> dict[str, tuple[str, ...]]:
    """singular msgid -> the plural forms of one .po file's ``msgid_plural`` entries."""
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        po = read_po(handle, locale=language)
    return {
        str(message.id[0]): tuple(str(form) for form in message.string)
        for message in po
        if isinstance(message.id, tuple) and isinstance(message.string, tuple)
        and all(message.string) and not message.fuzzy
    }


def plural_catalog(language: str) -> dict[str, tuple[str, ...]]:
    """singular msgid -> plural forms (in the language's gettext order) for one language."""
    return _read_plural_po(TRANSLATIONS_DIR / f"{language}.po", language)


@cache
def _plural_rule(language: str) -> Callable[[int], int]:
    return gettext_module.c2py(get_plural(language).plural_expr)


def plural_index(language: str, count: int) -> int:
    """Which gettext plural form ``count`` takes in ``language`` (Babel's plural rule: English
    has two forms, one and other; Japanese one)."""
    return _plural_rule(language)(count)


def game_catalog(game: Game, language: str) -> dict[str, str]:
    """A game's own translations (``translations/<language>.po`` in its package folder)."""
    return _read_po(game.folder() / "translations" / f"{language}.po", language)


@cache
def _merged(language: str, generation: int) -> dict[str, str]:
    merged: dict[str, str] = {}
    for game in registry.all_games():
        merged.update(game_catalog(game, language))
    merged.update(_read_po(TRANSLATIONS_DIR / f"{language}.po", language))  # the site's wording wins
    return merged


def catalog(language: str) -> dict[str, str]:
    """msgid -> msgstr for one language: the site's catalog and every registered game's words
    (English needs none: the msgids are English)."""
    return _merged(language, registry.generation())


def gettext(message: str) -> str:
    return catalog(current_language.get()).get(message, message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of ``singular``/``plural`` that ``count`` takes in the current language (the
    catalog's ``msgid_plural`` entry; English by its own rule)."""
    language = current_language.get()
    forms = plural_catalog(language).get(singular) or (singular, plural)
    if language == DEFAULT_LANGUAGE or forms == (singular, plural):
        forms, language = (singular, plural), DEFAULT_LANGUAGE
    return forms[min(plural_index(language, count), len(forms) - 1)]


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


class LanguageMiddleware:
    """Pure ASGI middleware: each HTTP request runs in the language it asked for.

    It was ``@app.middleware("http")`` (Starlette's BaseHTTPMiddleware), which wraps every request
    in a task group and memory streams: profiled at about a fifth of the server's samples under
    load. Websockets choose their language themselves, as before."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        token = current_language.set(choose_language(HTTPConnection(scope)))
        try:
            await self.app(scope, receive, send)
        finally:
            current_language.reset(token)


def game_text(game: Game, text: str) -> str:
    """``text`` (one of the game's English words) in the current language, the game's own
    translation first (two games may word the same English differently)."""
    language = current_language.get()
    return game_catalog(game, language).get(text) or gettext(text)


def option_label(game: Game, name: str, default: str | None = None) -> str:
    """The English label of one of the game's options (translate it with ``_``)."""
    return game.words.options.get(name) or default or name


def choice_label(game: Game, value: object) -> str:
    """The English label of an option's choice ("tallest stack, always" for ``absolute``),
    the value itself when the game names none (translate it with ``_``)."""
    return game.words.choices.get(str(value)) or str(value)


def reason_label(game_id: str, reason: str) -> str:
    """A game's result reason (a code, or the text older versions stored) in the current
    language; a reason the game does not know is returned unchanged."""
    try:
        game = registry.get(game_id)
    except registry.UnknownGame:
        return reason
    code = game.words.former_reasons.get(reason, reason)
    return game_text(game, game.words.reasons[code]) if code in game.words.reasons else reason
