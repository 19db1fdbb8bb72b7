"""Stack-toe's words for people, in English: the msgids of ``translations/ja.po`` beside this file."""

from __future__ import annotations

from games.base import N_, GameWords

WORDS = GameWords(
    title=N_("Stack-toe"),
    options={"limit": N_("Stack limit")},
    reasons={"three_in_a_row": N_("three in a row"), "board_full": N_("board full")},
)
