"""A live server (uvicorn in a subprocess, fresh SQLite file) and Debian chromium via Playwright."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
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


@dataclass
class _Lent:
    """What the pool knows of a context it made."""

    locale: str | None
    """The locale it is kept under; ``None``: never kept (the service worker is allowed)."""
    origins: set[str] = field(default_factory=set)
    closed: bool = False


class ContextPool:
    """Browser contexts handed from one test to the next, kept per locale.

    Making a context and filling it (its HTTP cache, the first page's scripts and styles) costs
    Chromium about a second of CPU, and the suite asks for several hundred. A context handed back
    is emptied before it is kept: its pages closed, its cookies, permissions and routes cleared,
    and every origin its pages showed cleared of all it stores (local storage, IndexedDB, cache
    storage, service workers: Chromium's "clear site data"). Its HTTP cache stays: the static
    files are named by their digest. A context with the service worker allowed, one a test
    closed, or one that cannot be emptied is closed instead."""

    def __init__(self, browser) -> None:  # type: ignore[no-untyped-def]
        self.browser = browser
        self.idle: dict[str, list] = {}  # type: ignore[type-arg]
        self.lent: dict[object, _Lent] = {}

    def take(self, *, width: int, locale: str, service_workers: str):  # type: ignore[no-untyped-def]
        """A clean context for ``locale``; a new one opens its pages ``width`` wide (a kept one
        keeps the width it was made with: the caller sets each page's)."""
        kept = self.idle.get(locale) if service_workers == "block" else None
        if kept:
            return kept.pop()
        context = new_context(self.browser, viewport={"width": width, "height": 900}, locale=locale,
                              service_workers=service_workers)
        lent = self.lent[context] = _Lent(locale if service_workers == "block" else None)
        context.on("close", lambda _: setattr(lent, "closed", True))
        context.on("page", lambda page: page.on("framenavigated", lambda frame: self._shown(lent, frame.url)))
        return context

    @staticmethod
    def _shown(lent: _Lent, url: str) -> None:
        scheme, _, rest = url.partition("://")
        if scheme in ("http", "https"):
            lent.origins.add(f"{scheme}://{rest.split('/', 1)[0]}")

    def give_back(self, context) -> None:  # type: ignore[no-untyped-def]
        """Empty ``context`` and keep it, or close it when it cannot be kept."""
        lent = self.lent[context]
        if lent.closed:
            del self.lent[context]
            return
        pages = context.pages
        if lent.locale is None or not pages:
            del self.lent[context]
            context.close()
            return
        try:
            session = context.new_cdp_session(pages[0])
            for origin in lent.origins:
                session.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
            session.detach()
            for page in pages:
                page.close()
            context.clear_cookies()
            context.clear_permissions()
            context.unroute_all(behavior="ignoreErrors")
        except Exception:  # a context that cannot be emptied is not handed on
            del self.lent[context]
            context.close()
            return
        lent.origins.clear()
        self.idle.setdefault(lent.locale, []).append(context)

    def close(self) -> None:
        for contexts in self.idle.values():
            for context in contexts:
                context.close()
        self.idle.clear()
        self.lent.clear()


@pytest.fixture(scope="package")
def context_pool(browser):  # type: ignore[no-untyped-def]
    pool = ContextPool(browser)
    yield pool
    pool.close()


@pytest.fixture
def new_page(context_pool):  # type: ignore[no-untyped-def]
    """Open pages in separate browser contexts (separate cookies = separate people): clean ones
    from the pool, handed back when the test ends."""
    contexts = []

    def open_page(width: int = 1280, locale: str = "en-GB",  # type: ignore[no-untyped-def]
                  service_workers: str = "block"):
        context = context_pool.take(width=width, locale=locale, service_workers=service_workers)
        contexts.append(context)
        page = context.new_page()
        page.set_viewport_size({"width": width, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors  # type: ignore[attr-defined]
        return page

    yield open_page
    for context in contexts:
        context_pool.give_back(context)


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
