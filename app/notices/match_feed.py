"""One connection's subscriptions to one match, read from one inbox.

- The match's public channel, always: changes without secrets (:class:`MatchChange`), presence,
  clock ticks.
- The seats' channel (full records, snapshot included) only while the viewer holds a seat or may
  still take one (a waiting match): so a process that serves no player of a match never receives
  its secrets, and a seat's view is built from the record its process received.
- The chat rooms the viewer may read.

Everything lands in one inbox (memory per socket): a queue read by one task (the NDJSON
stream), or the match socket's receiver, which holds no queue or task while idle. The match socket
and the NDJSON match stream both follow a match through this class.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from app.chat import chat_channel, subscribed_rooms
from app.kernel.json_types import JSONObject
from app.match import Known, MatchChange, MatchRecord
from app.realtime.bus import (
    LOCAL_RECORD,
    EventBus,
    Receiver,
    Sink,
    match_channel,
    new_inbox,
    seats_channel,
)


class SharedMatches:
    """One object per (form, match, version) in a process: every connection to a match holds the
    same record or change, decoded once, instead of a copy each (memory and CPU per
    socket). Held weakly: an entry lives while a connection shows it, and goes with the last one
    (memory is given back when sockets close). Lives on the event loop."""

    def __init__(self) -> None:
        self._known: weakref.WeakValueDictionary[tuple[str, str, int], Known] = \
            weakref.WeakValueDictionary()

    def __len__(self) -> int:
        """Entries held (for tests: zero once no connection shows a match)."""
        return len(self._known)

    def _share(self, key: tuple[str, str, int], build: Callable[[], Known]) -> Known:
        found = self._known.get(key)
        if found is None:
            found = build()
            self._known[key] = found
        return found

    def record(self, record: MatchRecord) -> MatchRecord:
        """This record, or the equal one already held (same match and version)."""
        found = self._share(("record", record.id, record.version), lambda: record)
        assert isinstance(found, MatchRecord)
        return found

    def decode(self, message: JSONObject) -> Known:
        """The record or change a bus message carries, decoded once per process."""
        if message["type"] == "record":
            data = message["record"]
            return self._share(("record", data["id"], data["version"]),
                               lambda: message.get(LOCAL_RECORD) or MatchRecord.from_json(data))
        data = message["change"]
        return self._share(("change", data["id"], data["version"]),
                           lambda: MatchChange.from_json(data))


def shared_matches(state: Any) -> SharedMatches:
    """The process's :class:`SharedMatches` (on ``app.state``, made by ``create_app``)."""
    matches: SharedMatches = state.shared_matches
    return matches


class MatchFeed:
    """The subscriptions themselves are plain ``join``/``leave`` calls on the bus, remembered in
    a list: no exit stack, generator or queue of their own (an idle socket's memory).
    ``inbox`` is a queue read with :meth:`next` (the NDJSON stream) or a :class:`Receiver` that
    takes each message as it is published (the match socket)."""

    __slots__ = ("_channels", "bus", "holds_seats", "inbox", "match_id", "shared", "viewer_id")

    def __init__(self, bus: EventBus, match_id: str, viewer_id: int | None,
                 shared: SharedMatches, inbox: Sink | None = None) -> None:
        self.bus = bus
        self.shared = shared
        self.match_id = match_id
        self.viewer_id = viewer_id
        self.inbox: Sink = inbox if inbox is not None else new_inbox()
        self.holds_seats = False
        self._channels: list[str] = []

    async def __aenter__(self) -> MatchFeed:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def open(self) -> None:
        """Subscribe before the caller loads the match, so no change falls between the two. A
        signed-in viewer's connection starts on the seats' channel too, in case they sit."""
        try:
            await self._follow(match_channel(self.match_id))
            if self.viewer_id is not None:
                await self._follow(seats_channel(self.match_id))
                self.holds_seats = True
        except BaseException:
            await self.aclose()
            raise

    async def aclose(self) -> None:
        """Leave every channel (idempotent): the bus forgets this connection."""
        channels, self._channels = self._channels, []
        for channel in reversed(channels):
            await self.bus.leave(channel, self.inbox)

    async def _follow(self, channel: str) -> None:
        self._channels.append(channel)  # first: a cancelled join is still left by aclose
        await self.bus.join(channel, self.inbox)

    async def settle(self, known: Known) -> None:
        """After the first load: follow the chat rooms this viewer reads; leave the seats'
        channel if they neither hold a seat nor can take one."""
        for room in subscribed_rooms(known, self.viewer_id):
            await self._follow(chat_channel(self.match_id, room))
        await self._review(known)

    async def _review(self, known: Known) -> None:
        if self.holds_seats and known.seat_of(self.viewer_id) is None \
                and known.status != "waiting":
            self.holds_seats = False
            channel = seats_channel(self.match_id)
            if channel in self._channels:
                self._channels.remove(channel)
                await self.bus.leave(channel, self.inbox)

    async def next(self) -> dict[str, Any]:
        """The next message of a queue inbox (a :class:`Receiver` is handed them instead)."""
        assert not isinstance(self.inbox, Receiver)
        return await self.inbox.get()

    async def reloaded(self, latest: Known,
                       load: Callable[[], Awaitable[MatchRecord]]) -> Known | None:
        """After the bus was away (``resync``): the match as the database has it, if it moved on
        while changes could not be heard."""
        fresh = await load()
        if fresh.version <= latest.version:
            return None
        await self._review(fresh)
        return fresh

    async def newer(self, message: dict[str, Any], latest: Known,
                    load: Callable[[], Awaitable[MatchRecord]]) -> Known | None:
        """The match after ``message`` if it is a change this connection has not shown yet, else
        None. On the seats' channel the records are what counts (the same change's public copy
        is skipped); a viewer who sat down without it (rare) gets the record from ``load``."""
        kind = message.get("type")
        if kind != "record" and (kind != "change" or self.holds_seats):
            return None
        incoming = self.shared.decode(message)
        if incoming.version <= latest.version:
            return None  # already shown, or an older change overtaken by a newer one
        if isinstance(incoming, MatchChange) and incoming.seat_of(self.viewer_id) is not None:
            incoming = self.shared.record(await load())
        await self._review(incoming)
        return incoming
