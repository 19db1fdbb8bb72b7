"""Entry modules that import their parts on first use.

A domain's ``__init__.py`` names its public interface; importing one inner module runs it. Where
inner modules are also imported alone in a small process — a spawned worker of a process pool
unpickles ``app.analysis.compute.evaluate_position`` or ``app.match.bots.bot_move`` — eager
re-exports would load the whole domain, its routes and the web stack into every worker (about a
second and 50 MB each). Such an entry module lists its names for the type checker under
``TYPE_CHECKING`` and resolves them at run time through :func:`lazy_exports`.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable


def lazy_exports(package: str, origins: dict[str, tuple[str, str]]) -> Callable[[str], object]:
    """The module ``__getattr__`` of ``package``'s entry module: ``origins`` maps each exported
    name to (inner module, its name there). A name is imported on first use, then kept."""

    def __getattr__(name: str) -> object:
        try:
            module, original = origins[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(module), original)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
