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
    changes={
        "place_card": N_("{card} is built on {slot}"),
        "draw": N_("a new {deck} card is turned up to refill the offer (unknown until then)"),
        "deck_empty": N_("the {deck} deck is empty: nothing refills the offer"),
        "walk_would_wait": N_("your walk would go on through {path} and wait at the empty "
                              "slot {at}"),
        "walk_would_choose": N_("your walk would go on through {path} to a choice at {at}: "
                                "{options}"),
        "walk_would_end": N_("your walk would go on through {path} and end: {end}"),
        "diary_would": N_("your walk would collect {event} at {at} (+{points})"),
        "score_projected": N_("the best diary your walk can have so far: {before} → {after} "
                              "points"),
        "walk": N_("from {from} you take {choice} and walk through {path}"),
        "diary": N_("you collect {event} at {at} (+{points})"),
        "walk_end": N_("your walk ends: {end}"),
        "choice": N_("then you choose at {at}: {options}"),
        "score": N_("your score: {before} → {after} points"),
        "walk_begins": N_("{player}'s walk begins"),
        "game_over": N_("the game ends, won by {winners} ({reason})"),
    },
    terms={
        "red": N_("red"),
        "blue": N_("blue"),
        "green": N_("green"),
        "yellow": N_("yellow"),
        "path": N_("path"),
        "event": N_("event"),
        "cafe": N_("café"),
        "bakery": N_("bakery"),
        "cat": N_("cats"),
        "flowers": N_("florist"),
        "shrine": N_("shrine"),
        "books": N_("old books"),
        "gallery": N_("gallery"),
        "market": N_("market"),
        "music": N_("music"),
        "view": N_("lookout"),
        "sunset": N_("beautiful sunset"),
        "lighthouse": N_("reached the lighthouse"),
        "loop": N_("walked in a loop"),
        "fifth diary card": N_("5th diary card"),
    },
)
