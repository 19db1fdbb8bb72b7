"""The installable app and the notifications page in Chromium: installability as Chromium judges
it (CDP ``Page.getInstallabilityErrors``: Lighthouse 12 has no PWA audit any more), the service
worker's offline page and push handler, and the page's opt-in and device list (screenshots at 375
and 1366 px, English and Japanese, into test-artifacts/push/)."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from app.kernel.settings import Settings
from app.main import create_app
from tests.browser.conftest import screenshot
from tests.browser.helpers import api_client
from tests.databases import sqlite_database
from tests.live.server import free_port
from tests.notices.push_service import Device
from tests.notices.test_push import VAPID_PEM

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app served by uvicorn on a thread of this process: the app is imported already, so it
    starts at once however busy the machine (a fresh process spends its first seconds importing)."""
    url = sqlite_database(tmp_path_factory.mktemp("pwa") / "stepwell.db")
    settings = Settings(database_url=url, secret_key="browser-tests", vapid_private_key=VAPID_PEM,
                        bots_enabled=False, analysis_workers=0)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                           log_level="warning", ws_per_message_deflate=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(15)


def sign_up(page, base: str) -> str:  # type: ignore[no-untyped-def]
    username = f"p{uuid.uuid4().hex[:10]}"
    page.goto(base + "/signup")
    page.locator('input[name="username"]').fill(username)
    page.locator('input[name="password"]').fill("a long password 1")
    page.locator("form.auth-form button[type=submit]").click()
    page.wait_for_load_state()
    return username


def controlled(page) -> None:  # type: ignore[no-untyped-def]
    """Wait until the service worker is active and controls the page."""
    page.evaluate("navigator.serviceWorker.ready")
    if not page.evaluate("Boolean(navigator.serviceWorker.controller)"):
        page.reload()
    page.wait_for_function("Boolean(navigator.serviceWorker.controller)")


def test_chromium_finds_the_app_installable(live_server: str, browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """In a profile of its own (an incognito context is never installable)."""
    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(live_server + "/")
        controlled(page)
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].endswith("/manifest.webmanifest") and not manifest["errors"]
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        assert errors == []
    finally:
        context.close()


def test_offline_pages_show_the_offline_page(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(service_workers="allow")
    page.goto(live_server + "/rules")
    controlled(page)
    page.context.set_offline(True)
    page.goto(live_server + "/leaderboard")
    assert page.locator("h1").inner_text() == "You are offline"
    assert page.evaluate("document.styleSheets[0].cssRules.length") > 0, \
        "the stylesheet came from the cache"
    page.context.set_offline(False)


def test_a_push_becomes_a_notification_that_opens_its_match(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(service_workers="allow")
    page.context.grant_permissions(["notifications"], origin=live_server)
    page.goto(live_server + "/")
    controlled(page)
    cdp = page.context.new_cdp_session(page)
    registrations: list[dict[str, str]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated",
           lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_timeout(0)
    assert registrations, "the registration is listed"
    payload = ('{"type": "yourTurn", "match": "abc12345", "url": "/m/abc12345", '
               '"title": "Your turn", "body": "Stairs against Alice"}')
    cdp.send("ServiceWorker.deliverPushMessage", {
        "origin": live_server + "/", "registrationId": registrations[-1]["registrationId"],
        "data": payload})
    listed = "navigator.serviceWorker.ready.then(r => r.getNotifications()).then(n => n.length)"
    for _ in range(300):  # the worker shows it on its own time: ask until it is listed (≤ 30 s)
        if page.evaluate(listed):
            break
        page.wait_for_timeout(100)
    shown = page.evaluate("navigator.serviceWorker.ready.then(r => r.getNotifications()).then(n => "
                          "n.map(x => ({title: x.title, body: x.body, tag: x.tag, url: x.data.url})))")
    assert shown == [{"title": "Your turn", "body": "Stairs against Alice", "tag": "abc12345",
                      "url": "/m/abc12345"}]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_notifications_page_opts_in_only_after_a_click_and_lists_devices(
        live_server: str, new_page, language: str) -> None:  # type: ignore[no-untyped-def]
    page = new_page(locale="ja-JP" if language == "ja" else "en-GB", service_workers="allow")
    page.goto(f"{live_server}/lang/{language}?next=/")
    sign_up(page, live_server)
    page.goto(live_server + "/account/notifications")
    page.wait_for_selector("#push-enable:not([hidden])")
    assert page.evaluate("Notification.permission") == "default", "no prompt before a click"
    with api_client(live_server, page) as client:  # two devices opted in elsewhere
        for name, agent in (("phone", "Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile"),
                            ("laptop", "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0")):
            added = client.post("/api/v1/push/subscriptions", headers={"User-Agent": agent},
                                json=Device(name, f"https://push.example.net/{uuid.uuid4().hex}").subscription)
            assert added.status_code == 201, added.text
    page.reload()
    page.wait_for_selector("#push-enable:not([hidden])")
    assert page.locator("#push-devices li").count() == 2
    for width in (375, 1366):
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"push/notifications-{language}-{width}")
    page.locator("#push-devices li").first.get_by_role("button").click()
    page.wait_for_load_state()
    assert page.locator("#push-devices li").count() == 1
    assert page.js_errors == []
