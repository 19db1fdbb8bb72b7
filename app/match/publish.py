"""How a committed match change reaches everyone: the one place that publishes a match."""

from __future__ import annotations

from functools import partial

from app.match.outbox import Announced
from app.match.payloads import MatchChange
from app.match.records import MatchRecord
from app.realtime.bus import LIVE_CHANNEL, LOCAL_RECORD, EventBus, match_channel, seats_channel


def publish_match(bus: EventBus, record: MatchRecord) -> None:
    """A committed match change: the public change (spectators' payload built once, here) to the
    match's channel and the Watch list; the full record only to the seats' channel."""
    data = record.to_json()  # once a move, for both forms
    change = {"type": "change", "change": MatchChange.of(record, data).to_json()}
    bus.publish(match_channel(record.id), change)
    bus.publish(LIVE_CHANNEL, change)
    bus.publish(seats_channel(record.id), {"type": "record", "record": data, LOCAL_RECORD: record})


class MatchPublisher:
    """The process's publisher of match changes (a ``store.Publish``): publishes the change and,
    once the bus has sent it on, notes it announced so the outbox relay leaves it alone
    (app/match/outbox.py). Every service of the process publishes through one of these."""

    __slots__ = ("announced", "bus")

    def __init__(self, bus: EventBus, announced: Announced) -> None:
        self.bus = bus
        self.announced = announced

    def __call__(self, record: MatchRecord) -> None:
        publish_match(self.bus, record)
        self.bus.after_sent(partial(self.announced.add, record.id, record.version))
