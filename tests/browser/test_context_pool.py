"""The browser contexts the tests share are empty when a test receives one."""

from __future__ import annotations

STORE_EVERYTHING = """async () => {
    localStorage.setItem('seen', '1');
    sessionStorage.setItem('seen', '1');
    await new Promise((done, failed) => {
        const opened = indexedDB.open('notes', 1);
        opened.onupgradeneeded = () => opened.result.createObjectStore('notes');
        opened.onsuccess = () => { opened.result.close(); done(); };
        opened.onerror = () => failed(opened.error);
    });
    await (await caches.open('pages')).put('/kept', new Response('kept'));
}"""

WHAT_IS_STORED = """async () => ({
    local: localStorage.length,
    session: sessionStorage.length,
    databases: (await indexedDB.databases()).map((database) => database.name),
    caches: await caches.keys(),
    clipboard: (await navigator.permissions.query({name: 'clipboard-read'})).state,
})"""


def test_a_context_handed_back_is_emptied_before_the_next_test_gets_it(
        live_server: str, context_pool) -> None:  # type: ignore[no-untyped-def]
    context = context_pool.take(width=800, locale="en-GB", service_workers="block")
    page = context.new_page()
    page.goto(live_server + "/rules")
    page.evaluate(STORE_EVERYTHING)
    context.add_cookies([{"name": "left", "value": "behind", "url": live_server}])
    context.grant_permissions(["clipboard-read"], origin=live_server)
    context.route("**/rules", lambda route: route.fulfill(body="routed"))
    stored = page.evaluate(WHAT_IS_STORED)
    assert (stored["local"], stored["session"], stored["databases"], stored["caches"],
            stored["clipboard"]) == (1, 1, ["notes"], ["pages"], "granted"), "the test stored it all"

    context_pool.give_back(context)
    again = context_pool.take(width=375, locale="en-GB", service_workers="block")
    assert again is context, "the same context is handed on"
    assert again.pages == [] and again.cookies() == []
    page = again.new_page()
    page.goto(live_server + "/rules")
    assert page.locator("h1").count() == 1, "the route is gone"
    assert page.evaluate(WHAT_IS_STORED) == {"local": 0, "session": 0, "databases": [], "caches": [],
                                             "clipboard": "prompt"}
    context_pool.give_back(again)


def test_contexts_are_kept_per_locale_and_never_with_the_service_worker_allowed(
        live_server: str, context_pool) -> None:  # type: ignore[no-untyped-def]
    english = context_pool.take(width=800, locale="en-GB", service_workers="block")
    english.new_page()
    context_pool.give_back(english)
    japanese = context_pool.take(width=800, locale="ja-JP", service_workers="block")
    assert japanese is not english
    page = japanese.new_page()
    assert page.evaluate("navigator.language") == "ja-JP"
    context_pool.give_back(japanese)

    allowed = context_pool.take(width=800, locale="en-GB", service_workers="allow")
    assert allowed is not english
    allowed.new_page()
    context_pool.give_back(allowed)
    assert allowed not in context_pool.lent, "closed, not kept"
    assert context_pool.take(width=800, locale="en-GB", service_workers="block") is english
    context_pool.give_back(english)
