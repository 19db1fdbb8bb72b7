"""With every request to other hosts blocked, /docs and /redoc still render the API.

ReDoc's bundle shows a small vendor logo from its CDN in the sidebar footer and hides it when it
cannot load; that image is the one off-site request allowed to fail. Scripts, styles, fonts and
data must all come from the app."""

from __future__ import annotations

import pytest

from tests.browser.conftest import screenshot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("path, rendered", [
    ("/docs", ".swagger-ui .opblock-summary-path"),
    ("/redoc", "[data-section-id] h2"),
])
def test_docs_render_with_the_network_blocked(live_server: str, new_page,  # type: ignore[no-untyped-def]
                                              path: str, rendered: str) -> None:
    page = new_page()
    blocked: list[str] = []

    def only_local(route) -> None:  # type: ignore[no-untyped-def]
        if route.request.url.startswith(live_server):
            route.continue_()
        else:
            if route.request.resource_type != "image":
                blocked.append(route.request.url)
            route.abort()

    page.route("**/*", only_local)
    page.goto(live_server + path)
    page.wait_for_selector(rendered, timeout=20_000)
    assert page.locator(rendered).count() > 10
    screenshot(page, f"docs-offline{path.replace('/', '-')}", full_page=False)
    assert blocked == [] and page.js_errors == []
