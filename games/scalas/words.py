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
    illegal={
        "not_a_move": N_("{move} is not a square of this board (like 'c3') or 'pass'"),
        "pass_not_allowed": N_("you may not pass while you have a legal placement"),
        "forced_pending": N_("a forced placement is pending: place on {squares} first"),
        "must_pass": N_("you have no legal placement: you must pass"),
        "empty_closed": N_("while one hand is empty, cubes may not be placed on an empty square"),
        "no_way_down": N_("{square} breaks the staircase principle: there is no way down from it"),
        "breaks_staircase": N_("this cube would break the staircase at {square}: no way down "
                               "from the new cube"),
    },
    changes={
        "place": N_("a {colour} cube goes on {square}, now height {height}"),
        "forced": N_("forced cube {step}: {square}, now height {height}"),
        "chain_cut": N_("your hand runs out: no cube goes on {squares}"),
        "score": N_("squares topped: red {red_before} → {red_after}, blue {blue_before} → "
                    "{blue_after}"),
        "passes": N_("{player} has no legal placement and passes"),
        "game_over": N_("the game ends, won by {winners} ({reason})"),
        "game_drawn": N_("the game ends in a draw"),
    },
    terms={
        "red": N_("red"),
        "blue": N_("blue"),
    },
)
