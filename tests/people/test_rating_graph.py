"""The rating graph's SVG: a dot and a vertex per game where the rating lies, rating ticks and
axis titles, a title and a description in words, escaped text, a long history thinned."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from app.kernel import i18n
from app.people.history import RatingPoint
from app.people.rating_graph import MOST_POINTS, nice_ticks, rating_svg

SVG = "{http://www.w3.org/2000/svg}"


def _points(ratings: list[float], start: float = 25.0) -> list[RatingPoint]:
    points: list[RatingPoint] = []
    before = start
    for day, rating in enumerate(ratings, start=1):
        points.append({"match_id": f"m{day}", "at": f"2026-03-{day:02d}T12:00:00Z",
                       "rating": rating, "delta": round(rating - before, 1), "mu": rating,
                       "sigma": 8.0 - day / 10})
        before = rating
    return points


def _parse(markup: str) -> ET.Element:
    return ET.fromstring(markup.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))


def test_the_graph_has_a_dot_per_game_at_its_rating_and_says_it_in_words() -> None:
    points = _points([26.4, 27.9, 26.1, 29.3])
    svg = _parse(str(rating_svg(points, "Stairs", "stairs")))
    assert svg.get("role") == "img" and svg.get("id") == "rating-graph-stairs"
    assert svg.get("aria-labelledby") == "rating-graph-stairs-title rating-graph-stairs-desc"
    assert svg.find(f"{SVG}title").text == "Rating history: Stairs"  # type: ignore[union-attr]
    desc = svg.find(f"{SVG}desc").text  # type: ignore[union-attr]
    assert desc == ("4 rated games from 2026-03-01 to 2026-03-04: rating 25.0 to 29.3, "
                    "highest 29.3, lowest 26.1.")
    dots = svg.findall(f"{SVG}circle")
    assert [d.get("data-rating") for d in dots] == ["26.4", "27.9", "26.1", "29.3"]
    tips = [d.find(f"{SVG}title").text for d in dots]  # type: ignore[union-attr]
    assert tips[2] == "Game 3: 26.1 (-1.8), 2026-03-03"
    # the line starts at the rating before the first game, then passes through every dot
    line = svg.find(f"{SVG}polyline").get("points").split()  # type: ignore[union-attr]
    assert len(line) == 5
    assert line[1:] == [f"{float(d.get('cx')):.1f},{float(d.get('cy')):.1f}" for d in dots]
    # a higher rating is drawn higher (a smaller y)
    ys = [float(d.get("cy")) for d in dots]  # type: ignore[arg-type]
    assert ys[3] < ys[1] < ys[0] < ys[2]
    texts = [t.text for t in svg.findall(f"{SVG}text")]
    assert "Rating" in texts and "Rated games" in texts
    ticks = [float(t) for t in texts if t and re.fullmatch(r"\d+(\.\d+)?", t)]
    assert min(ticks) <= 25.0 and max(ticks) >= 29.3  # the rating ticks cover the line
    assert {"0", "4"} <= set(texts)  # the game axis runs from the start to the last game


def test_one_game_reads_in_the_singular_and_text_is_escaped() -> None:
    svg = str(rating_svg(_points([26.0]), "<Town> & co", "town"))
    assert "Rating history: &lt;Town&gt; &amp; co" in svg
    assert "1 rated game, on 2026-03-01: rating 25.0 to 26.0." in svg
    assert svg.count("<circle") == 1
    assert rating_svg([], "Stairs", "stairs") == ""


def test_a_long_history_is_thinned_and_drawn_without_dots() -> None:
    ratings = [25 + (n % 40) / 4 for n in range(1500)]
    svg = _parse(str(rating_svg(_long(ratings), "Sight", "sight")))
    assert svg.get("data-games") == "1500"
    assert svg.findall(f"{SVG}circle") == []
    line = svg.find(f"{SVG}polyline").get("points").split()  # type: ignore[union-attr]
    assert len(line) == MOST_POINTS + 1
    assert "1500" in [t.text for t in svg.findall(f"{SVG}text")]


def _long(ratings: list[float]) -> list[RatingPoint]:
    return [{"match_id": f"m{n}", "at": "2026-03-01T00:00:00Z", "rating": rating,
             "delta": 0.0, "mu": rating, "sigma": None} for n, rating in enumerate(ratings)]


def test_the_ticks_are_round_and_cover_the_range() -> None:
    assert nice_ticks(23.4, 29.3) == [22.0, 24.0, 26.0, 28.0, 30.0]
    assert nice_ticks(25.0, 25.0)[0] <= 24.0 and nice_ticks(25.0, 25.0)[-1] >= 26.0
    assert nice_ticks(0, 1500, 5) == [0, 500, 1000, 1500]


def test_the_graph_speaks_japanese() -> None:
    token = i18n.current_language.set("ja")
    try:
        svg = str(rating_svg(_points([26.4, 27.9]), "階段", "stairs"))
    finally:
        i18n.current_language.reset(token)
    assert "レーティングの推移: 階段" in svg and "対局数" in svg
