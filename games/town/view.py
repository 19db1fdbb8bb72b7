"""The Town of Stairs view (``TownState.view``): what one seat may see — never a deck order,
never another seat's start card before its walk begins."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.views import GameView

Colour = Literal["red", "blue", "green", "yellow"]


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TownCharacter(_Part):
    colour: Colour
    interests: list[str] = Field(description="Event types worth 2 points to this seat.")


class TownDeckSizes(_Part):
    path: int = Field(ge=0)
    event: int = Field(ge=0)


class TownWalkStep(_Part):
    """One card of a walk: where, entered from which side moving which way, what it gave."""

    pos: str = Field(description="The slot (`d2`); row 0 is the seaside start.")
    col: int = Field(ge=0)
    row: int = Field(ge=0)
    side: Literal["left", "right"] | None = Field(description="The side it was entered from.")
    dir: Literal["left", "right"] | None = Field(description="The way the walker moved.")
    diary: str | None = Field(description="The event card it gave, if any.")
    action: str | None = Field(description="The choice made here, if any.")
    chosen: bool = Field(description="The walker chose here (a move), rather than the rules.")


class TownScoreRule(_Part):
    sunset: int
    interest: int
    other: int


class TownLastMove(_Part):
    seat: int = Field(ge=0)
    move: str


class TownCard(_Part):
    kind: str = Field(description="`stairs`, `path` or `event`.")
    stairs: bool
    bl: list[str] = Field(description="What the card's bottom-left side does.")
    br: list[str] = Field(description="What the card's bottom-right side does.")
    event: str | None = Field(description="An event card's event type.")


class TownView(GameView):
    """A Town of Stairs position. Building (`phase` `build`): seats take turns placing one of
    the two `offer` cards in a slot, `P3@c2` (card, column a–g, row 1–4). Walking (`phase`
    `walk`): each seat in turn walks alone, and `to_move` stays on the walker for every choice
    of its walk (`UR`, `UL`, `straight`, `rev`) until it ends."""

    game: Literal["town"]
    phase: Literal["build", "walk", "over"]
    players: int = Field(ge=1)
    colours: list[Colour] = Field(description="Each seat's colour.")
    characters: list[TownCharacter] = Field(description="Each seat's character.")
    start_cards: list[int | None] = Field(description=(
        "Each seat's seaside start column (1–7): yours, and the others' once they walk."))
    grid: list[list[str | None]] = Field(description="Rows 1–4, columns a–g: the card in each slot.")
    lighthouse: str | None = Field(description="Where the lighthouse stands, once built.")
    offer: list[str | None] = Field(description="The cards to choose from (null: none left).")
    deck_sizes: TownDeckSizes
    legal_slots: dict[str, list[str]] = Field(description="An offer card -> where it may go.")
    fallback: bool = Field(description="No slot touched the town: adjacency was waived.")
    walker: int | None = Field(description="The seat walking now.")
    walks: list[list[TownWalkStep]] = Field(description="Each seat's walk so far.")
    walk_end: list[Literal["lighthouse", "loop", "fifth diary card"] | None] = Field(
        description="How each seat's walk ended.")
    pending: list[str] | None = Field(description="The walker's choices now.")
    diaries: list[list[str]] = Field(description="Each seat's diary: the event types collected.")
    scores: list[int]
    diary_points: list[list[int]] = Field(description="What each diary card scored.")
    score_rule: TownScoreRule
    clicks: dict[str, dict[str, str]] = Field(description="An offer card -> a slot -> the move.")
    placed: int = Field(ge=0, description="Cards in the town.")
    slots: int = Field(ge=1, description="Slots in the town.")
    last_move: TownLastMove | None
    cards: dict[str, TownCard] = Field(description="Every card face by id.")
    events: dict[str, str] = Field(description="Event type -> its name on the card (Japanese).")
