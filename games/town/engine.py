"""Town of Stairs (階段の街): build a 7×4 town from two offer cards, then walk it for diary cards.

Phase 1 ("build"): seats take turns placing one offer card (``P3@c2``: card, column a–g, row 1–4).
Phase 2 ("walk"): each seat walks alone from its secret seaside start; only real choices are moves
(``UR``, ``UL``, ``straight``, ``rev``); forced stretches are played out here and recorded as steps
so the browser can animate them. Secrets: both deck orders, and each start card until its owner's
walk begins.

Rules versions (``rules_version`` in the state's JSON; absent means 1): version 1 ended a walk at the
first repeated entry and had the card faces of ``cards.json``'s version 1; version 2 lets a walker
who declined a climb with ``skip`` walk on, and ends a walk at a third entry; version 3 (current)
plays version 2's rules but deals through ``games.chance.DealRandom`` (a cryptographic generator)
where versions 1 and 2 dealt with ``random.Random(seed)``. Stored matches replay under the version
they were played with, so each keeps the deal its seed gave it.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import Field, field_validator

from games import playout
from games.base import Game, GameOptions, IllegalMove, Result, State
from games.chance import DealRandom
from games.preview import Preview
from games.town import hints, preview
from games.town.cards import (
    COLOURS,
    EVENT_IDS,
    EVENT_NAMES,
    INTERESTS,
    IS_STAIRS,
    PATH_IDS,
    RULES_VERSION,
    RULES_VERSIONS,
    SUNSET,
    catalogue,
)
from games.town.view import TownView
from games.town.walk import (
    COLUMNS,
    ENTRY_SIDE,
    HEIGHT,
    LEFT,
    LIGHTHOUSE_ROW,
    RIGHT,
    WIDTH,
    Walker,
)
from games.town.words import WORDS

SLOTS = WIDTH * HEIGHT
LIGHTHOUSE_COLUMN = 3  # cosmetic: the lighthouse triggers anywhere in row 5
STAIRS_PER_ROW = 3
DIRECTION_NAME = {RIGHT: "right", LEFT: "left"}
START_CHOICES = ("UR", "UL")
WALK_ACTIONS = frozenset(("UR", "UL", "straight", "rev"))

# Slot i is column i % 7, row i // 7 + 1 (row 1 sits on the seaside).
SLOT_NAMES: tuple[str, ...] = tuple(f"{COLUMNS[i % WIDTH]}{i // WIDTH + 1}" for i in range(SLOTS))
SLOT_INDEX: dict[str, int] = {name: i for i, name in enumerate(SLOT_NAMES)}
# Orthogonal neighbours for placement adjacency: no wrap-around (the wrap only applies to walking).
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (r - 1) * WIDTH + c
        for c, r in (
            (i % WIDTH - 1, i // WIDTH + 1),
            (i % WIDTH + 1, i // WIDTH + 1),
            (i % WIDTH, i // WIDTH),
            (i % WIDTH, i // WIDTH + 2),
        )
        if 0 <= c < WIDTH and 1 <= r <= HEIGHT
    )
    for i in range(SLOTS)
)
NEIGHBOUR_MASKS: tuple[int, ...] = tuple(sum(1 << j for j in near) for near in NEIGHBOURS)
ROW1_MASK = (1 << WIDTH) - 1
CARD_IDS = frozenset(PATH_IDS) | frozenset(EVENT_IDS)
SCORE_SUNSET, SCORE_INTEREST, SCORE_OTHER = 3, 2, 1
PREVIEW_SAMPLE = 0
"""The seed of the fixed sample a preview takes of what the mover cannot see (masked after)."""
MERSENNE_DEAL_VERSIONS = frozenset((1, 2))  # rules versions dealt by random.Random(seed)


def deal_random(rules_version: int, seed: int) -> random.Random:
    """The generator that deals a match of ``rules_version`` from ``seed``: the Mersenne Twister
    for the versions that used it (so their stored matches replay), else the cryptographic one."""
    if rules_version in MERSENNE_DEAL_VERSIONS:
        return random.Random(seed)
    return DealRandom(seed)


def _check_deck(deck: list[str] | None, ids: tuple[str, ...], name: str) -> list[str] | None:
    if deck is None:
        return None
    unknown = [card for card in deck if card not in ids]
    repeated = sorted({card for card in deck if deck.count(card) > 1})
    missing = [card for card in ids if card not in deck]
    if unknown or repeated or missing:
        problems = []
        if unknown:
            problems.append(f"unknown {', '.join(unknown)}")
        if repeated:
            problems.append(f"repeated {', '.join(repeated)}")
        if missing:
            problems.append(f"missing {', '.join(missing)}")
        raise ValueError(
            f"{name} must list each of {ids[0]}–{ids[-1]} exactly once, top first "
            f"({'; '.join(problems)})"
        )
    return deck


class TownOptions(GameOptions):
    """Fixed deals (for tests, tutorials and replays of a physical game); None = seeded shuffle."""

    # Secret: each fixes hidden information, so the site never shows it and refuses it in rated
    # games (app/match/option_privacy.py).
    path_deck: list[str] | None = Field(default=None, json_schema_extra={"secret": True})
    event_deck: list[str] | None = Field(default=None, json_schema_extra={"secret": True})
    start_cards: list[int] | None = Field(default=None, json_schema_extra={"secret": True})

    @field_validator("path_deck")
    @classmethod
    def _valid_path_deck(cls, deck: list[str] | None) -> list[str] | None:
        return _check_deck(deck, PATH_IDS, "path_deck")

    @field_validator("event_deck")
    @classmethod
    def _valid_event_deck(cls, deck: list[str] | None) -> list[str] | None:
        return _check_deck(deck, EVENT_IDS, "event_deck")

    @field_validator("start_cards")
    @classmethod
    def _valid_start_cards(cls, cards: list[int] | None) -> list[int] | None:
        if cards is None:
            return None
        if any(not 1 <= card <= WIDTH for card in cards):
            raise ValueError("start_cards must be numbers from 1 to 7")
        if len(set(cards)) != len(cards):
            raise ValueError("start_cards must be distinct (one card per seat)")
        return cards


def score_of(diary: list[str] | tuple[str, ...], seat: int) -> int:
    """Sunset 3; an event among the seat's character's interests 2; any other event 1."""
    return sum(event_points(event, seat) for event in diary)


def event_points(event: str, seat: int) -> int:
    """What one diary card is worth to ``seat`` (the view shows it on every card)."""
    if event == SUNSET:
        return SCORE_SUNSET
    return SCORE_INTEREST if event in INTERESTS[seat] else SCORE_OTHER


def _step(
    col: int, row: int, direction: int | None, diary: str | None, action: str | None, chosen: bool
) -> dict[str, Any]:
    """One card of a walk: where, entered from which side moving which way, what it gave/did."""
    return {
        "pos": f"{COLUMNS[col]}{row}",
        "col": col,
        "row": row,
        "side": None if direction is None else ENTRY_SIDE[direction],
        "dir": None if direction is None else DIRECTION_NAME[direction],
        "diary": diary,
        "action": action,
        "chosen": chosen,
    }


class TownState(State):
    """A Town of Stairs position. Fields are never changed after ``play`` has returned the state."""

    game_id = "town"
    words = WORDS
    flat_search = True
    """Every placement turns up an unseen card, so a determinized tree holds different offers
    under one move; a level with a playout budget compares placements on common sampled worlds."""

    __slots__ = (
        "_diaries",
        "_event_deck",
        "_grid",
        "_last_move",
        "_legal",
        "_lighthouse",
        "_n",
        "_offer",
        "_path_deck",
        "_pending",
        "_phase",
        "_ply",
        "_start",
        "_turn",
        "_version",
        "_walk_end",
        "_walks",
    )

    def __init__(self, data: dict[str, Any]) -> None:
        self._version: int = data.get("rules_version", 1)
        if self._version not in RULES_VERSIONS:
            raise ValueError(f"unknown Town of Stairs rules version {self._version!r}")
        self._n: int = data["players"]
        self._phase: str = data["phase"]
        self._turn: int | None = data["turn"]
        self._ply: int = data["ply"]
        self._path_deck: tuple[str, ...] = tuple(data["path_deck"])
        self._event_deck: tuple[str, ...] = tuple(data["event_deck"])
        self._offer: tuple[str | None, str | None] = tuple(data["offer"])
        self._start: tuple[int, ...] = tuple(data["start_cards"])
        self._grid: tuple[str | None, ...] = tuple(data["grid"])
        self._lighthouse: int | None = data["lighthouse"]
        self._walks: tuple[tuple[dict[str, Any], ...], ...] = tuple(
            tuple(dict(step) for step in walk) for walk in data["walks"]
        )
        self._pending: tuple[str, ...] | None = (
            None if data["pending"] is None else tuple(data["pending"])
        )
        self._diaries: tuple[tuple[str, ...], ...] = tuple(tuple(d) for d in data["diaries"])
        self._walk_end: tuple[str | None, ...] = tuple(data["walk_end"])
        self._last_move: dict[str, Any] | None = (
            None if data["last_move"] is None else dict(data["last_move"])
        )
        self._legal: tuple[list[str], dict[str, str]] | None = None  # cache, see _legal_map

    def _copy(self) -> TownState:
        """A shallow copy to build the next state from (all fields are immutable tuples)."""
        other = object.__new__(TownState)
        # Field by field (a loop of getattr/setattr over __slots__ was a tenth of a playout).
        other._diaries, other._event_deck, other._grid = self._diaries, self._event_deck, self._grid
        other._last_move, other._lighthouse, other._n = self._last_move, self._lighthouse, self._n
        other._offer, other._path_deck, other._pending = self._offer, self._path_deck, self._pending
        other._phase, other._ply, other._start = self._phase, self._ply, self._start
        other._turn, other._version, other._walk_end = self._turn, self._version, self._walk_end
        other._walks = self._walks
        other._legal = None
        return other

    # -- the public verbs -------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self._n

    @property
    def to_move(self) -> int | None:
        return self._turn

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def phase(self) -> str:
        return self._phase

    def legal_moves(self) -> list[str]:
        return list(self._legal_map()[0])

    def _legal_lookup(self) -> dict[str, str]:
        """Placements ``P3@c2`` or walk choices (``UR``, ``UL``, ``straight``, ``rev``); other
        spellings are the default's (the legal move with the same key)."""
        return self._legal_map()[1]

    def play(self, move: str) -> TownState:
        canonical = self.parse_move(move)
        if self._phase == "build":
            return self._place(canonical)
        return self._choose(canonical)

    @property
    def result(self) -> Result | None:
        if self._phase != "over":
            return None
        scores = [score_of(self._diaries[seat], seat) for seat in range(self._n)]
        ranking = tuple(
            tuple(seat for seat in range(self._n) if scores[seat] == value)
            for value in sorted(set(scores), reverse=True)
        )
        return Result(
            winners=ranking[0],
            ranking=ranking,
            scores=tuple(scores),
            reason="shared_win" if len(ranking[0]) > 1 else "highest_score",
        )

    @property
    def rules_version(self) -> int:
        return self._version

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "players": self._n,
            "phase": self._phase,
            "turn": self._turn,
            "ply": self._ply,
            "path_deck": list(self._path_deck),
            "event_deck": list(self._event_deck),
            "offer": list(self._offer),
            "start_cards": list(self._start),
            "grid": list(self._grid),
            "lighthouse": self._lighthouse,
            "walks": [[dict(step) for step in walk] for walk in self._walks],
            "pending": None if self._pending is None else list(self._pending),
            "diaries": [list(diary) for diary in self._diaries],
            "walk_end": list(self._walk_end),
            "last_move": None if self._last_move is None else dict(self._last_move),
        }
        if self._version != 1:  # version 1 states were stored without it: keep them byte-identical
            data["rules_version"] = self._version
        return data

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see: never a deck order, never another seat's unrevealed start card."""
        n = self._n
        slots, fallback = self._slots() if self._phase == "build" else ({}, False)
        walker = self._turn if self._phase == "walk" else None
        return {
            "game": "town",
            "phase": self._phase,
            "to_move": self._turn,
            "ply": self._ply,
            "players": n,
            "seat": seat,
            "colours": list(COLOURS[:n]),
            "characters": [
                {"colour": COLOURS[s], "interests": sorted(INTERESTS[s])} for s in range(n)
            ],
            "start_cards": [
                self._start[s] if s == seat or self._walks[s] else None for s in range(n)
            ],
            "grid": [list(self._grid[r * WIDTH : (r + 1) * WIDTH]) for r in range(HEIGHT)],
            "lighthouse": None
            if self._lighthouse is None
            else f"{COLUMNS[self._lighthouse]}{LIGHTHOUSE_ROW}",
            "offer": list(self._offer),
            "deck_sizes": {"path": len(self._path_deck), "event": len(self._event_deck)},
            "legal_slots": {card: [SLOT_NAMES[i] for i in where] for card, where in slots.items()},
            "fallback": fallback,
            "walker": walker,
            "walks": [[dict(step) for step in walk] for walk in self._walks],
            "walk_end": list(self._walk_end),
            "pending": None if self._pending is None else list(self._pending),
            "diaries": [list(diary) for diary in self._diaries],
            "scores": [score_of(self._diaries[s], s) for s in range(n)],
            # For the board: what each diary card scored, what a click plays, how full the town is.
            "diary_points": [[event_points(e, s) for e in self._diaries[s]] for s in range(n)],
            "score_rule": {"sunset": SCORE_SUNSET, "interest": SCORE_INTEREST, "other": SCORE_OTHER},
            "clicks": {card: {SLOT_NAMES[i]: f"{card}@{SLOT_NAMES[i]}" for i in where}
                       for card, where in slots.items()},
            "placed": sum(card is not None for card in self._grid),
            "slots": SLOTS,
            "legal_moves": self.legal_moves(),
            "last_move": None if self._last_move is None else dict(self._last_move),
            "last_marks": [self._last_move["move"].split("@")[1]]
            if self._last_move and "@" in self._last_move["move"] else [],  # the slot just built
            "result": None if self.result is None else self.result.to_json(),
            "cards": catalogue(self._version),
            "events": dict(EVENT_NAMES),
        }

    def determinize(self, seat: int, rng: random.Random) -> TownState:
        """The same position as ``seat`` sees it, with both deck orders and every start card the
        seat cannot see sampled afresh. The unseen parts are sorted before sampling, so the result
        depends only on the seat's view and ``rng``, never on the true secrets."""
        other = self._copy()
        path = sorted(self._path_deck)
        rng.shuffle(path)
        event = sorted(self._event_deck)
        rng.shuffle(event)
        other._path_deck, other._event_deck = tuple(path), tuple(event)
        hidden = [s for s in range(self._n) if s != seat and not self._walks[s]]
        if hidden:
            known = {self._start[s] for s in range(self._n) if s not in hidden}
            spare = [n for n in range(1, WIDTH + 1) if n not in known]
            start = list(self._start)
            for s, number in zip(hidden, rng.sample(spare, len(hidden)), strict=True):
                start[s] = number
            other._start = tuple(start)
        return other

    def preview(self, move: str, seat: int) -> Preview:
        """What ``move`` would do, from what ``seat`` (the seat to move) can see only. It is
        played on ``determinize``'s state for the seat (a fixed sample of what the seat cannot
        see, which depends on its view alone), and what the sample decided is masked: a card the
        move turns up to refill the offer (the preview stops at the draw: that offer slot is
        null, the next turn's slots and moves are the other card's) and the start card of a
        seat whose walk begins (its walk is shown empty). Changes: ``preview.py``."""
        canonical = self.parse_move(move)
        known = self.determinize(seat, random.Random(PREVIEW_SAMPLE))
        after = known.play(canonical)
        shown = after._copy()
        def points(event: str) -> int:
            return event_points(event, seat)

        if known._phase == "build":
            taken = 0 if canonical.partition("@")[0] == known._offer[0] else 1
            left = len(known._path_deck if taken == 0 else known._event_deck)
            if left:
                offer = list(after._offer)
                offer[taken] = None
                shown._offer = (offer[0], offer[1])
            changes = preview.built((known._grid, after._grid), known._version, seat,
                                    known._start[seat], canonical, ("path", "event")[taken],
                                    left, points)
        else:
            changes = preview.walked(seat, canonical, (known._walks[seat], after._walks[seat]),
                                     (known._diaries[seat], after._diaries[seat]),
                                     after._walk_end[seat], after._pending, points)
        walker = after._turn if after._phase == "walk" else None
        if walker is not None and not known._walks[walker]:
            if walker != seat:
                walks = list(shown._walks)
                walks[walker] = ()
                shown._walks = tuple(walks)
            changes.append(preview.walk_begins(walker))
        changes.extend(preview.ended(after.result))
        return Preview(canonical, shown.view(seat), tuple(changes))

    def settled_move(self) -> str | None:
        """The walker's best choice, known exactly (``None`` while building or when over).

        A walker is alone on a finished town, sees everything its walk depends on (the grid and
        its own start card), and no other seat's score depends on its choices: the choice after
        which it can still reach the best diary (every later choice walked, ``hints``) is best
        for it whatever the others hold, under any reward that grows with its own score. Bots
        play it without searching (a search scored by rank alone is indifferent between two
        walks that keep the same place, and may take the lower score)."""
        if self._phase != "walk" or not self._pending:
            return None
        seat = self._turn
        assert seat is not None
        moves = list(self._pending)
        values = hints.choice_values(self._grid, self._version, seat, self._walks[seat],
                                     self._diaries[seat], moves)
        return moves[values.index(max(values))]

    def playout_move(self, moves: list[str], rng: random.Random) -> str:
        """Town's playout hint (``hints``). A walker takes the choice with the best diary it can
        still reach (it is alone: no other seat acts until it ends, so it can walk every later
        choice); a builder, mostly, the placement that does the most for its own walk so far.
        Ties are broken at random."""
        if len(moves) == 1 or self._phase == "over":
            return moves[rng.randrange(len(moves))]
        seat = self._turn
        assert seat is not None
        if self._phase == "build":
            chosen = playout.explore(moves, rng)
            if chosen is not None:
                return chosen
            scores = hints.placement_scores(self._grid, self._version, seat,
                                            self._start[seat], moves)
        else:
            scores = hints.choice_values(self._grid, self._version, seat, self._walks[seat],
                                         self._diaries[seat], moves)
        return playout.best(moves, scores, rng)

    # -- phase 1: building ------------------------------------------------------------------

    def _slots(self) -> tuple[dict[str, list[int]], bool]:
        """Legal slots per offer card, and whether adjacency (rule 1) had to be waived."""
        grid = self._grid
        stairs = [0] * HEIGHT
        empty = [0] * HEIGHT
        empties = []
        touching = ROW1_MASK  # slots next to row 0 or to a placed card (one bit a slot)
        for i, card in enumerate(grid):
            if card is None:
                empty[i // WIDTH] += 1
                empties.append(i)
            else:
                touching |= NEIGHBOUR_MASKS[i]
                if IS_STAIRS[card]:
                    stairs[i // WIDTH] += 1
        reachable = [i for i in empties if touching >> i & 1]
        # Rule 2: a stairs card needs a row short of 3 stairs; any other card must leave enough
        # empty slots in its row for the stairs the row still needs.
        stairs_rows = [stairs[r] < STAIRS_PER_ROW for r in range(HEIGHT)]
        other_rows = [empty[r] - 1 >= STAIRS_PER_ROW - stairs[r] for r in range(HEIGHT)]

        def fitting(candidates: list[int]) -> dict[str, list[int]]:
            result = {}
            for card in self._offer:
                if card is not None:
                    rows = stairs_rows if IS_STAIRS[card] else other_rows
                    result[card] = [i for i in candidates if rows[i // WIDTH]]
            return result

        slots = fitting(reachable)
        if any(slots.values()):
            return slots, False
        return fitting(empties), True

    def _place(self, move: str) -> TownState:
        seat = self._turn
        assert seat is not None
        card, _, slot = move.partition("@")
        nxt = self._copy()
        grid = list(self._grid)
        grid[SLOT_INDEX[slot]] = card
        nxt._grid = tuple(grid)
        if card == self._offer[0]:
            nxt._offer = (self._path_deck[0] if self._path_deck else None, self._offer[1])
            nxt._path_deck = self._path_deck[1:]
        else:
            nxt._offer = (self._offer[0], self._event_deck[0] if self._event_deck else None)
            nxt._event_deck = self._event_deck[1:]
        nxt._last_move = {"seat": seat, "move": move}
        nxt._ply = self._ply + 1
        if None in grid:
            nxt._turn = (seat + 1) % self._n
        else:
            nxt._lighthouse = LIGHTHOUSE_COLUMN
            nxt._phase = "walk"
            nxt._begin_walk(0)
        return nxt

    # -- phase 2: walking -------------------------------------------------------------------

    def _begin_walk(self, seat: int) -> None:
        """(On a fresh copy.) The seat's start card becomes public: its seaside step is recorded."""
        walks = list(self._walks)
        walks[seat] = (_step(self._start[seat] - 1, 0, None, None, None, False),)
        self._walks = tuple(walks)
        self._turn = seat
        self._pending = START_CHOICES

    def _choose(self, action: str) -> TownState:
        seat = self._turn
        assert seat is not None
        nxt = self._copy()
        nxt._last_move = {"seat": seat, "move": action}
        nxt._ply = self._ply + 1
        steps = list(self._walks[seat])
        walker = Walker.after(self._version, seat, steps, self._diaries[seat])
        steps[-1] = {**steps[-1], "action": action, "chosen": True}
        nxt._walk(seat, steps, walker, action)
        return nxt

    def _walk(self, seat: int, steps: list[dict[str, Any]], walker: Walker, action: str) -> None:
        """(On a fresh copy.) Leave the walker's card by the chosen ``action``; walk on to a
        choice or the end (the walk's rules: ``walk.py``), recording every card entered."""
        record: list[tuple[int, int, int, str | None, str | None]] = []
        options = walker.go(self._grid, action, True, record)
        assert walker.slot is None, "a walk met an empty slot"
        steps.extend(_step(col, row, direction, taken, left_by, False)
                     for col, row, direction, taken, left_by in record)
        walks = list(self._walks)
        walks[seat] = tuple(steps)
        self._walks = tuple(walks)
        diaries = list(self._diaries)
        diaries[seat] = walker.diary
        self._diaries = tuple(diaries)
        if walker.end is None:
            self._pending = options
            return
        walk_end = list(self._walk_end)
        walk_end[seat] = walker.end
        self._walk_end = tuple(walk_end)
        self._pending = None
        if seat + 1 < self._n:
            self._begin_walk(seat + 1)
        else:
            self._phase = "over"
            self._turn = None

    # -- moves ------------------------------------------------------------------------------

    def _legal_map(self) -> tuple[list[str], dict[str, str]]:
        """The legal moves and a lookup of their canonical spellings (cached)."""
        if self._legal is None:
            if self._phase == "build":
                slots, _ = self._slots()
                moves = [f"{card}@{SLOT_NAMES[i]}" for card, where in slots.items() for i in where]
            elif self._phase == "walk":
                moves = list(self._pending or ())
            else:
                moves = []
            self._legal = (moves, {move: move for move in moves})
        return self._legal

    def _why_illegal(self, move: str) -> IllegalMove:
        """Why ``move`` is refused: a reason code with parameters. Reasons read only what every
        seat sees (the grid, the offer, the walker's choices), never a deck or a start card."""
        text = "".join(str(move).split()).replace("-", "")
        if self._phase == "over":
            return IllegalMove.of(WORDS, "game_over")
        if self._phase == "walk":
            options = ", ".join(self._pending or ())
            if text.lower() in {a.lower() for a in WALK_ACTIONS}:
                return IllegalMove.of(WORDS, "walk_choice_unavailable", move=text,
                                      options=options)
            return IllegalMove.of(WORDS, "not_a_walk_choice", move=str(move), options=options)
        card, at, slot = text.partition("@")
        card, slot = card.upper(), slot.lower()
        if not at or card not in CARD_IDS or slot not in SLOT_INDEX:
            return IllegalMove.of(WORDS, "not_a_placement", move=str(move))
        if card not in self._offer:
            offer = " or ".join(c for c in self._offer if c is not None)
            return IllegalMove.of(WORDS, "not_on_offer", card=card, offer=offer)
        if self._grid[SLOT_INDEX[slot]] is not None:
            return IllegalMove.of(WORDS, "slot_taken", slot=slot)
        reason = self._why_not_here(card, SLOT_INDEX[slot])
        assert reason is not None, "a legal placement reached _why_illegal"
        return reason

    def _why_not_here(self, card: str, index: int) -> IllegalMove | None:
        """Why the offer card ``card`` may not go in the empty slot ``index`` (rules 1 and 2),
        or ``None`` when it may."""
        if index in self._slots()[0].get(card, ()):
            return None
        grid, row = self._grid, index // WIDTH
        cells = grid[row * WIDTH : (row + 1) * WIDTH]
        stairs = sum(1 for c in cells if c is not None and IS_STAIRS[c])
        empty = sum(1 for c in cells if c is None)
        slot = SLOT_NAMES[index]
        touching = index < WIDTH or any(grid[j] is not None for j in NEIGHBOURS[index])
        if not touching and not self._slots()[1]:
            return IllegalMove.of(WORDS, "not_touching", card=card, slot=slot)
        if IS_STAIRS[card]:
            return IllegalMove.of(WORDS, "row_has_stairs", card=card, slot=slot, row=row + 1)
        return IllegalMove.of(WORDS, "row_needs_stairs", card=card, slot=slot, row=row + 1,
                              empty=empty, needed=STAIRS_PER_ROW - stairs)

    def why_not(self, move: str) -> IllegalMove | None:
        """Also answers for a lone slot tapped before an offer card was chosen."""
        slot = move.strip().lower() if isinstance(move, str) else None
        if self._phase != "build" or slot not in SLOT_INDEX:
            return super().why_not(move)
        if self._grid[SLOT_INDEX[slot]] is not None:
            return IllegalMove.of(WORDS, "slot_taken", slot=slot)
        cards = [card for card in self._offer if card is not None]
        reasons = [self._why_not_here(card, SLOT_INDEX[slot]) for card in cards]
        fitting = [card for card, reason in zip(cards, reasons, strict=True) if reason is None]
        if fitting:
            return IllegalMove.of(WORDS, "choose_card", cards=" / ".join(fitting), slot=slot)
        return reasons[0]


class TownGame(Game):
    """Town of Stairs: 2–4 players, hidden start cards, shuffled decks."""

    id = "town"
    title = WORDS.title
    words = WORDS
    min_players = 2
    max_players = 4
    options = TownOptions
    view_model = TownView
    hidden_information = True
    has_chance = True
    rules_version = RULES_VERSION
    analysis_budget = 300
    """A two-player game (31 positions) costs 5–6 s of CPU at 300 iterations a position, the
    opening positions most (~250–300 ms each). Its heuristic playouts cost more than random ones:
    at 400 the same game took 7.3 s instead of 5.3 s, and up to 22 s wall."""

    def replay_start(
        self,
        rules_version: int,
        players: int = 2,
        options: dict[str, Any] | None = None,
        seed: int = 0,
    ) -> TownState:
        """The initial state of a match played under ``rules_version``: the deal that version's
        generator drew from ``seed``, played by its rules."""
        if rules_version not in RULES_VERSIONS:
            raise ValueError(f"unknown Town of Stairs rules version {rules_version!r}")
        return self._deal(players, options, seed, rules_version)

    def new_state(
        self, players: int = 2, options: dict[str, Any] | None = None, seed: int = 0
    ) -> TownState:
        return self._deal(players, options, seed, RULES_VERSION)

    def _deal(self, players: int, options: dict[str, Any] | None, seed: int,
              rules_version: int) -> TownState:
        chosen = self.parse_options(options)
        assert isinstance(chosen, TownOptions)
        self.check_players(players)
        if chosen.start_cards is not None and len(chosen.start_cards) != players:
            raise ValueError(
                f"start_cards must give one card per seat: {players} expected, "
                f"{len(chosen.start_cards)} given"
            )
        # Draw every shuffle whatever the options say, so fixing one deck leaves the rest unchanged.
        rng = deal_random(rules_version, seed)
        path = list(PATH_IDS)
        rng.shuffle(path)
        event = list(EVENT_IDS)
        rng.shuffle(event)
        start = rng.sample(range(1, WIDTH + 1), players)
        path = list(chosen.path_deck) if chosen.path_deck is not None else path
        event = list(chosen.event_deck) if chosen.event_deck is not None else event
        start = list(chosen.start_cards) if chosen.start_cards is not None else start
        data: dict[str, Any] = {
            "players": players,
            "phase": "build",
            "turn": 0,
            "ply": 0,
            "path_deck": path[1:],
            "event_deck": event[1:],
            "offer": [path[0], event[0]],
            "start_cards": start,
            "grid": [None] * SLOTS,
            "lighthouse": None,
            "walks": [[] for _ in range(players)],
            "pending": None,
            "diaries": [[] for _ in range(players)],
            "walk_end": [None] * players,
            "last_move": None,
        }
        if rules_version != 1:  # version 1 states were stored without it
            data["rules_version"] = rules_version
        return TownState(data)

    def from_json(self, data: dict[str, Any]) -> TownState:
        return TownState(data)

    def draw_deal(self, seed: int) -> dict[str, Any]:
        """Both decks and a start card per seat of a four-player table, as ``new_state`` draws
        them from ``seed``: the secret options every duplicate table of a round plays."""
        state = self.new_state(players=self.max_players, seed=seed).to_json()
        return {"path_deck": [state["offer"][0], *state["path_deck"]],
                "event_deck": [state["offer"][1], *state["event_deck"]],
                "start_cards": state["start_cards"]}

    def deal_for_players(self, deal: dict[str, Any], players: int) -> dict[str, Any]:
        """The same decks; the first ``players`` start cards (seat by seat)."""
        return {**deal, "start_cards": list(deal["start_cards"][:players])}


GAME = TownGame()
