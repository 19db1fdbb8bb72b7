"""A match page holds its board's space before the script draws it: the layout shift of a cold
load (the browser's own layout-shift entries, as Lighthouse counts them) stays below 0.1, the
"good" bound, for a live game of each game, a finished one and the Watch page (whose live games
arrive together), on a phone and a desktop."""

from __future__ import annotations

import pytest

from games import registry
from tests.browser.conftest import new_context
from tests.browser.tour import Tour, make_tour

pytestmark = pytest.mark.browser

GOOD = 0.1
RECORD_SHIFTS = """window.layoutShifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (!entry.hadRecentInput) window.layoutShifts.push(entry.value);
  }
}).observe({type: "layout-shift", buffered: true});"""


@pytest.fixture(scope="module")
def tour(live_server: str) -> Tour:
    return make_tour(live_server, "cls")


@pytest.mark.parametrize("name", [*(f"match-{game}" for game in registry.ids()), "analysis", "watch"])
@pytest.mark.parametrize("width", [412, 1366])
def test_the_board_arrives_without_moving_the_page(browser, live_server: str, tour: Tour,  # type: ignore[no-untyped-def]
                                                   width: int, name: str) -> None:
    context = new_context(browser, viewport={"width": width, "height": 823 if width < 600 else 768})
    try:
        context.add_init_script(RECORD_SHIFTS)
        page = context.new_page()
        page.goto(live_server + tour.pages[name])
        if name == "watch":  # every live game's card, drawn together
            page.wait_for_selector(f".live-card >> nth={len(registry.ids()) - 1}")
        else:
            page.wait_for_selector("#board > *")
            page.wait_for_selector("#move-list > *" if name == "analysis" else "#seats > *")
        page.wait_for_load_state("networkidle")
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        shifts: list[float] = page.evaluate("window.layoutShifts")
        assert sum(shifts) < GOOD, shifts
    finally:
        context.close()
