"""Sockets spread over the web instances again after a rolling restart.

Restarting instances one at a time moves each one's sockets to the others: with two instances,
every socket ends on the one restarted first, and the fresh one gets only new clients. So each
instance (with Redis) writes how many connections it holds into the hash ``<prefix>sockets``
(field: its instance id; value: ``"<count> <unix time>"``) every ``rebalance_seconds``, reads
everyone's, and when it holds clearly more than its share (more than 1.25 times the average and
at least ``rebalance_min_excess`` over it), ends half of its excess (idle connections chosen at
random, none with a move in flight) with close code 1012, as a restart does: their clients come
back through the load balancer after 200–1500 ms and most land elsewhere. Halving each round
lets several overloaded instances shed at once without overshooting. An entry not refreshed for
three periods belongs to a dead instance: ignored and removed.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable
from typing import Any

from app.http.live_connections import LiveConnections
from app.kernel.cancellation import repeat

log = logging.getLogger(__name__)
SHARE_TOLERANCE = 1.25
STALE_PERIODS = 3


def to_shed(mine: int, counts: list[int], min_excess: int) -> int:
    """How many of ``mine`` connections to end, given every live instance's count (``mine``
    included in ``counts``)."""
    if len(counts) < 2:
        return 0
    share = sum(counts) / len(counts)
    excess = mine - math.ceil(share)
    if excess < max(1, min_excess) or mine <= share * SHARE_TOLERANCE:
        return 0
    return max(1, excess // 2)


class Rebalancer:
    """One instance's side (``app.state.rebalancer``); :meth:`run` until cancelled."""

    def __init__(self, connections: LiveConnections, client: Callable[[], Any], prefix: str,
                 instance: str, period: float, min_excess: int) -> None:
        self.connections = connections
        self.client = client
        self.key = f"{prefix}sockets"
        self.instance = instance
        self.period = period
        self.min_excess = min_excess
        self.shed_total = 0

    async def run(self) -> None:
        """A step every period, give or take a fifth (instances do not step in lockstep); with
        Redis away a step fails and the next one tries again."""
        await repeat(self.step, lambda: self.period * random.uniform(0.8, 1.2),
                     failure="socket rebalancing step failed", logger=log, pause_first=True)

    async def step(self) -> int:
        """Publish this instance's count, read the others', shed; returns how many ended."""
        if self.connections.closing:
            return 0
        client = self.client()
        now = time.time()
        mine = self.connections.open_count
        await client.hset(self.key, self.instance, f"{mine} {now:.3f}")
        counts: list[int] = []
        stale: list[Any] = []
        for name, value in (await client.hgetall(self.key)).items():
            try:
                count, at = value.split()
                if now - float(at) <= STALE_PERIODS * self.period:
                    counts.append(int(count))
                else:
                    stale.append(name)
            except ValueError:
                stale.append(name)
        if stale:
            await client.hdel(self.key, *stale)
        shed = self.connections.shed(to_shed(mine, counts, self.min_excess))
        if shed:
            self.shed_total += shed
            log.info("rebalancing: %d of %d connections told to reconnect (instances: %s)",
                     shed, mine, counts)
        return shed

    async def aclose(self) -> None:
        """Leave the table (a clean shutdown; a killed instance's entry goes stale)."""
        try:
            await self.client().hdel(self.key, self.instance)
        except Exception:
            log.debug("could not remove this instance's socket count", exc_info=True)
