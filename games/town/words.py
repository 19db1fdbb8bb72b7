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
    illegal={
        "walk_choice_unavailable": N_("{move} is not possible here; the walker may choose: "
                                      "{options}"),
        "not_a_walk_choice": N_("{move} is not a walk choice; the walker may choose: {options}"),
        "not_a_placement": N_("{move} is not a placement: write card@slot, e.g. P3@c2 "
                              "(columns a–g, rows 1–4)"),
        "not_on_offer": N_("{card} is not on offer; choose {offer}"),
        "slot_taken": N_("slot {slot} is already built on"),
        "not_touching": N_("{card} cannot go in {slot}: it must touch the seaside or a placed card"),
        "row_has_stairs": N_("{card} cannot go in {slot}: row {row} already has 3 stairs"),
        "row_needs_stairs": N_("{card} cannot go in {slot}: row {row} must keep its {empty} empty "
                               "slots for the {needed} stairs it still needs"),
        "choose_card": N_("choose an offer card first: {cards} can go in {slot}"),
    },
)
