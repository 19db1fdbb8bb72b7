"""axe-core (node_modules/axe-core, pinned in package-lock.json) over every kind of page, on a
desktop in English and a phone in Japanese: any serious or critical violation fails (and an
empty table header). Every page with a board is checked: each game's match page and analysis
board, and each match page again with a move's preview drawn (static/js/preview.js).

The pages and their data come from tests/browser/tour.py, made once for the file; one signed-in
browser context per screen size walks them all (the invite page is also opened by a stranger,
who sees the join form)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games import registry
from tests.browser.conftest import new_context, screenshot
from tests.browser.tour import PASSWORD, Tour, make_tour

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SCREENS = {"desktop": (1366, "en"), "phone": (375, "ja")}
PAGES = ["home", "watch", "rules", "rules-game", "leaderboard", "tournaments", "tournament", "daily",
         "login", "signup", "profile", "tokens", "play-settings", "analysis", "invite",
         *(f"match-{game}" for game in registry.ids()),
         *(f"analysis-board-{game}" for game in registry.ids())]
EXTRA = {"play-settings": "/account/play",
         **{f"analysis-board-{game}": f"/analysis/{game}" for game in registry.ids()}}
"""Pages beyond the tour's (no data of their own)."""
BLOCKING = {"serious", "critical"}
ALSO_BLOCKING = {"empty-table-header"}  # minor to axe, but a column read out as nothing


@pytest.fixture(scope="module")
def tour(live_server: str) -> Tour:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make test does)")
    return make_tour(live_server, "axe")


@pytest.fixture(scope="module")
def screens(browser, live_server: str, tour: Tour) -> Iterator[dict[str, Any]]:  # type: ignore[no-untyped-def]
    """A signed-in page per screen size, in that screen's language."""
    opened, contexts = {}, []
    for screen, (width, lang) in SCREENS.items():
        context = new_context(browser, viewport={"width": width, "height": 812 if width < 600 else 768},
                              locale="ja-JP" if lang == "ja" else "en-GB")
        contexts.append(context)
        page = context.new_page()
        page.goto(f"{live_server}/login")
        page.fill("input[name=username]", tour.host)
        page.fill("input[name=password]", PASSWORD)
        page.locator("form.auth-form button[type=submit]").click()
        page.locator(".viewer-name").wait_for()
        page.goto(f"{live_server}/lang/{lang}?next=/")
        opened[screen] = page
    yield opened
    for context in contexts:
        context.close()


def violations(page) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    """axe's serious and critical violations on the page as it is drawn now."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [v for v in found if v["impact"] in BLOCKING or v["id"] in ALSO_BLOCKING]


def drawn(page, name: str) -> None:  # type: ignore[no-untyped-def]
    """Wait until the page's scripts have drawn what axe should see."""
    if name.startswith("match-") or name == "analysis":
        page.wait_for_selector("#match[data-ply]")
        page.wait_for_selector("#board > *")
    elif name == "watch":
        page.wait_for_selector(".live-card .live-board > *")
    elif name.startswith("analysis-board"):
        page.wait_for_selector("#board > *")
    page.wait_for_load_state("networkidle")


def report(found: list[dict[str, Any]]) -> str:
    lines = []
    for violation in found:
        lines.append(f"{violation['impact']} {violation['id']}: {violation['help']}")
        lines.extend(f"    {node['target']}: {node['failureSummary'].splitlines()[-1].strip()}"
                     for node in violation["nodes"][:6])
    return "\n".join(lines)


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("screen", list(SCREENS))
def test_no_serious_accessibility_violation(screens: dict[str, Any], live_server: str, tour: Tour,
                                            screen: str, name: str) -> None:
    page = screens[screen]
    page.goto(live_server + (EXTRA.get(name) or tour.pages[name]))
    drawn(page, name)
    found = violations(page)
    if found:
        screenshot(page, f"axe-{screen}-{name}")
    assert not found, report(found)


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_invite_page_seen_by_a_stranger(browser, live_server: str, tour: Tour,  # type: ignore[no-untyped-def]
                                            screen: str) -> None:
    width, lang = SCREENS[screen]
    context = new_context(browser, viewport={"width": width, "height": 800},
                          locale="ja-JP" if lang == "ja" else "en-GB")
    try:
        page = context.new_page()
        page.goto(f"{live_server}/lang/{lang}?next={tour.pages['invite']}")
        page.locator("#join-button").wait_for()
        page.wait_for_load_state("networkidle")
        found = violations(page)
        assert not found, report(found)
    finally:
        context.close()


# The first move of each game: a square, point or offer card, then its destination if any.
FIRST_CLICKS = """async () => {
    const id = document.querySelector('#match').dataset.matchId;
    return (await (await fetch(`/api/v1/matches/${id}`)).json()).view.clicks;
}"""


@pytest.mark.parametrize("game", registry.ids())
@pytest.mark.parametrize("screen", list(SCREENS))
def test_a_previewed_move_has_no_serious_violation(screens: dict[str, Any], live_server: str, tour: Tour,
                                                   screen: str, game: str) -> None:
    """The board drawing a move's preview and the panel of its changes (the host's setting:
    always confirm, chosen on the play settings page)."""
    page = screens[screen]
    page.goto(f"{live_server}/account/play")
    page.locator('input[value="always"]').check()
    page.locator("#save-play-settings").click()
    page.wait_for_url("**saved=1")
    page.goto(live_server + tour.pages[f"match-{game}"])
    drawn(page, f"match-{game}")
    first, then = next(iter(page.evaluate(FIRST_CLICKS).items()))
    page.locator(f'#board [data-offer="{first}"], #board [data-cell="{first}"]').first.click()
    if isinstance(then, dict):
        page.locator(f'#board [data-cell="{next(iter(then))}"]').first.click()
    page.wait_for_selector('#move-preview[data-state="ready"]')
    found = violations(page)
    if found:
        screenshot(page, f"axe-{screen}-preview-{game}")
    page.keyboard.press("Escape")  # nothing is played: the tour's matches stay at their start
    page.wait_for_selector("#move-preview", state="hidden")
    assert not found, report(found)
