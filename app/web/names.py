"""Players' names on server-rendered pages, as the scripts show them (static/js/kit/turn.js):
built-in bots in the page's language ("Bot (easy)" is stored) and numbered when one bot holds
several seats of a game, so a list of opponents says which is which."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from app.kernel import i18n

BUILTIN_BOT = re.compile(r"^Bot (?:(\d+) )?\((easy|medium|hard)\)$")
LEVELS = {"easy": i18n.N_("easy"), "medium": i18n.N_("medium"), "hard": i18n.N_("hard")}


def player_names(names: Iterable[str | None]) -> list[str]:
    """Display names for one game's players, in order (a repeated name gets its number)."""
    listed = [name or "…" for name in names]
    repeated = {name for name, count in Counter(listed).items() if count > 1}
    seen: Counter[str] = Counter()
    shown = []
    for name in listed:
        seen[name] += 1
        number = seen[name] if name in repeated else None
        found = BUILTIN_BOT.match(name)
        level = found.group(2) if found else None
        if found and found.group(1):  # a level's further bot ("Bot 2 (easy)") keeps its number
            number = int(found.group(1))
        if level:
            values = {"n": str(number), "level": i18n.gettext(LEVELS[level])}
            template = i18n.gettext("Bot {n} ({level})") if number else i18n.gettext("Bot ({level})")
            shown.append(template.replace("{n}", values["n"]).replace("{level}", values["level"]))
        else:
            shown.append(f"{name} {number}" if number else name)
    return shown
