"""The page scripts' words, from the one catalog.

Scripts write English msgids in place, ``t("Your turn")`` or ``N_("Draw")`` (see
static/js/kit/i18n.js); `make translations` extracts them with the templates' and the app's strings
(babel.cfg), and tests/kernel/test_translations.py checks each has a Japanese translation. Here the
same extraction runs once at start-up, so each page embeds the translations of exactly the msgids
its scripts use: the site's scripts (static/js) and the asset folders of the games it draws.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

from babel.messages.extract import extract_javascript

from app.kernel import i18n
from app.kernel.settings import PROJECT_ROOT

STATIC_DIR = PROJECT_ROOT / "static"
KEYWORDS = {"t": None, "N_": None, "nt": (1, 2)}
PLURAL_KEY = "\u0004plural"
"""A plural msgid's forms are embedded under ``msgid + PLURAL_KEY``, joined by NUL (kit/i18n.js nt)."""


def _msgids(path: Path) -> list[str]:
    with path.open("rb") as handle:
        found = extract_javascript(handle, KEYWORDS, [], {"parse_template_string": True})
        # Items are (line, function, message(s), comments) (Babel types them as extract()'s
        # items); t("…", {values}) comes back as (msgid, None): the msgid is the first part.
        messages: Iterator[object] = (item[2] for item in found)
        firsts = (m[0] if isinstance(m, tuple) else m for m in messages)
        return [message for message in firsts if isinstance(message, str)]


@cache
def msgids(folder: str) -> tuple[str, ...]:
    """Every msgid in the scripts under ``static/<folder>`` (sorted, without repeats)."""
    root = (STATIC_DIR / folder).resolve()
    if not root.is_relative_to(STATIC_DIR) or not root.is_dir():
        return ()
    return tuple(sorted({m for path in root.rglob("*.js") for m in _msgids(path)}))


def site_folders(game_ids: Iterable[str]) -> list[str]:
    """The script folders a page needs: the site's own, the generic board's and its games'."""
    return ["js", "games/generic", *(f"games/{game_id}" for game_id in game_ids)]


def catalog(game_ids: Iterable[str]) -> dict[str, str]:
    """msgid -> translation in the current language, only where it differs from the English."""
    words: dict[str, str] = {}
    plurals = i18n.plural_catalog(i18n.current_language.get())
    for folder in site_folders(game_ids):
        for message in msgids(folder):
            translated = i18n.gettext(message)
            if translated != message:
                words[message] = translated
            if message in plurals and i18n.current_language.get() != i18n.DEFAULT_LANGUAGE:
                words[message + PLURAL_KEY] = "\u0000".join(plurals[message])
    return words
