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
        "absolute": N_("tallest stack, always"),
        "movable": N_("tallest stack that can move"),
    },
    reasons={
        "no_legal_move": N_("no legal move"),
    },
    former_reasons={
        "no legal move": "no_legal_move",
    },
    illegal={
        "not_a_move": N_("{move} is not a move: write a point (c3) or a step (c3-d4)"),
        "no_pass": N_("there is no pass in Sight: a player without a move loses"),
        "goes_nowhere": N_("{move} does not go anywhere"),
        "not_adjacent": N_("{to} is not adjacent to {source} along a board line"),
        "must_move_stack": N_("you have a stack, so you must move a piece off your tallest"),
        "must_place": N_("you have no stack, so you must place a piece"),
        "not_your_stack": N_("{square} holds no stack of yours"),
        "not_tallest": N_("{square} is not one of your tallest stacks that may move: "
                          "move from {squares}"),
        "occupied": N_("{square} is not empty"),
    },
    changes={
        "place": N_("a {colour} piece goes on {point}"),
        "step": N_("the top piece of {from} steps to {to}, leaving {left} there"),
        "grows": N_("{point} grows to height {height}"),
        "must_move_next": N_("you now have a stack: from your next turn you must move a piece "
                             "off your tallest stack"),
        "game_over": N_("the game ends, won by {winners} ({reason})"),
    },
    terms={
        "light": N_("light"),
        "dark": N_("dark"),
    },
)
