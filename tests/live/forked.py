"""Live servers and workers forked from one process that has imported the app already.

A fresh ``python -c 'uvicorn ...'`` spends about 3 s of CPU importing the app before it serves;
the suite starts a hundred of them, which cost minutes of a run on a loaded machine.
multiprocessing's fork server imports this module once (its ``preload``), single-threaded, and
forks each server from there: the child starts with the app imported, sets the environment,
directory and log the test gave it, and runs the same uvicorn command line (or ``app.worker``) a
fresh process would. Settings are read when the app is created, never at import, so the child's
environment is the one that counts.

:class:`ForkedProcess` answers the part of ``subprocess.Popen`` the tests use."""

from __future__ import annotations

import functools
import multiprocessing
import os
import runpy
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import uvicorn
from argon2 import PasswordHasher

import app.accounts.service
import app.main  # the point of this module: the app imported before the fork
import app.worker

CHEAP_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""argon2 at its cheapest, as in-process apps (tests/conftest.py): the same code, without most of
a second per sign-up or login."""

app.accounts.service.HASHER = CHEAP_HASHER


def _become(env: dict[str, str], cwd: str, log_path: str) -> None:
    """The forked child takes the environment, directory and log a fresh process would have."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115  (the process's own)
    sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _serve(arguments: list[str], env: dict[str, str], cwd: str, log_path: str) -> None:
    _become(env, cwd, log_path)
    uvicorn.main.main(args=arguments, prog_name="uvicorn")


def _work(env: dict[str, str], cwd: str, log_path: str) -> None:
    _become(env, cwd, log_path)
    runpy.run_module("app.worker", run_name="__main__", alter_sys=True)


@functools.cache
def _context() -> Any:
    """The fork server's context, its preload (this module) named once per process."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return context


class ForkedProcess:
    """A forked server or worker, with ``subprocess.Popen``'s pid, poll, wait, terminate, kill,
    send_signal and returncode (a signal's end is its negative number, as with Popen)."""

    def __init__(self, process: multiprocessing.process.BaseProcess, what: str) -> None:
        self._process = process
        self._what = what

    @property
    def pid(self) -> int:
        assert self._process.pid is not None
        return self._process.pid

    @property
    def returncode(self) -> int | None:
        return self._process.exitcode

    def poll(self) -> int | None:
        return self._process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        if self._process.exitcode is None:
            raise subprocess.TimeoutExpired(self._what, timeout or 0)
        return self._process.exitcode

    def send_signal(self, number: int) -> None:
        if self._process.exitcode is None:
            os.kill(self.pid, number)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def _start(target: Any, args: tuple[Any, ...], what: str) -> ForkedProcess:
    process = _context().Process(target=target, args=args, daemon=False, name=what)
    process.start()
    return ForkedProcess(process, what)


def serve(arguments: list[str], env: dict[str, str], cwd: Path, log: Path) -> ForkedProcess:
    """``uvicorn <arguments>`` in a forked child, its output appended to ``log``."""
    return _start(_serve, (arguments, env, str(cwd), str(log)), "uvicorn " + " ".join(arguments))


def work(env: dict[str, str], cwd: Path, log: Path) -> ForkedProcess:
    """``python -m app.worker`` in a forked child, its output appended to ``log``."""
    return _start(_work, (env, str(cwd), str(log)), "python -m app.worker")
