"""Signed analysis-board states: the board answers every position with a token the
server signed, and takes that token back instead of the move list, so a long line is not
replayed on every request — the token carries the position itself (the engine's ``to_json``).

Format: ``<body>.<mac>``, both base64url without padding; ``body`` is the zlib-compressed JSON
``{v, g: game, n: players, o: options, s: seed | null, r: rules version, mv: moves, st: state,
t: issued at (unix seconds)}`` and ``mac`` the first 16 bytes of HMAC-SHA256 over ``body`` with
a key derived from the app's secret key (never the secret itself, so a token cannot be used to
forge a session cookie). The MAC is checked before anything is decompressed or parsed.

**Signed is not secret**: anyone holding a token can read it. So a token is only ever made for a
position whose every detail the holder may know, which the board's starts guarantee
(app/analysis/board.py): a start the caller described (they chose its seed), a finished match
(its full record is public), or a match in progress of a game with neither hidden information
nor chance — and then without the match's seed or secret options, which stay on the server.
``sign`` refuses anything else, so a later caller cannot leak a live Town deal by mistake.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import zlib
from dataclasses import dataclass
from datetime import datetime

import orjson

from app.analysis.board import Line, Start
from app.kernel.errors import Invalid
from app.kernel.timesource import now
from app.match import public_options
from games import State, registry

VERSION = 1
MAC_BYTES = 16
MAX_TOKEN = 24_000
"""Characters: a 600-move Town line with its state compresses to a few kilobytes."""
MAX_BODY = 1_000_000
"""Bytes a signed body may inflate to (the server wrote it, but a bound costs nothing)."""
PURPOSE = b"stepwell analysis-board state v1"


def key_from(secret_key: str) -> bytes:
    """This purpose's own key, derived from the app's secret."""
    return hmac.new(secret_key.encode(), PURPOSE, hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(key: bytes, body: str) -> str:
    return _b64(hmac.new(key, body.encode(), hashlib.sha256).digest()[:MAC_BYTES])


EPOCH = datetime(1970, 1, 1)


def _epoch() -> int:
    """Unix seconds from the app's clock (tests move it)."""
    return int((now() - EPOCH).total_seconds())


def sign(key: bytes, start: Start, state: State, line: Line) -> str:
    """The token for ``state`` (reached from ``start`` by ``line``)."""
    game = registry.get(start.game)
    if not start.disclosed and (game.hidden_information or game.has_chance):
        raise AssertionError("a position with hidden information is never signed for a client")
    payload = {
        "v": VERSION, "g": start.game, "n": start.players,
        "o": start.options if start.disclosed else public_options(game, start.options),
        "s": str(start.seed) if start.disclosed else None,  # a JSON number cannot hold 128 bits
        "r": start.rules_version, "mv": line.moves, "ls": line.last_seat, "st": state.to_json(),
        "t": _epoch(),
    }
    body = _b64(zlib.compress(orjson.dumps(payload), 6))
    return f"{body}.{_mac(key, body)}"


@dataclass(frozen=True)
class Opened:
    start: Start
    state: State
    line: Line


def _refused(message: str, code: str = "invalid_state") -> Invalid:
    return Invalid(message, code=code)


def open_token(key: bytes, token: str, max_age: int, game: str | None = None) -> Opened:
    """The position a token carries; 422 ``invalid_state`` (not ours, altered, unreadable),
    ``state_expired`` (older than ``max_age`` seconds) or ``state_wrong_game`` (a token of
    another game than the ``game`` the request names)."""
    body, dot, mac = token.partition(".")
    if not dot or len(token) > MAX_TOKEN or not hmac.compare_digest(
            mac.encode(), _mac(key, body).encode()):  # bytes: a str must be ASCII to compare
        raise _refused("This board state was not signed by this server (or was altered).")
    try:
        inflater = zlib.decompressobj()
        raw = inflater.decompress(_unb64(body), MAX_BODY)
        if inflater.unconsumed_tail:
            raise ValueError("too large")
        payload = orjson.loads(raw)
        if payload["v"] != VERSION:
            raise ValueError("version")
        issued, game_id = int(payload["t"]), str(payload["g"])
    except (ValueError, KeyError, TypeError, binascii.Error, zlib.error, orjson.JSONDecodeError):
        raise _refused("This board state cannot be read.") from None
    if _epoch() - issued > max_age:
        raise _refused("This board state has expired: open the position again from its link.",
                       code="state_expired")
    if game is not None and game != game_id:
        raise _refused(f"This board state is a {game_id} position, not {game}.",
                       code="state_wrong_game")
    try:
        engine = registry.get(game_id)
        state = engine.from_json(payload["st"])
        start = Start(game_id, int(payload["n"]), dict(payload["o"] or {}),
                      int(payload["s"] or 0), payload["r"], disclosed=payload["s"] is not None)
        line = Line([str(move) for move in payload["mv"]], payload["ls"])
    except (registry.UnknownGame, ValueError, KeyError, TypeError):
        raise _refused("This board state cannot be read.") from None
    return Opened(start, state, line)
