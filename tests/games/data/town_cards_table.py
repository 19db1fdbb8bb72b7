"""The Town of Stairs card table of the rules ("Reconstructed card faces"), transcribed row by row.

Kept apart from ``games/town/cards.json`` on purpose: the test compares the two field by field, so
an edit to the game data that the rules do not make (or a rules change not made in the data)
fails. One row per card: id, kind, bottom-left icons, bottom-right icons, event type. ``kind`` is
``stairs``, ``path`` (a path card without stairs) or ``event``; no icons is ``()``.
"""

from __future__ import annotations

CardRow = tuple[str, str, tuple[str, ...], tuple[str, ...], str | None]

CARD_TABLE: tuple[CardRow, ...] = (
    ("P1", "stairs", ("UR", "skip:green"), (), None),
    ("P2", "stairs", ("UR",), (), None),
    ("P3", "stairs", ("UR", "skip:blue"), (), None),
    ("P4", "stairs", ("UR",), (), None),
    ("P5", "stairs", ("UR",), (), None),
    ("P6", "stairs", (), ("UL", "skip:red"), None),
    ("P7", "stairs", (), ("UL",), None),
    ("P8", "stairs", (), ("UL", "skip:yellow"), None),
    ("P9", "stairs", (), ("UL",), None),
    ("P10", "stairs", (), ("UL",), None),
    ("P11", "stairs", ("UR",), ("UL",), None),
    ("P12", "stairs", ("UR",), ("UL",), None),
    ("P13", "path", ("rev:blue",), ("rev:red",), None),
    ("P14", "path", ("rev:green",), ("rev:yellow",), None),
    # The event cards: the table's event column in order, icons only where the note under the
    # table puts them (E5 bottom-left rev:blue, E9 bottom-right rev:green).
    ("E1", "event", (), (), "cafe"),
    ("E2", "event", (), (), "bakery"),
    ("E3", "event", (), (), "cat"),
    ("E4", "event", (), (), "flowers"),
    ("E5", "event", ("rev:blue",), (), "shrine"),
    ("E6", "event", (), (), "books"),
    ("E7", "event", (), (), "gallery"),
    ("E8", "event", (), (), "market"),
    ("E9", "event", (), ("rev:green",), "music"),
    ("E10", "event", (), (), "view"),
    ("E11", "event", (), (), "cafe"),
    ("E12", "event", (), (), "cat"),
    ("E13", "event", (), (), "market"),
    ("E14", "event", (), (), "flowers"),
)

CHARACTERS: dict[str, tuple[str, ...]] = {
    "red": ("cafe", "books", "view"),
    "blue": ("cat", "bakery", "shrine"),
    "green": ("flowers", "gallery", "music"),
    "yellow": ("market", "books", "shrine"),
}
"""Each character colour's three interests (event types)."""

EVENT_TYPES: dict[str, str] = {
    "cafe": "喫茶店", "bakery": "パン屋", "cat": "猫", "flowers": "花屋", "shrine": "神社",
    "books": "古本屋", "gallery": "画廊", "market": "市場", "music": "音楽", "view": "展望台",
    "sunset": "美しい夕陽",
}
"""Event type -> the Japanese name printed on the card (sunset: the lighthouse's diary card)."""
