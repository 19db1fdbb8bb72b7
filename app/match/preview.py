"""Consequence previews: what a candidate move would do, for the seat to move, before it is sent.

The engine computes the preview (``State.preview``: the view the seat would get after the move
and typed change items, from what the seat may see); here it is authorised like a move, cached
and worded in the caller's language. A preview is a read: nothing is written and the match does
not change.

Cached per (match, version, move): the version changes with every change to the match (a move, a
takeback, an offer), so a cached preview is never one of another position; the entry also keeps
the seat it was computed for, so only that seat's player is answered from it, and its answer
encoded once per language.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TypedDict

import orjson
from sqlalchemy.orm import Session

from app.kernel import i18n
from app.kernel.errors import Conflict, Forbidden
from app.kernel.identity import Identity
from app.kernel.json_types import JSONObject
from app.match import store, why
from games import Game, IllegalMove, State, registry
from games.base import move_key
from games.preview import Change, Preview, sentence

CAPACITY = 2048
"""Previews kept: a player taps a few candidate moves per ply, on hundreds of live boards. An
entry holds JSON only (the view, and the answer per language asked): a few kilobytes, Town's
largest (about 8 KB a view)."""

CacheKey = tuple[str, int, str]


class ChangeItem(TypedDict):
    """One consequence of a move, worded (``ChangeOut`` documents it)."""

    kind: str
    message: str
    targets: list[str]
    params: JSONObject


class PreviewAnswer(TypedDict):
    """A move's preview (``PreviewOut`` documents it)."""

    ply: int
    move: str
    view: JSONObject
    changes: list[ChangeItem]


@dataclass(slots=True)
class CachedPreview:
    """A preview as the engine computed it for ``seat``: the canonical move, the view as JSON
    (it reads alike in every language), the changes, and the answer encoded once per language
    it was asked in."""

    seat: int
    ply: int
    move: str
    view: bytes
    changes: tuple[Change, ...]
    encoded: dict[str, bytes] = field(default_factory=dict)

    @classmethod
    def of(cls, seat: int, ply: int, preview: Preview) -> CachedPreview:
        return cls(seat, ply, preview.move, orjson.dumps(preview.view), preview.changes)

    def answer(self, game: Game) -> bytes:
        """The :class:`PreviewAnswer`'s JSON in the current language."""
        language = i18n.current_language.get()
        found = self.encoded.get(language)
        if found is None:
            head = orjson.dumps({"ply": self.ply, "move": self.move})[:-1]
            changes = orjson.dumps(change_items(game, self.changes))
            found = self.encoded[language] = b"".join(
                (head, b',"view":', self.view, b',"changes":', changes, b"}"))
        return found


class PreviewCache:
    """A bounded, thread-safe LRU of previews by (match id, version, move key)."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[CacheKey, CachedPreview] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: CacheKey) -> CachedPreview | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: CacheKey, entry: CachedPreview) -> None:
        with self._lock:
            self._entries[key] = entry
            self._entries.move_to_end(key)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


def message(game: Game, change: Change) -> str:
    """The change's sentence in the current language (English when the game words it in no
    other, or when its translation lost a field)."""
    template = game.words.changes.get(change.key)
    if template is None:
        return change.kind

    def word(text: str) -> str:
        return i18n.game_text(game, text)

    try:
        return sentence(change, word(template), word)
    except (KeyError, IndexError, ValueError):
        return sentence(change, template, lambda text: text)


def change_items(game: Game, changes: tuple[Change, ...]) -> list[ChangeItem]:
    return [{"kind": change.kind, "message": message(game, change),
             "targets": list(change.targets), "params": dict(change.params)}
            for change in changes]


def answer(game_id: str, ply: int, preview: Preview) -> PreviewAnswer:
    """The JSON answer of ``preview`` computed at ``ply``, worded in the current language."""
    game = registry.get(game_id)
    return {"ply": ply, "move": preview.move, "view": preview.view,
            "changes": change_items(game, preview.changes)}


def engine_preview(state: State, move: str, seat: int) -> Preview:
    """``state.preview``, a refused move raised as the move endpoint raises it (422
    ``illegal_move`` with the same reason)."""
    try:
        return state.preview(move, seat)
    except IllegalMove as error:
        raise why.illegal_move_error(state.game_id, error) from None


def preview_move(session: Session, cache: PreviewCache, match_id: str, user: Identity,
                 move: str, ply: int | None = None) -> bytes:
    """What ``move`` would do if ``user`` played it now, as the JSON of a
    :class:`PreviewAnswer` in the current language: checked as a move is (403 ``not_a_player``
    / ``not_your_turn``, 409 ``match_not_active`` / ``stale_ply`` when ``ply`` is given and is
    not the match's, 422 ``illegal_move``), nothing written. Encoded once per cached preview
    and language: a preview asked again costs the match's read."""
    match = store.read(session, match_id)
    seats = {player.seat for player in match.players if player.user_id == user.id}
    if not seats:
        store.seat_of(match, user)  # raises 403 not_a_player
    store.require_active(match)
    if ply is not None and ply != match.ply:
        raise Conflict(f"The match is at ply {match.ply}, not {ply}: refresh and try again.",
                       code="stale_ply")
    key = (match.id, match.version, move_key(move))
    entry = cache.get(key)
    if entry is None:
        state = store.state_of(match)
        seat = state.to_move
        if seat not in seats:
            raise Forbidden("It is not your turn.", code="not_your_turn")
        assert seat is not None
        entry = CachedPreview.of(seat, match.ply, engine_preview(state, move, seat))
        cache.put(key, entry)
    elif entry.seat not in seats:
        raise Forbidden("It is not your turn.", code="not_your_turn")
    return entry.answer(registry.get(match.game))
