"""Sight's words for people, in English: the msgids of ``translations/ja.po`` beside this
file (``make translations`` adds new ones there). Reason codes are ``Result.reason`` values."""

from __future__ import annotations

from games.base import N_, GameWords

WORDS = GameWords(
    title=N_("Sight"),
    options={
        "priority": N_("Priority"),
    },
    choices={
        "absolute": N_("absolute"),
        "movable": N_("movable"),
    },
    reasons={
        "no_legal_move": N_("no legal move"),
    },
    former_reasons={
        "no legal move": "no_legal_move",
    },
)
