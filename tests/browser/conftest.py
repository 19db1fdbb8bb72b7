"""A live server (uvicorn in a subprocess, fresh SQLite file) and Debian chromium via Playwright."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.db.migrate import upgrade

CHROMIUM = os.environ.get("STEPWELL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("live") / "stepwell.db"
    url = f"sqlite:///{database}"
    upgrade(url)
    port = _free_port()
    env = {**os.environ, "STEPWELL_DATABASE_URL": url, "STEPWELL_SECRET_KEY": "browser-tests"}
    log = (tmp_path_factory.mktemp("logs") / "server.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:create_app", "--factory",
         "--host", "127.0.0.1", "--port", str(port)],
        env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/v1/games", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.2)
    else:
        process.terminate()
        pytest.fail("the live server did not start")
    yield base
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("the live server did not shut down within 10 s of SIGTERM")


@pytest.fixture(scope="session")
def browser():  # type: ignore[no-untyped-def]
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


@pytest.fixture
def new_page(browser):  # type: ignore[no-untyped-def]
    """Open pages in separate browser contexts (separate cookies = separate people)."""
    contexts = []

    def open_page(width: int = 1280, locale: str = "en-GB"):  # type: ignore[no-untyped-def]
        context = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors  # type: ignore[attr-defined]
        return page

    yield open_page
    for context in contexts:
        context.close()


def screenshot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
