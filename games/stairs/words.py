"""Stairs' words for people, in English: the msgids of ``translations/ja.po`` beside this
file (``make translations`` adds new ones there). Reason codes are ``Result.reason`` values."""

from __future__ import annotations

from games.base import N_, GameWords

WORDS = GameWords(
    title=N_("Stairs"),
    options={
        "swap": N_("Pie rule (swap)"),
    },
    reasons={
        "highest_piece": N_("highest piece"),
        "most_at_top": N_("more pieces at the top height"),
        "first_to_top": N_("reached the top height first"),
    },
    former_reasons={
        "highest piece": "highest_piece",
        "more pieces at the top height": "most_at_top",
        "reached the top height first": "first_to_top",
    },
)
