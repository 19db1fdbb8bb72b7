"""The play settings page (/account/play): "Confirm moves" — always, on phones only (the default)
or never. An account's choice is kept and reaches the board pages it plays on (the match page of
its own match, the analysis board) as data-confirm-moves; a guest's stays in the browser, so the
server keeps nothing for one and puts nothing on its pages."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.main import create_app
from tests.databases import sqlite_database


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert found
    return found.group(1)


def _checked(html: str) -> list[str]:
    return re.findall(r'name="confirm_moves" value="(\w+)" checked', html)


@pytest.fixture
def browser(tmp_path) -> TestClient:  # type: ignore[no-untyped-def]
    url = sqlite_database(tmp_path / "play.db")
    with TestClient(create_app(Settings(database_url=url, secret_key="k"))) as client:
        yield client


def test_an_account_chooses_and_its_board_pages_follow(browser: TestClient) -> None:
    csrf = _csrf(browser.get("/signup").text)
    browser.post("/signup", data={"csrf": csrf, "username": "aiko", "password": "correct horse"})
    page = browser.get("/account/play")
    assert page.status_code == 200 and _checked(page.text) == ["phones"]
    assert 'id="stored-in-browser"' not in page.text
    assert 'data-confirm-moves="phones"' in browser.get("/analysis/stairs").text

    saved = browser.post("/account/play", data={"csrf": csrf, "confirm_moves": "never"},
                         follow_redirects=False)
    assert saved.status_code == 303 and saved.headers["location"] == "/account/play?saved=1"
    assert _checked(browser.get("/account/play?saved=1").text) == ["never"]
    assert 'data-confirm-moves="never"' in browser.get("/analysis/stairs").text

    match = browser.post("/api/v1/matches", json={"game": "stairs", "seat": 0},
                         headers={"X-CSRF-Token": csrf})
    assert match.status_code == 201, match.text
    assert 'data-confirm-moves="never"' in browser.get(f"/m/{match.json()['id']}").text


def test_a_bad_choice_or_a_forged_form_changes_nothing(browser: TestClient) -> None:
    csrf = _csrf(browser.get("/signup").text)
    browser.post("/signup", data={"csrf": csrf, "username": "ben", "password": "correct horse"})
    refused = browser.post("/account/play", data={"csrf": csrf, "confirm_moves": "sometimes"})
    assert refused.status_code == 422
    forged = browser.post("/account/play", data={"csrf": "nope", "confirm_moves": "never"})
    assert forged.status_code == 403
    assert _checked(browser.get("/account/play").text) == ["phones"]


def test_a_guest_keeps_the_choice_in_the_browser(browser: TestClient) -> None:
    page = browser.get("/account/play")
    assert page.status_code == 200 and 'id="stored-in-browser"' in page.text
    assert 'data-stored="browser"' in page.text
    csrf = _csrf(page.text)
    browser.post("/guest", data={"csrf": csrf, "name": "Cleo"})
    posted = browser.post("/account/play", data={"csrf": csrf, "confirm_moves": "never"},
                          follow_redirects=False)
    assert posted.status_code == 303
    assert "data-confirm-moves" not in browser.get("/analysis/stairs").text
    assert "/account/play" in browser.get("/").text, "every page links the settings"


def _theme_of(html: str) -> tuple[str, bool]:
    """The <html> element's data-theme, and whether the browser keeps the choice."""
    found = re.search(r'<html lang="\w+" data-theme="(\w+)"( data-theme-stored="browser")?>', html)
    assert found, html[:200]
    return found.group(1), bool(found.group(2))


def _theme_colours(html: str) -> list[tuple[str, str]]:
    """The page's theme-color metas: (colour, media query or "")."""
    return re.findall(r'<meta name="theme-color" content="(#\w+)"(?: media="([^"]*)")?>', html)


def test_an_account_theme_is_kept_and_drawn_on_every_page(browser: TestClient) -> None:
    csrf = _csrf(browser.get("/signup").text)
    browser.post("/signup", data={"csrf": csrf, "username": "dora", "password": "correct horse"})
    page = browser.get("/account/play")
    assert _theme_of(page.text) == ("system", False)
    assert re.findall(r'name="theme" value="(\w+)" checked', page.text) == ["system"]
    assert "localStorage" not in page.text.split("</head>")[0], "no script decides an account's theme"

    saved = browser.post("/account/play", data={"csrf": csrf, "confirm_moves": "never", "theme": "dark"},
                         follow_redirects=False)
    assert saved.status_code == 303
    page = browser.get("/account/play")
    assert re.findall(r'name="theme" value="(\w+)" checked', page.text) == ["dark"]
    assert _theme_colours(page.text) == [("#1b2b3d", "")], "the browser's bar is dark too"
    for path in ("/", "/analysis/stairs", "/rules"):
        assert _theme_of(browser.get(path).text) == ("dark", False)

    refused = browser.post("/account/play", data={"csrf": csrf, "confirm_moves": "always", "theme": "pink"})
    assert refused.status_code == 422
    assert _checked(browser.get("/account/play").text) == ["never"], "a refused form keeps nothing"
    assert _theme_of(browser.get("/").text) == ("dark", False)

    browser.post("/account/play", data={"csrf": csrf, "confirm_moves": "never"})
    assert _theme_of(browser.get("/").text) == ("dark", False), "a form without the theme keeps it"


def test_a_guest_theme_is_read_from_the_browser_before_the_first_paint(browser: TestClient) -> None:
    page = browser.get("/")
    assert _theme_of(page.text) == ("system", True)
    assert _theme_colours(page.text) == [("#2d4a6b", "(prefers-color-scheme: light)"),
                                         ("#1b2b3d", "(prefers-color-scheme: dark)")]
    head = page.text.split("</head>")[0]
    inline = head.index('localStorage.getItem("stepwell.theme")')
    assert inline < head.index("rel=\"stylesheet\""), "the theme is set before the stylesheet is read"
    csrf = _csrf(page.text)
    browser.post("/guest", data={"csrf": csrf, "name": "Eda"})
    posted = browser.post("/account/play", data={"csrf": csrf, "confirm_moves": "never", "theme": "dark"},
                          follow_redirects=False)
    assert posted.status_code == 303
    assert _theme_of(browser.get("/").text) == ("system", True), "the server keeps nothing for a guest"
