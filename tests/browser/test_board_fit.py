"""Boards that fit a phone and hide nothing: Scalas opens in the flat view on a phone,
its edge labels are inside the picture, and over a whole played game no legal target is covered by
a nearer tower in the 3D view; Town of Stairs fits 375 px without sideways scrolling, with the offer
cards on screen next to the town; reduced motion plays Town's walks at once."""

from __future__ import annotations

import itertools

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import new_context, screenshot
from tests.browser.helpers import api_client, create_match
from tests.browser.positions import mount_offline, played_positions

pytestmark = pytest.mark.browser

# Every legal square's top-face centre, then what shows there with the hit areas out of the way,
# from the top down: the square's own shapes (its floor tile, its tower's cubes, legal face or
# numeral) mean it shows; another tower's filled shape covers it unless it is see-through (opacity ×
# fill alpha under 0.5). Outlines (no fill) cover no area: a centre may lie on a nearer tower's edge.
COVERED = """(solid) => {
    const svg = document.querySelector('#offline-board .scalas-svg');
    const centres = [...svg.querySelectorAll('.scalas-hits [data-square].clickable')].map((group) => {
        const hit = group.querySelector('.scalas-hit');
        const [cx, cy] = hit.dataset.centre.split(',').map(Number);
        const point = new DOMPoint(cx, cy).matrixTransform(hit.getScreenCTM());
        return [group.dataset.square, point.x, point.y];
    });
    const style = document.createElement('style');
    style.textContent = '.scalas-hits, .scalas-bodies { display: none !important; }'
        + ' #offline-board .scalas-svg * { pointer-events: visiblePainted !important;'
        + ' transition: none !important; }'
        + (solid ? ' .see-through { opacity: 1 !important; }' : '');
    document.head.append(style);
    const opacity = (node) => {
        const fill = getComputedStyle(node).fill.match(/rgba\\([^)]*,\\s*([\\d.]+)\\)/);
        let value = (fill ? Number(fill[1]) : 1) * Number(getComputedStyle(node).fillOpacity);
        for (let at = node; at && at !== svg; at = at.parentElement) {
            value *= Number(getComputedStyle(at).opacity);
        }
        return value;
    };
    const owner = (node) => node.closest('[data-tower]')?.dataset.tower
        ?? node.closest('[data-tile]')?.dataset.tile;
    const covered = [];
    for (const [name, x, y] of centres) {
        if (y < 0 || y > innerHeight) throw new Error(`square ${name} is outside the viewport`);
        const top = document.elementsFromPoint(x, y).find((node) => svg.contains(node)
            && getComputedStyle(node).fill !== 'none' && (owner(node) === name || opacity(node) >= 0.5));
        const own = top !== undefined && owner(top) === name;
        if (!own) covered.push(name);
    }
    style.remove();
    return {covered, legal: centres.length};
}"""


@pytest.mark.parametrize("size", [5, 7])
def test_no_legal_target_is_covered_in_scalas_3d_view(live_server: str, new_page, size: int) -> None:  # type: ignore[no-untyped-def]
    """Over every position of a played game (the player to move's view, in the 3D view), each legal
    square's centre shows that square: the cubes in front of it are see-through."""
    page = new_page()
    page.set_viewport_size({"width": 1280, "height": 1500})
    mount_offline(page, live_server, "scalas", width=620)
    page.evaluate("localStorage.setItem('stepwell.scalas.view', 'iso')")
    mount_offline(page, live_server, "scalas", width=620)
    game = played_positions("scalas", seed=11, options={"size": size})
    placements = covered = placed_when_solid = 0
    for position, after in itertools.pairwise(game):
        page.evaluate("(p) => window.offlineBoard.update(p)", position)
        assert page.locator("#offline-board .scalas").get_attribute("data-view") == "iso"
        seen = page.evaluate(COVERED, False)
        assert seen["legal"] == len([m for m in position["legal_moves"] if m != "pass"])
        placements += seen["legal"]
        covered += len(seen["covered"])
        assert seen["covered"] == [], f"ply {position['ply']}: {seen['covered']} hidden behind towers"
        # the measure: was the square actually played covered, with every cube drawn solid?
        placed_when_solid += after["last_move"]["move"] in page.evaluate(COVERED, True)["covered"]
    # The measure can fail: with every cube drawn solid, towers do cover squares played in this game.
    assert placed_when_solid > 0
    print(f"scalas {size}x{size}: {len(game) - 1} placements, {placements} legal squares seen,"
          f" covered {covered}; all cubes solid: {placed_when_solid} of the {len(game) - 1} squares played"
          " were covered")


LABELS_INSIDE = """() => {
    const svg = document.querySelector('#board .scalas-svg').getBoundingClientRect();
    return [...document.querySelectorAll('#board .scalas-coord')].filter((label) => {
        const box = label.getBoundingClientRect();
        return box.left < svg.left - 0.5 || box.right > svg.right + 0.5 || box.top < svg.top - 0.5
            || box.bottom > svg.bottom + 0.5;
    }).map((label) => label.textContent);
}"""


def test_scalas_opens_flat_on_a_phone_with_every_edge_label_inside(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    phone = new_page(width=375)
    create_match(phone, live_server, "scalas", "Aiko", options={"size": "7"})
    phone.wait_for_selector('.scalas[data-view="flat"][data-size="7"]')
    assert phone.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    assert phone.evaluate(LABELS_INSIDE) == []
    expect(phone.locator("#board .scalas-coord")).to_have_count(14)
    screenshot(phone, "scalas-phone-flat-375")
    phone.locator("[data-view-toggle]").click()  # the player's own choice is kept
    phone.wait_for_selector('.scalas[data-view="iso"]')
    assert phone.evaluate(LABELS_INSIDE) == []
    phone.reload()
    phone.wait_for_selector('.scalas[data-view="iso"]')
    desktop = new_page(width=1366)
    create_match(desktop, live_server, "scalas", "Ben")
    desktop.wait_for_selector('.scalas[data-view="iso"]')
    assert desktop.evaluate(LABELS_INSIDE) == []
    assert phone.js_errors == [] and desktop.js_errors == []


def in_view(page, selector: str) -> bool:  # type: ignore[no-untyped-def]
    return page.evaluate("""(selector) => {
        const box = document.querySelector(selector).getBoundingClientRect();
        return box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
    }""", selector)


def test_town_fits_375_px_with_the_offer_beside_the_town(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(width=375)
    page.set_viewport_size({"width": 375, "height": 812})
    match_id = create_match(page, live_server, "town", "Aiko")
    bots = api_client(live_server, page).post(f"/api/v1/matches/{match_id}/bots", json={"level": "easy"})
    assert bots.status_code == 200
    page.wait_for_selector('#match[data-status="active"] [data-offer]')
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    for column in "ag":  # both edge columns are on screen
        box = page.locator(f'[data-slot="{column}1"]').bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375, (column, box)
    # Whichever row of the town is on screen, the offer cards are on screen with it.
    for slot in ("a4", "g1"):
        page.locator(f'[data-slot="{slot}"]').scroll_into_view_if_needed()
        assert in_view(page, f'[data-slot="{slot}"]')
        assert in_view(page, "[data-offer]"), f"the offer is off screen while {slot} is shown"
    page.locator("[data-offer]").first.click()
    target = page.locator("[data-slot].target").first
    assert in_view(page, "[data-slot].target") and in_view(page, "[data-offer].selected")
    screenshot(page, "town-375-offer")
    target.click()
    page.wait_for_selector('#match[data-ply="2"]')
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    assert page.js_errors == []


def walk_positions() -> tuple[dict, dict]:  # type: ignore[type-arg]
    """Two positions of a Town game in the walk phase, the second a long way further on one walk."""
    positions = played_positions("town", seed=5)
    walked = lambda p: sum(len(steps) for steps in p["view"]["walks"])  # noqa: E731
    for before in positions:
        if before["view"]["phase"] != "walk":
            continue
        for after in positions[before["ply"] + 1:]:
            if walked(after) - walked(before) >= 4 and after["view"]["phase"] == "walk":
                return before, after
    raise AssertionError("no long walk in this game")


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_reduced_motion_plays_town_walks_at_once(live_server: str, browser, motion: str) -> None:  # type: ignore[no-untyped-def]
    context = new_context(browser, viewport={"width": 1280, "height": 900}, reduced_motion=motion)
    try:
        page = context.new_page()
        mount_offline(page, live_server, "town", width=900)
        before, after = walk_positions()
        page.evaluate("(p) => window.offlineBoard.update(p)", before)
        page.evaluate("(p) => window.offlineBoard.update(p)", after)
        animating = page.locator("#offline-board").get_attribute("data-animating")
        if motion == "reduce":
            assert animating == "no", "with reduced motion the walk is shown at once"
            steps = {seat: len(walk) - 1 for seat, walk in enumerate(after["view"]["walks"]) if walk}
            for seat, step in steps.items():
                expect(page.locator(f'[data-token-seat="{seat}"]')).to_have_attribute("data-step", str(step))
        else:
            assert animating == "yes", "without the preference the walk is animated step by step"
            page.wait_for_selector('#offline-board[data-animating="no"]', timeout=20000)
    finally:
        context.close()
