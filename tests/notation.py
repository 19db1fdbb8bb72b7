"""Hypothesis strategies that misspell a move the way people and programs do (shared by the
engine and API notation tests): case changed, spaces or dashes added or removed, squares
swapped, junk appended.

``cosmetic`` edits (case, spaces, dashes) must still name the same move; the others may name
another legal move or none, and a parser must then say so with ``IllegalMove`` (or a 4xx).
"""

from __future__ import annotations

import random
import re

from hypothesis import strategies as st

COSMETIC = ("upper", "lower", "swapcase", "spaces", "no_dashes", "dashes")
OTHER = ("swap_squares", "junk")
SQUARE = re.compile(r"[A-Za-z]+\d+")


def _insert(text: str, what: str, rng: random.Random, times: int) -> str:
    for _ in range(times):
        at = rng.randrange(len(text) + 1)
        text = text[:at] + what + text[at:]
    return text


def mutate(move: str, edits: list[str], junk: str, seed: int) -> str:
    """Apply ``edits`` in order to ``move`` (random places drawn from ``seed``)."""
    rng = random.Random(seed)
    text = move
    for edit in edits:
        if edit == "upper":
            text = text.upper()
        elif edit == "lower":
            text = text.lower()
        elif edit == "swapcase":
            text = "".join(c.swapcase() if rng.random() < 0.5 else c for c in text)
        elif edit == "spaces":
            text = _insert(text, rng.choice([" ", "  ", "\t"]), rng, rng.randint(1, 3))
        elif edit == "no_dashes":
            text = text.replace("-", "")
        elif edit == "dashes":
            text = _insert(text, "-", rng, rng.randint(1, 2))
        elif edit == "swap_squares":
            squares = SQUARE.findall(text)
            if len(squares) >= 2:
                first, second = squares[0], squares[1]
                text = text.replace(first, "\0", 1).replace(second, first, 1).replace("\0", second, 1)
        elif edit == "junk":
            text += junk
    return text


edits = st.lists(st.sampled_from(COSMETIC + OTHER), min_size=1, max_size=4)
cosmetic_edits = st.lists(st.sampled_from(COSMETIC), min_size=1, max_size=4)
junk = st.text(min_size=1, max_size=6)
