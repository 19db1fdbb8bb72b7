"""Town of Stairs' words for people, in English: the msgids of ``translations/ja.po`` beside this
file (``make translations`` adds new ones there). Reason codes are ``Result.reason`` values."""

from __future__ import annotations

from games.base import N_, GameWords

WORDS = GameWords(
    title=N_("Town of Stairs"),
    reasons={
        "highest_score": N_("highest score"),
        "shared_win": N_("shared win on points"),
    },
    former_reasons={
        "highest score": "highest_score",
        "shared win on points": "shared_win",
    },
)
