"""Names nobody may hold, and names compared as they look.

A player who could call themselves ``bot-hard``, "Bot (hard)" or "Admin" would pass for the site
or one of its built-in bots, so such names are refused for accounts and guests alike, in every
case and Unicode form. Names are compared through a *skeleton*: NFKC (fullwidth and
mathematical letters become plain ones), accents, combining marks and invisible characters
dropped, every non-ASCII letter that looks like an ASCII one replaced by it (Cyrillic "а",
Greek "Α"… from the Unicode confusables data of ``confusable_homoglyphs``), case folded, and the
ASCII look-alikes merged ("0"/"o", "1"/"i"/"l", "rn"/"m", "vv"/"w"). Two names with equal
skeletons look the same, so usernames are also unique by skeleton (``users.username_key``).
The skeleton is deliberately strict: "mail" and "maii" share one, which costs a newcomer a
second choice of username, never a look-alike of someone else.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data

from app.kernel import i18n
from app.kernel.errors import Forbidden

RESERVED_WORDS = ("admin", "administrator", "moderator", "mod", "stepwell", "system", "root",
                  "support", "staff", "bot", "official", "security")
"""Names refused outright, whatever separators or look-alikes they are written with."""

RESERVED_PREFIXES = ("bot", "admin", "administrator", "moderator", "stepwell")
"""Words that also may not begin a name before a separator: ``bot-…``, ``bot_…``, "Bot (…)"."""

DROPPED_CATEGORIES = frozenset({"Mn", "Me", "Cf", "Cc"})
"""Combining marks, format characters (zero-width joiners, bidi marks) and controls."""

ASCII_LOOK_ALIKES = (("rn", "m"), ("vv", "w"), ("0", "o"), ("1", "l"), ("i", "l"), ("|", "l"))
"""Merged after case folding: these look the same in many fonts."""

MESSAGE = i18n.N_("That name is reserved: please choose another.")
CODE = "reserved_name"


@cache
def _ascii_look_alike(char: str) -> str:
    """The ASCII letter or digit ``char`` is confusable with, or ``char`` itself."""
    if char.isascii():
        return char
    for candidate in (char, char.casefold()):
        for glyph in confusables_data.get(candidate, ()):
            text = unicodedata.normalize("NFKC", glyph["c"].strip("\u200e\u200f")).casefold()
            if len(text) == 1 and text.isascii() and text.isalnum():
                return text
    return char


def skeleton(name: str) -> str:
    """How ``name`` looks, as a string: equal skeletons, confusable names."""
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
    kept = "".join(_ascii_look_alike(ch) for ch in text
                   if unicodedata.category(ch) not in DROPPED_CATEGORIES)
    folded = " ".join(unicodedata.normalize("NFKC", kept).casefold().split())
    for source, target in ASCII_LOOK_ALIKES:
        folded = folded.replace(source, target)
    return folded


def _compact(key: str) -> str:
    return "".join(ch for ch in key if ch.isalnum())


RESERVED_KEYS = frozenset(_compact(skeleton(word)) for word in RESERVED_WORDS)
PREFIX_KEYS = tuple(skeleton(word) for word in RESERVED_PREFIXES)


def is_reserved(name: str) -> bool:
    """Whether ``name`` (a username or a display name) passes for the site or a built-in bot."""
    key = skeleton(name)
    if _compact(key) in RESERVED_KEYS:
        return True
    start = key.lstrip("".join(ch for ch in key if not ch.isalnum()))
    return any(start.startswith(prefix) and len(start) > len(prefix)
               and not start[len(prefix)].isalnum() for prefix in PREFIX_KEYS)


def refuse_reserved(name: str) -> None:
    """403 ``reserved_name`` for a reserved name, worded in the caller's language."""
    if is_reserved(name):
        raise Forbidden(i18n.gettext(MESSAGE), code=CODE)
