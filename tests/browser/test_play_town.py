"""Three people create and join a 3-player Town of Stairs match in the browser and build by clicking
an offer card and then a highlighted slot; a fourth watches. The rest of the town is built through
the API and every walk choice is clicked in the walker's browser; at the end everyone sees the final
score table. Throughout, the spectator's page, API view and websocket frames are checked against the
secrets in the server's stored state: no deck order and no start card before its owner's walk."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.helpers import (
    api_client,
    check_banners,
    create_match,
    finish_randomly,
    join_match,
    show_final_position,
    wait_ply,
)

pytestmark = pytest.mark.browser

NAMES = ["Aiko", "Ben", "Chie"]
CARD_ID = re.compile(r"\b[PE]\d{1,2}\b")


@pytest.fixture
def stored_state(live_server: str, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """Read a match's full engine snapshot (secrets included) from the live server's SQLite file."""
    databases = sorted({path.resolve() for path in tmp_path_factory.getbasetemp().glob("live*/stepwell.db")})
    assert databases, "the live server's database file"

    def read(match_id: str) -> dict[str, Any]:
        for database in databases:
            with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
                row = connection.execute("SELECT snapshot FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is not None:
                return json.loads(row[0]) if isinstance(row[0], str) else row[0]
        raise AssertionError(f"match {match_id} is in none of {databases}")

    return read


def leaks(view: dict[str, Any], secrets: dict[str, Any], seat: int | None) -> list[str]:
    """What ``view`` (as seen by ``seat``) gives away: undisclosed cards, deck orders, start cards."""
    found = []
    public = {card for row in view["grid"] for card in row if card} | {c for c in view["offer"] if c}
    shown = {key: value for key, value in view.items() if key not in ("cards", "events")}  # catalogue
    text = json.dumps(shown)
    for key in ("path_deck", "event_deck", "deck", "decks"):
        if f'"{key}"' in text:
            found.append(f"a {key!r} key")
    hidden = sorted(set(CARD_ID.findall(text)) - public)
    if hidden:
        found.append(f"cards not yet drawn: {hidden}")
    for deck in (secrets["path_deck"], secrets["event_deck"]):
        rest = [card for card in deck if card not in public]
        if len(rest) >= 2 and json.dumps(rest[:2])[1:-1] in text:
            found.append(f"the deck order {rest[:2]}")
    for other, card in enumerate(view["start_cards"]):
        begun = bool(view["walks"][other])
        if card is not None and other != seat and not begun:
            found.append(f"seat {other}'s start card {card} before its walk")
        if begun and view["walks"][other][0]["col"] != secrets["start_cards"][other] - 1:
            found.append(f"seat {other}'s walk does not start at its start card")
    return found


def test_three_players_and_a_spectator_play_town(live_server: str, new_page, stored_state) -> None:  # type: ignore[no-untyped-def]
    red, blue, green = new_page(), new_page(), new_page(width=375)
    spectator = new_page()
    frames: list[str] = []

    def record(payload: str | bytes) -> None:
        frames.append(payload if isinstance(payload, str) else payload.decode())

    spectator.on("websocket", lambda ws: ws.on("framereceived", record))

    match_id = create_match(red, live_server, "town", NAMES[0], seat="0", players=3)
    expect(red.locator("#board [data-player-seat]")).to_have_count(3)
    invite = red.locator("#invite-link").input_value()
    join_match(blue, invite, NAMES[1])
    expect(blue.locator("#match")).to_have_attribute("data-status", "waiting")  # one seat still open
    join_match(green, invite, NAMES[2])
    players = [red, blue, green]
    for page in players:
        page.wait_for_selector('#match[data-status="active"]')
    clients = {seat: api_client(live_server, page) for seat, page in enumerate(players)}
    for seat, client in clients.items():
        assert client.get(f"/api/v1/matches/{match_id}").json()["your_seat"] == seat
    secrets = stored_state(match_id)
    assert secrets["phase"] == "build" and len(secrets["start_cards"]) == 3
    assert len(secrets["path_deck"]) == 13 and len(secrets["event_deck"]) == 13
    spectator.goto(red.locator("#watch-link").input_value())
    spectator.wait_for_selector('#match[data-live="yes"]')
    expect(spectator.locator("#seats li")).to_have_count(3)
    expect(spectator.locator("#board [data-player-seat]")).to_have_count(3)

    def check_spectator(label: str) -> None:
        initial = json.loads(spectator.locator("#initial-match").text_content() or "{}")
        fetched = spectator.evaluate("async id => (await fetch(`/api/v1/matches/${id}`)).json()", match_id)
        assert fetched["your_seat"] is None and fetched["legal_moves"] == []
        for where, match in (("page HTML", initial), ("fetched view", fetched)):
            assert leaks(match["view"], secrets, None) == [], f"{label}: {where}"
        drawn = set(spectator.locator("#board [data-card]").evaluate_all("ns => ns.map(n => n.dataset.card)"))
        view = fetched["view"]
        assert drawn <= {c for row in view["grid"] for c in row if c} | set(view["offer"]), label
        flags = spectator.locator("#board [data-start-seat]").evaluate_all(
            "ns => ns.map(n => Number(n.dataset.startSeat))")
        assert sorted(flags) == [s for s in range(3) if view["walks"][s]], label
        starts = spectator.locator("#board [data-player-seat] [data-start]").evaluate_all(
            "ns => ns.map(n => n.dataset.start)")
        assert starts == [str(secrets["start_cards"][s]) if view["walks"][s] else "" for s in range(3)], label

    check_spectator("before any move")

    # Three placements by clicking, one per seat: an offer card, then one of its highlighted slots.
    for ply in range(3):
        mover = players[ply]
        mover.wait_for_selector(f'#match[data-ply="{ply}"]')
        mine = clients[ply].get(f"/api/v1/matches/{match_id}").json()
        offer = mover.locator("#board button[data-offer].movable").first
        card = offer.get_attribute("data-offer")
        for other in players:
            if other is not mover:
                expect(other.locator("#board button[data-offer].movable")).to_have_count(0)
        offer.click()
        targets = mover.locator("#board [data-slot].target")
        expect(targets).to_have_count(len(mine["view"]["legal_slots"][card]))
        slot = targets.first.get_attribute("data-slot")
        assert slot in mine["view"]["legal_slots"][card]
        targets.first.click()
        wait_ply([*players, spectator], ply + 1)
        assert spectator.locator("#move-list li .move").nth(ply).inner_text() == f"{card}@{slot}"
        expect(spectator.locator(f'#board [data-slot="{slot}"] [data-card="{card}"]')).to_have_count(1)
        expect(spectator.locator(f'#board [data-slot="{slot}"]')).to_have_class(re.compile(r"\blast\b"))
        check_spectator(f"after placement {ply + 1}")
    screenshot(green, "town-build-375")

    # The rest of the town through the API, then every walk choice clicked by its walker.
    state = finish_randomly(clients, match_id, seed=4, stop=lambda s: s["view"]["phase"] != "build")
    assert state["view"]["phase"] == "walk" and state["to_move"] == 0
    for page in (*players, spectator):
        page.wait_for_selector(f'#match[data-ply="{state["ply"]}"]')
        page.wait_for_selector('#board[data-phase="walk"]')
    check_spectator("first walk begins")
    peek = clients[1].get(f"/api/v1/matches/{match_id}").json()["view"]["start_cards"]
    assert peek == [*secrets["start_cards"][:2], None], "a player sees only their own start card"
    rng = random.Random(9)
    choices = 0
    walkers_seen = set()
    while state["status"] == "active":
        walker = state["to_move"]
        page = players[walker]
        page.wait_for_selector(f'#match[data-ply="{state["ply"]}"]')
        if walker not in walkers_seen:
            walkers_seen.add(walker)
            spectator.wait_for_selector(f'#match[data-ply="{state["ply"]}"]')
            spectator.wait_for_selector('#board[data-animating="no"]', timeout=30_000)
            check_spectator(f"walk of seat {walker} begins")
        mine = clients[walker].get(f"/api/v1/matches/{match_id}").json()
        buttons = page.locator("#board-actions button[data-move]")
        expect(buttons).to_have_count(len(mine["legal_moves"]))
        for other in (*players, spectator):
            if other is not page:
                assert other.locator("#board-actions button[data-move]").count() == 0
        move = rng.choice(mine["legal_moves"])
        if choices == 0:
            assert sorted(mine["legal_moves"]) == ["UL", "UR"]
            screenshot(page, "town-walk-choice")
        page.locator(f'#board-actions button[data-move="{move}"]').click()
        wait_ply([page], state["ply"] + 1)
        state = clients[walker].get(f"/api/v1/matches/{match_id}").json()
        assert state["last_move"]["move"] == move and state["last_move"]["seat"] == walker
        choices += 1
    assert walkers_seen == {0, 1, 2} and choices >= 3

    result = state["result"]
    scores = state["view"]["scores"]
    check_banners(dict(enumerate(players)), spectator, NAMES, result)
    for page in (*players, spectator):
        show_final_position(page)  # all four pages play the last walk out at the same time
    for page in (*players, spectator):
        page.wait_for_selector('#board[data-phase="over"][data-animating="no"]', timeout=30_000)
        table = page.locator("#town-scores")
        expect(table).to_be_visible()
        rows = table.locator("[data-score-seat]")
        expect(rows).to_have_count(3)
        order = rows.evaluate_all("ns => ns.map(n => Number(n.dataset.scoreSeat))")
        assert [scores[s] for s in order] == sorted(scores, reverse=True)
        for seat in range(3):
            row = table.locator(f'[data-score-seat="{seat}"]')
            expect(row.locator(".town-total")).to_have_text(str(scores[seat]))
            expect(row).to_contain_text(NAMES[seat])
            assert ("winner" in (row.get_attribute("class") or "")) == (seat in result["winners"])
            diary = page.locator(f'[data-diary-seat="{seat}"] [data-diary]').evaluate_all(
                "ns => ns.map(n => n.dataset.diary)")
            assert diary == state["view"]["diaries"][seat]
    screenshot(spectator, "town-final-spectator")
    screenshot(green, "town-final-375")

    # Every state frame the spectator's websocket carried kept the secrets.
    states = [json.loads(frame) for frame in frames]
    states = [message for message in states if message.get("type") == "state"]
    assert len(states) >= 3 + choices, "the spectator received every move live"
    for message in states:
        assert message["your_seat"] is None
        assert leaks(message["view"], secrets, None) == [], f"websocket frame at ply {message['ply']}"
    for page in (*players, spectator):
        assert page.js_errors == []


def test_a_four_player_town_shows_four_seats(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    host = new_page()
    match_id = create_match(host, live_server, "town", "Aiko", seat="2", players=4)
    match = api_client(live_server, host).get(f"/api/v1/matches/{match_id}").json()
    assert match["your_seat"] == 2 and len(match["seats"]) == 4
    expect(host.locator("#seats li")).to_have_count(4)
    expect(host.locator("#board [data-player-seat]")).to_have_count(4)
    expect(host.locator('#board [data-player-seat="2"]')).to_contain_text("Aiko")
    expect(host.locator('#board [data-player-seat="2"] [data-start]')).not_to_have_attribute("data-start", "")
    for seat in (0, 1, 3):
        start = host.locator(f'#board [data-player-seat="{seat}"] [data-start]')
        expect(start).to_have_attribute("data-start", "")
    guest = new_page()
    join_match(guest, host.locator("#invite-link").input_value(), "Ben")
    expect(host.locator("#seats li .name")).to_have_count(2)
    screenshot(host, "town-four-seats")
    assert host.js_errors == [] and guest.js_errors == []
