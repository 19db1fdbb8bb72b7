"""The dark theme: axe-core finds no serious or critical violation (contrast first) on the main
pages drawn dark, and the theme a person chose is on the page before any of its scripts run.

Two ways to be dark are checked: on a desktop in English an account that chose "Dark" (the
server puts data-theme="dark" on <html>); on a phone in Japanese an account that follows its
device ("system", the default) on a device that prefers dark (the CSS media query)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games import registry
from tests.browser.conftest import new_context, screenshot
from tests.browser.test_accessibility import AXE, drawn, report, violations
from tests.browser.tour import PASSWORD, Tour, make_tour

pytestmark = pytest.mark.browser

SCREENS = {"desktop": (1366, "en", "dark"), "phone": (375, "ja", "system")}
"""Width, language and the account's theme (the phone's device prefers dark)."""
PAGES = ["home", "play-settings", "analysis", "analysis-board-scalas",
         *(f"match-{game}" for game in registry.ids())]
EXTRA = {"play-settings": "/account/play", "analysis-board-scalas": "/analysis/scalas"}
DARK_PAPER = "rgb(20, 24, 30)"
"""The page's background in the dark palette (--paper, static/css/site.css)."""


@pytest.fixture(scope="module")
def tour(live_server: str) -> Tour:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make test does)")
    return make_tour(live_server, "dark")


def _sign_in(page, live_server: str, name: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{live_server}/login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form.auth-form button[type=submit]").click()
    page.locator(".viewer-name").wait_for()


def _choose_theme(page, live_server: str, theme: str) -> None:  # type: ignore[no-untyped-def]
    """Save ``theme`` on the play settings page: an account's form is posted, a guest's kept."""
    page.goto(f"{live_server}/account/play")
    page.locator(f'input[name=theme][value="{theme}"]').check()
    if page.locator('#play-settings-form[data-stored="account"]').count():
        with page.expect_navigation(url="**saved=1"):
            page.locator("#save-play-settings").click()
    else:
        page.locator("#save-play-settings").click()
        page.wait_for_function("document.querySelector('#play-settings-saved').textContent.trim() !== ''")


@pytest.fixture(scope="module")
def screens(browser, live_server: str, tour: Tour) -> Iterator[dict[str, Any]]:  # type: ignore[no-untyped-def]
    """A signed-in page per screen size, in that screen's language and theme."""
    opened, contexts = {}, []
    for screen, (width, lang, theme) in SCREENS.items():
        context = new_context(browser, viewport={"width": width, "height": 812 if width < 600 else 768},
                              locale="ja-JP" if lang == "ja" else "en-GB", color_scheme="dark")
        contexts.append(context)
        page = context.new_page()
        _sign_in(page, live_server, tour.host)
        page.goto(f"{live_server}/lang/{lang}?next=/")
        _choose_theme(page, live_server, theme)
        opened[screen] = page
    yield opened
    for context in contexts:
        context.close()


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("screen", list(SCREENS))
def test_no_serious_violation_in_the_dark(screens: dict[str, Any], live_server: str, tour: Tour,
                                          screen: str, name: str) -> None:
    page = screens[screen]
    page.goto(live_server + (EXTRA.get(name) or tour.pages[name]))
    drawn(page, name)
    assert _paper(page) == DARK_PAPER
    found = violations(page)
    if found:
        width, lang, _ = SCREENS[screen]
        screenshot(page, f"dark-{width}-{lang}-{name}")
    assert not found, report(found)


def _without_scripts(page) -> None:  # type: ignore[no-untyped-def]
    """Refuse every script file: only the page's inline head script may run."""
    page.route("**/*.js", lambda route: route.abort())


def _paper(page) -> str:  # type: ignore[no-untyped-def]
    return page.evaluate("getComputedStyle(document.documentElement).backgroundColor")


def test_an_account_theme_is_on_the_next_page_before_scripts(browser, live_server: str,  # type: ignore[no-untyped-def]
                                                             tour: Tour) -> None:
    context = new_context(browser, viewport={"width": 1366, "height": 768}, color_scheme="light")
    try:
        page = context.new_page()
        _sign_in(page, live_server, "darkrival")  # the tour's other account
        _choose_theme(page, live_server, "dark")
        _without_scripts(page)
        page.goto(f"{live_server}{tour.pages['home']}")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        assert _paper(page) == DARK_PAPER
        _choose_theme(context.new_page(), live_server, "light")
        page.goto(f"{live_server}/rules")
        assert page.evaluate("document.documentElement.dataset.theme") == "light"
        assert _paper(page) != DARK_PAPER
    finally:
        context.close()


def test_a_guest_theme_is_on_the_next_page_before_scripts(browser, live_server: str) -> None:  # type: ignore[no-untyped-def]
    context = new_context(browser, viewport={"width": 375, "height": 812}, color_scheme="light")
    try:
        page = context.new_page()
        page.goto(f"{live_server}/account/play")
        assert _paper(page) != DARK_PAPER, "a light device is followed by default"
        _choose_theme(page, live_server, "dark")
        assert page.evaluate("localStorage.getItem('stepwell.theme')") == "dark"
        _without_scripts(page)
        page.goto(f"{live_server}/")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        assert _paper(page) == DARK_PAPER
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_match_pages_in_the_dark_for_the_eye(browser, live_server: str, tour: Tour,  # type: ignore[no-untyped-def]
                                             lang: str) -> None:
    """Screenshots (test-artifacts/dark-<width>-<lang>-<page>.png) of every game's match page (and
    Scalas' flat view) and of a finished game's analysis drawn dark at 1366 and 375 px: what a
    person looks at, beside axe's checks above."""
    for width in (1366, 375):
        context = new_context(browser, viewport={"width": width, "height": 812 if width < 600 else 768},
                              color_scheme="dark")
        try:
            page = context.new_page()
            page.goto(f"{live_server}/lang/{lang}?next=/")
            for name in (*(f"match-{game}" for game in registry.ids()), "analysis"):
                page.goto(live_server + tour.pages[name])
                drawn(page, name)
                assert _paper(page) == DARK_PAPER
                screenshot(page, f"dark-{width}-{lang}-{name}")
            page.goto(live_server + tour.pages["match-scalas"])
            drawn(page, "match-scalas")
            view = page.locator("[data-view]").first
            shown = view.get_attribute("data-view")
            page.locator(".scalas-toggle[data-view-toggle]").click()  # the other view (3D or flat)
            page.wait_for_function(f"document.querySelector('[data-view]').dataset.view !== '{shown}'")
            screenshot(page, f"dark-{width}-{lang}-match-scalas-{'flat' if shown == 'iso' else 'iso'}")
        finally:
            context.close()
