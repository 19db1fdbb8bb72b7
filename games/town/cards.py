"""Town of Stairs card faces, loaded once from ``cards.json`` and turned into lookup tables.

The faces are this project's reconstruction (no public card list exists), so they live as data: the
publisher's real list can replace ``cards.json`` without touching the engine. The tables below are
built once at import and never change afterwards (tuples and frozensets, read-only by convention).

``cards.json`` names the rules version its faces belong to and lists, per earlier version, the faces
that were different then: a match stored under an earlier version replays with the faces it was
played with (rules version 1 had P13's two reverse icons the other way round).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")
SUNSET = "sunset"
DIRECTION_ICONS = ("UR", "UL")

# A walker's options on arrival, in canonical order; "straight" = ignore (skip) or no icon.
ACTION_ORDER: tuple[str, ...] = ("UR", "UL", "straight", "rev")


def _load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(__file__).with_name("cards.json").read_text(encoding="utf-8"))
    return data


def _check(data: dict[str, Any]) -> None:
    """Fail at import if the card data breaks the rules' counts: a bad replacement shows early."""
    cards = data["cards"]
    paths = [c for c in cards if c["kind"] in ("stairs", "path")]
    events = [c for c in cards if c["kind"] == "event"]
    stairs = [c for c in cards if c["kind"] == "stairs"]
    if len(paths) != 14 or len(events) != 14 or len(stairs) != 12 or len(cards) != 28:
        raise ValueError(
            "cards.json must hold 14 path cards (12 of them stairs) and 14 event cards"
        )
    if len({c["id"] for c in cards}) != 28:
        raise ValueError("cards.json card ids must be distinct")
    if not isinstance(data.get("rules_version"), int) or data["rules_version"] < 1:
        raise ValueError("cards.json must name the rules version of its faces (an integer >= 1)")
    ids = {c["id"] for c in cards}
    for version, earlier in data.get("earlier_versions", {}).items():
        if not 1 <= int(version) < data["rules_version"] or not set(earlier["faces"]) <= ids:
            raise ValueError(f"cards.json earlier version {version} is not an earlier version "
                             "or changes an unknown card")
    known = set(data["events"])
    for card in cards:
        if card["kind"] == "event" and card["event"] not in known - {SUNSET}:
            raise ValueError(f"card {card['id']} has an unknown event {card['event']!r}")
        earlier = [
            face["bl"] + face["br"]
            for version in data.get("earlier_versions", {}).values()
            for card_id, face in version["faces"].items()
            if card_id == card["id"]
        ]
        for icon in card["bl"] + card["br"] + [i for icons in earlier for i in icons]:
            kind, _, colour = icon.partition(":")
            if icon not in DIRECTION_ICONS and not (kind in ("skip", "rev") and colour in COLOURS):
                raise ValueError(f"card {card['id']} has an unknown icon {icon!r}")
    for colour in COLOURS:
        if not set(data["characters"][colour]) <= known:
            raise ValueError(f"character {colour} has an unknown interest")


def _options(icons: list[str], colour: str) -> tuple[str, ...]:
    """What a walker of ``colour`` may do after entering through a corner carrying ``icons``.

    ``UR``/``UL`` apply to everyone, ``skip:C`` adds "straight" beside them for colour C, and
    ``rev:C`` turns colour C round. No applicable icon means the forced ``("straight",)``; one
    option is compulsory; several are the walker's choice.
    """
    found = set()
    for icon in icons:
        if icon in DIRECTION_ICONS:
            found.add(icon)
    if found and f"skip:{colour}" in icons:
        found.add("straight")
    if f"rev:{colour}" in icons:
        found.add("rev")
    return tuple(action for action in ACTION_ORDER if action in found) or ("straight",)


_DATA = _load()
_check(_DATA)

EVENT_NAMES: dict[str, str] = _DATA["events"]  # event type -> Japanese name on the card
INTERESTS: tuple[frozenset[str], ...] = tuple(
    frozenset(_DATA["characters"][colour]) for colour in COLOURS
)
PATH_IDS: tuple[str, ...] = tuple(c["id"] for c in _DATA["cards"] if c["kind"] != "event")
EVENT_IDS: tuple[str, ...] = tuple(c["id"] for c in _DATA["cards"] if c["kind"] == "event")
IS_STAIRS: dict[str, bool] = {c["id"]: c["kind"] == "stairs" for c in _DATA["cards"]}
EVENT_OF: dict[str, str | None] = {c["id"]: c["event"] for c in _DATA["cards"]}

RULES_VERSION: int = _DATA["rules_version"]  # the version these faces (and new games) belong to
RULES_VERSIONS: tuple[int, ...] = tuple(range(1, RULES_VERSION + 1))


def _faces(version: int) -> tuple[dict[str, Any], ...]:
    """Every card as it was under rules ``version``. ``earlier_versions[k]`` lists the faces version
    k had where they differ from the next version's; a card takes the face of the nearest listed
    version at or after ``version``, else its current face."""
    changed: dict[str, dict[str, Any]] = {}
    for later in range(RULES_VERSION - 1, version - 1, -1):
        changed.update(_DATA.get("earlier_versions", {}).get(str(later), {}).get("faces", {}))
    return tuple({**card, **changed.get(card["id"], {})} for card in _DATA["cards"])


FACES: dict[int, tuple[dict[str, Any], ...]] = {v: _faces(v) for v in RULES_VERSIONS}

# OPTIONS[version][colour index][card id] = (options entering from the left, from the right)
OPTIONS: dict[int, tuple[dict[str, tuple[tuple[str, ...], tuple[str, ...]]], ...]] = {
    version: tuple(
        {c["id"]: (_options(c["bl"], colour), _options(c["br"], colour)) for c in faces}
        for colour in COLOURS
    )
    for version, faces in FACES.items()
}


def catalogue(version: int = RULES_VERSION) -> dict[str, dict[str, Any]]:
    """A fresh copy of every card face under rules ``version``, for views (so no caller can alter
    the tables)."""
    return {
        c["id"]: {
            "kind": c["kind"],
            "stairs": c["kind"] == "stairs",
            "bl": list(c["bl"]),
            "br": list(c["br"]),
            "event": c["event"],
        }
        for c in FACES[version]
    }
