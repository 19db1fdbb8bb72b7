"""``games/town/cards.json`` is the rules' card table, card by card and field by field, and the
engine plays the faces it loads from it (tests/games/data/town_cards_table.py is the rules' table,
transcribed)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from games.town import cards
from games.town.cards import COLOURS, INTERESTS, RULES_VERSION, catalogue
from tests.games.data.town_cards_table import CARD_TABLE, CHARACTERS, EVENT_TYPES

CARDS_JSON = Path(cards.__file__).with_name("cards.json")
FIELDS = ("kind", "bl", "br", "event")


def _data() -> dict[str, Any]:
    return json.loads(CARDS_JSON.read_text(encoding="utf-8"))


def _face(kind: str, bl: Any, br: Any, event: str | None) -> dict[str, Any]:
    """A face to compare: icons in a corner sorted (their order on the card means nothing)."""
    return {"kind": kind, "bl": sorted(bl), "br": sorted(br), "event": event}


def _differences(faces: dict[str, dict[str, Any]]) -> list[str]:
    """Every field where ``faces`` (card id -> face) differs from the rules' table."""
    table = {row[0]: _face(*row[1:]) for row in CARD_TABLE}
    found = [f"{card}: in the rules' table, missing from cards.json"
             for card in table.keys() - faces.keys()]
    found += [f"{card}: in cards.json, not in the rules' table"
              for card in faces.keys() - table.keys()]
    for card in sorted(table.keys() & faces.keys()):
        face = _face(*(faces[card][name] for name in FIELDS))
        found += [f"{card}.{name}: cards.json has {face[name]!r}, the rules {table[card][name]!r}"
                  for name in FIELDS if face[name] != table[card][name]]
    return found


def test_every_card_of_cards_json_is_the_rules_table_row() -> None:
    faces = {card["id"]: card for card in _data()["cards"]}
    assert len(faces) == len(_data()["cards"]) == len(CARD_TABLE) == 28
    assert _differences(faces) == []


def test_the_engine_plays_the_rules_faces() -> None:
    """What the engine loaded (the faces of the current rules version, as every view shows
    them) is the table too, so no later layer alters a card."""
    assert _differences(catalogue(RULES_VERSION)) == []


def test_every_characters_interests_are_the_rules() -> None:
    data = _data()
    assert {colour: sorted(found) for colour, found in data["characters"].items()} == \
        {colour: sorted(wanted) for colour, wanted in CHARACTERS.items()}
    assert [set(CHARACTERS[colour]) for colour in COLOURS] == [set(i) for i in INTERESTS]


def test_event_types_and_their_names_are_the_rules() -> None:
    assert _data()["events"] == EVENT_TYPES


def test_the_table_says_what_the_rules_text_says_of_it() -> None:
    """The transcription itself agrees with the rules' prose: 12 stairs and 2 plain path cards,
    14 event cards, and each character's interests on exactly 4 event cards."""
    kinds = Counter(row[1] for row in CARD_TABLE)
    assert kinds == {"stairs": 12, "path": 2, "event": 14}
    events = Counter(row[4] for row in CARD_TABLE if row[4] is not None)
    for interests in CHARACTERS.values():
        assert sum(events[event] for event in interests) == 4
