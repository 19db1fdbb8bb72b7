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
    illegal={
        "not_a_move": N_("{move} is not a move: write from-to such as c3-d4, or pass or swap"),
        "pass_not_allowed": N_("you may pass only when you have no legal move"),
        "swap_disabled": N_("swapping colours (the pie rule) is not enabled in this game"),
        "swap_too_late": N_("swap is allowed only as dark's reply to light's first move"),
        "must_pass": N_("you have no legal move and must pass"),
        "empty_square": N_("there is no piece on {square}"),
        "not_your_piece": N_("the top piece on {square} is not yours"),
        "same_square": N_("a piece must move to a neighbouring square, not stay where it is"),
        "not_neighbour": N_("{to} is not next to {source}: a piece moves to one of the 8 neighbours"),
        "wrong_height": N_("the piece on {source} stands at height {height}, so it may only move "
                           "onto a stack of height {height}; {to} has height {to_height}"),
        "no_destination": N_("the piece on {square} has no neighbouring stack of height {height}"),
        "lower_piece_first": N_("lowest first: a lower piece can move: {squares}"),
    },
    changes={
        "lands": N_("the {colour} piece climbs from {from} onto {to}, to height {height}, "
                    "covering a {covered} piece"),
        "uncovers": N_("{square} goes down to height {height}: a {colour} piece is on top again"),
        "uncovers_empty": N_("{square} is left empty"),
        "movable": N_("{colour} pieces that become movable: {squares}"),
        "locked_lowest_first": N_("{colour} pieces locked by the lowest-first rule: {squares}"),
        "locked_no_destination": N_("{colour} pieces left with no stack of their height next "
                                    "to them: {squares}"),
        "standing_kept": N_("top height {height}, with {light} light and {dark} dark pieces "
                            "there: {leader} keeps the lead ({reason})"),
        "standing_flips": N_("top height {height}, with {light} light and {dark} dark pieces "
                             "there: the lead passes to {leader} ({reason})"),
        "swap": N_("you take over the {colour} pieces"),
        "passes": N_("{player} has no legal move and passes"),
        "game_over": N_("the game ends, won by {winners} ({reason})"),
    },
    terms={
        "light": N_("light"),
        "dark": N_("dark"),
    },
)
