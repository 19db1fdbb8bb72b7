"""Scalas' words for people, in English: the msgids of ``translations/ja.po`` beside this
file (``make translations`` adds new ones there). Reason codes are ``Result.reason`` values."""

from __future__ import annotations

from games.base import N_, GameWords

WORDS = GameWords(
    title=N_("Scalas"),
    options={
        "size": N_("Board size"),
    },
    reasons={
        "most_tops": N_("more squares topped"),
        "tiebreak_towers": N_("more towers topped at a tie-break height"),
        "draw": N_("draw"),
    },
    former_reasons={
        "more squares topped": "most_tops",
        "more towers topped at a tie-break height": "tiebreak_towers",
        "draw": "draw",
    },
)
