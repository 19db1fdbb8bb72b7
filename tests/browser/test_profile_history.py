"""The profile with its rating history, standout results and head to head, seen by the other
player: drawn at 375 and 1366 px, in English and Japanese, light and dark; axe finds no serious
or critical violation (contrast included) and the graph fits its card. Screenshots go to
test-artifacts/profile-history-<width>-<lang>-<theme>.png."""

from __future__ import annotations

import httpx
import pytest

from tests.browser.conftest import new_context, screenshot
from tests.browser.screens import PAIRWISE_SCREENS
from tests.browser.test_accessibility import AXE, report, violations
from tests.browser.tour import PASSWORD, TIMEOUT

pytestmark = pytest.mark.browser


def _account(base: str, username: str) -> dict[str, str]:
    made = httpx.post(f"{base}/api/v1/accounts", json={"username": username, "password": PASSWORD},
                      timeout=TIMEOUT)
    made.raise_for_status()
    return {"Authorization": f"Bearer {made.json()['token']}"}


def _play(base: str, first: dict[str, str], second: dict[str, str], game: str,
          loser: dict[str, str], rated: bool = True) -> None:
    seek = httpx.post(f"{base}/api/v1/seeks", json={"game": game, "rated": rated, "seat": 0},
                      headers=first, timeout=TIMEOUT).json()
    accepted = httpx.post(f"{base}/api/v1/seeks/{seek['id']}/accept", headers=second,
                          timeout=TIMEOUT).json()
    httpx.post(f"{base}/api/v1/matches/{accepted['match_id']}/resign", headers=loser,
               timeout=TIMEOUT).raise_for_status()


@pytest.fixture(scope="module")
def people(live_server: str) -> tuple[str, str]:
    """Two people with a history: rated Scalas and Stairs games, a casual one, and a third
    opponent so the profiled person's graph climbs and falls."""
    viewer_name, profiled_name, third_name = "histviewer", "histplayer", "histthird"
    viewer, profiled = _account(live_server, viewer_name), _account(live_server, profiled_name)
    third = _account(live_server, third_name)
    for loser in (viewer, viewer, profiled, viewer, profiled, viewer):
        _play(live_server, profiled, viewer, "scalas", loser)
    for loser in (third, third, profiled):
        _play(live_server, profiled, third, "scalas", loser)
    for loser in (viewer, profiled, viewer):
        _play(live_server, profiled, viewer, "stairs", loser)
    _play(live_server, profiled, viewer, "sight", profiled, rated=False)
    return viewer_name, profiled_name


@pytest.mark.parametrize(("width", "lang", "theme"), PAIRWISE_SCREENS)
def test_the_profile_history_reads_in_every_screen_language_and_theme(
        browser, live_server: str, people: tuple[str, str], width: int, lang: str,  # type: ignore[no-untyped-def]
        theme: str) -> None:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make test does)")
    viewer, profiled = people
    context = new_context(browser, viewport={"width": width, "height": 812 if width < 600 else 768},
                          locale="ja-JP" if lang == "ja" else "en-GB",
                          color_scheme=theme)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/login")
        page.fill("input[name=username]", viewer)
        page.fill("input[name=password]", PASSWORD)
        page.locator("form.auth-form button[type=submit]").click()
        page.locator(".viewer-name").wait_for()
        page.goto(f"{live_server}/lang/{lang}?next=/u/{profiled}")
        page.wait_for_load_state("networkidle")
        graphs = page.locator("svg.rating-graph")
        assert graphs.count() == 2  # Scalas and Stairs; the casual Sight game draws nothing
        assert page.locator("#head-to-head").is_visible()
        assert page.locator(".standout.best-win").count() == 2
        # the graph fits inside its card, and the page does not scroll sideways
        for index in range(graphs.count()):
            box = graphs.nth(index).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        found = violations(page)
        screenshot(page, f"profile-history-{width}-{lang}-{theme}")
        screenshot(page.locator(".rating-histories"), f"profile-history-graphs-{width}-{lang}-{theme}")
        assert not found, report(found)
    finally:
        context.close()
