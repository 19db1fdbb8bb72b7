"""The screens the browser tests look through, chosen so each pair of factors meets without the
whole cross product.

A page goes wrong at a width, in a language or in a colour scheme, and now and then at one pair
of them (Japanese on a phone, say); three factors all at once add nothing two do not show.
Covering every pair takes four runs of three two-valued factors (an orthogonal array) against the
product's eight, and each value once takes two runs of a pair against four; each run of a browser
test costs seconds of a loaded machine."""

from __future__ import annotations

PAIRWISE_SCREENS: list[tuple[int, str, str]] = [
    (375, "en", "light"), (375, "ja", "dark"), (1366, "en", "dark"), (1366, "ja", "light")]
"""(width, language, scheme): every pair of values of any two of the three factors appears once."""

EACH_WIDTH_AND_LANGUAGE: list[tuple[int, str]] = [(375, "ja"), (1366, "en")]
"""(width, language): each width and each language once, Japanese on the narrow screen (its
longest lines meet the least room)."""
