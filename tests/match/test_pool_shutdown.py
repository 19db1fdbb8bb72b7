"""The bots' worker processes end with the server (they used to outlive it: shutdown(wait=False)
left them running, one more per stopped test server)."""

from __future__ import annotations

import os

from app.match.bot_runner import BotRunner


def test_bot_processes_end_when_the_runner_shuts_down() -> None:
    runner = BotRunner(session_factory=None, publish=lambda record: None)  # type: ignore[arg-type]
    worker_pid = runner.executor.submit(os.getpid).result(timeout=60)
    processes = list(runner.executor._processes.values())  # type: ignore[attr-defined]
    assert worker_pid != os.getpid() and processes
    runner.shutdown()
    assert not any(process.is_alive() for process in processes)
