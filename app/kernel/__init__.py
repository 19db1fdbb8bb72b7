"""The bottom layer: settings, the error family, the identity type, i18n, time, metrics, logs,
process helpers and lazy entry modules. It imports nothing else of ``app``, so every other layer
may use it.

A shared layer: its modules are its interface (``from app.kernel.errors import NotFound``); it
exports nothing here (docs/architecture.md).
"""
