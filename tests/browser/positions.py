"""Positions of a game played by the engine, as match payloads, and a board mounted from them in a
page: for checks over a whole game's positions without playing it through the server."""

from __future__ import annotations

import random
from typing import Any

from games import registry


def played_positions(game_id: str, seed: int, options: dict[str, Any] | None = None,
                     players: int = 2) -> list[dict[str, Any]]:
    """Every position of one random game, each seen by the seat to move (as the match API would
    send it to that player: its view with `clicks`, its legal moves, its turn)."""
    game = registry.get(game_id)
    state = game.new_state(players, options or {}, seed)
    rng = random.Random(seed)
    seats = [{"seat": seat, "user": {"name": f"P{seat + 1}"}} for seat in range(players)]
    positions: list[dict[str, Any]] = []
    last = None
    ply = 0
    while True:
        over = state.is_over
        seat = 0 if over else state.to_move
        legal = [] if over else state.legal_moves()
        positions.append({"id": "offline", "ply": ply, "status": "finished" if over else "active",
                          "to_move": None if over else seat, "your_seat": seat, "legal_moves": legal,
                          "seats": seats, "view": state.view(seat), "last_move": last, "result": None})
        if over:
            return positions
        move = rng.choice(legal)
        last = {"ply": ply + 1, "seat": seat, "move": move}
        state = state.play(move)
        ply += 1


# Mount the game's renderer in a fresh element of the page (live: not read-only) and keep it on
# window.offlineBoard; window.offlineSubmitted collects what it would submit.
MOUNT = """async ({game, width}) => {
    const module = await import(`/static/games/${game}/board.js`);
    const kit = await import('/static/js/kit/index.js');
    document.querySelector('main')?.replaceChildren();
    const root = document.createElement('div');
    root.id = 'offline-board';
    root.className = 'board';
    root.style.width = width + 'px';
    const actions = document.createElement('div');
    (document.querySelector('main') ?? document.body).append(root, actions);
    window.offlineSubmitted = [];
    window.offlineBoard = module.mountBoard(root, {
        submit: async (move) => { window.offlineSubmitted.push(move); }, t: kit.t, actions, readOnly: false});
}"""


def mount_offline(page, base: str, game: str, width: int = 640) -> None:  # type: ignore[no-untyped-def]
    """Open the game's rules page (it loads the board's styles) and mount a live board on it."""
    page.goto(f"{base}/rules/{game}")
    page.evaluate(MOUNT, {"game": game, "width": width})
