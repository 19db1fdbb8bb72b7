"""A live server (uvicorn in a subprocess, fresh SQLite file) and Debian chromium via Playwright."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.databases import sqlite_database
from tests.live import server

CHROMIUM = os.environ.get("STEPWELL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="package")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = sqlite_database(tmp_path_factory.mktemp("live") / "stepwell.db")
    with server.live_server(url, tmp_path_factory.mktemp("logs"), strict_shutdown=True,
                            secret_key="browser-tests") as base:
        yield base


@pytest.fixture(scope="package")
def browser():  # type: ignore[no-untyped-def]
    """One Chromium for the browser tests, stopped when they end: Playwright's sync API keeps an
    event loop running in the main thread while it lives, which would refuse the later tests'
    ``asyncio.run``."""
    if not Path(CHROMIUM).exists():
        message = f"!!! {CHROMIUM} is missing (make test installs Debian chromium) !!!"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def new_context(browser, **options):  # type: ignore[no-untyped-def]
    """A browser context for a test: ``browser.new_context`` with the service worker blocked
    unless ``service_workers="allow"`` is asked for. Every page of the site registers the worker,
    which then installs (six more requests and a worker thread) and sits in front of every fetch:
    a cost each context paid again, in tests that do not look at it."""
    options.setdefault("service_workers", "block")
    return browser.new_context(**options)


@pytest.fixture
def new_page(browser):  # type: ignore[no-untyped-def]
    """Open pages in separate browser contexts (separate cookies = separate people)."""
    contexts = []

    def open_page(width: int = 1280, locale: str = "en-GB",  # type: ignore[no-untyped-def]
                  service_workers: str = "block"):
        context = new_context(browser, viewport={"width": width, "height": 900}, locale=locale,
                              service_workers=service_workers)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors  # type: ignore[attr-defined]
        return page

    yield open_page
    for context in contexts:
        context.close()


SCREENSHOTS = os.environ.get("STEPWELL_SCREENSHOTS", "0" if os.environ.get("CI") else "1") == "1"
"""Whether the tests leave screenshots in test-artifacts/ for a person to look at. Under CI nobody
does, and a full-page screenshot costs seconds of CPU on a loaded machine (a long page, such as
ReDoc's, more than half a minute): STEPWELL_SCREENSHOTS=1 takes them there too."""


def screenshot(target, name: str, *, full_page: bool = True, **options) -> None:  # type: ignore[no-untyped-def]
    """Save ``target`` (a page or a locator) as test-artifacts/<name>.png when screenshots are
    wanted. ``name`` may hold a folder (``push/notifications-en``)."""
    if not SCREENSHOTS:
        return
    path = ARTIFACTS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    if hasattr(target, "goto"):
        options["full_page"] = full_page
    target.screenshot(path=str(path), **options)
