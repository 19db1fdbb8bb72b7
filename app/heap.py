"""The garbage collector's part in the server's latency.

CPython's oldest-generation collection walks every container object the process holds: the
modules, routes, SQLAlchemy's compiled caches and pydantic's validators of a running app are
hundreds of thousands of them. Under load a full collection ran every few seconds and took 70–160
ms (measured with ``gc.callbacks`` during ``bench/load.py``'s fan-out), all of it with the event
loop stopped: it was the fan-out's p99. Objects made at start-up live as long as the process, so
they are moved out of the collector's sight once the app is ready (``gc.freeze``, as Instagram
does for its Django workers); what the collector still walks is what requests make.
"""

from __future__ import annotations

import gc

_settled = False


def settle() -> int:
    """Collect once, then freeze what is left (the app as built): later collections skip it.
    Once per process: a process that builds several apps (the test suite) would otherwise pin
    every cycle alive at each start for good. Returns the number of objects frozen."""
    global _settled
    if not _settled:
        _settled = True
        gc.collect()
        gc.freeze()
    return gc.get_freeze_count()
