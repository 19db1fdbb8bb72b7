"""A finished game's page as a newcomer opens it: no failed request in the console before an
analysis exists, then the analysis graph and its legend drawn in the seats' game colours, and the
marks counted with proper plurals ("1 blunder", never "1 Blunder" or "5 Blunder")."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import screenshot
from tests.browser.test_analysis import _finished_blunder_game, analysing_server  # noqa: F401

pytestmark = pytest.mark.browser
STAIRS_LIGHT, STAIRS_DARK = "rgb(244, 238, 225)", "rgb(58, 51, 48)"


@pytest.mark.parametrize(("width", "lang"), [(1366, "en"), (375, "ja")])
def test_a_finished_game_logs_no_404_and_its_graph_wears_the_seat_colours(  # type: ignore[no-untyped-def]
        analysing_server: str, new_page, width: int, lang: str) -> None:  # noqa: F811
    match_id = _finished_blunder_game(analysing_server)
    page = new_page(width=width, locale="ja-JP" if lang == "ja" else "en-GB")
    console: list[str] = []
    failed: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.goto(f"{analysing_server}/lang/{lang}?next=/m/{match_id}")
    page.wait_for_selector("#analysis-request")
    page.wait_for_load_state("networkidle")
    assert failed == [] and console == [], (failed, console)
    page.click("#analysis-request")
    page.wait_for_selector("#analysis-graph svg polyline.graph-line", timeout=60_000)
    strokes = page.eval_on_selector_all(
        "#analysis-graph .graph-line", "lines => lines.map(l => getComputedStyle(l).stroke)")
    assert strokes == [STAIRS_LIGHT, STAIRS_DARK]
    swatches = page.eval_on_selector_all(
        ".analysis-legend .swatch", "s => s.map(x => getComputedStyle(x).backgroundColor)")
    assert swatches == [STAIRS_LIGHT, STAIRS_DARK]
    legend = page.inner_text(".analysis-legend")
    if lang == "en":
        assert re.search(r"\b1 blunder\b", legend), legend
        assert not re.search(r"\b1 (blunders|Blunder)\b|\b([02-9]|\d\d+) (blunder|mistake|inaccuracy)\b",
                             legend), legend
    else:
        assert re.search(r"大悪手1回", legend), legend
    screenshot(page, f"analysis-graph-{lang}-{width}")
    assert page.js_errors == [] and failed == [], failed
