"""Background jobs: clocks, quick-play pairing, seek expiry, bots and the presence sweep.

They run in exactly one process across all instances (see ``leadership``): the worker
(``python -m app.worker``) or, when no worker is deployed, whichever web instance holds the lock;
a single process without Redis runs them itself. ``runner.BackgroundJobs`` starts them.
"""

from app.jobs.runner import BackgroundJobs

__all__ = ["BackgroundJobs"]
