"""How a committed match change reaches everyone: the one place that publishes a match."""

from __future__ import annotations

from app.match.payloads import MatchChange
from app.match.records import MatchRecord
from app.realtime.bus import LIVE_CHANNEL, LOCAL_RECORD, EventBus, match_channel, seats_channel


def publish_match(bus: EventBus, record: MatchRecord) -> None:
    """A committed match change: the public change (spectators' payload built once, here) to the
    match's channel and the Watch list; the full record only to the seats' channel."""
    data = record.to_json()  # once a move, for both forms
    change = {"type": "change", "change": MatchChange.json_of(record, data)}
    bus.publish(match_channel(record.id), change)
    bus.publish(LIVE_CHANNEL, change)
    bus.publish(seats_channel(record.id), {"type": "record", "record": data, LOCAL_RECORD: record})
