"""A few SVG building blocks shared by the diagram drawers (plain strings, attributes escaped)."""

from __future__ import annotations

import html
from collections.abc import Iterable

OK = "#1e7b46"  # legal: green
NO = "#b3261e"  # not allowed: red
FOCUS = "#d9a21b"  # the piece or square the figure is about: gold
INK = "#3a3330"
MUTED = "#6b5d45"
LIGHT = "#f4eee1"
DARK = "#3a3330"
FONT = "system-ui, 'Noto Sans CJK JP', sans-serif"


def el(tag: str, children: Iterable[str] | str = (), **attrs: object) -> str:
    """``<tag a="…">children</tag>``; attribute names use ``_`` for ``-`` (``font_size``)."""
    text = " ".join(
        f'{name.rstrip("_").replace("_", "-")}="{html.escape(str(value), quote=True)}"'
        for name, value in attrs.items()
        if value is not None
    )
    inner = children if isinstance(children, str) else "".join(children)
    return f"<{tag} {text}>{inner}</{tag}>" if inner else f"<{tag} {text}/>"


def text(x: float, y: float, words: str, **attrs: object) -> str:
    return el("text", html.escape(words), x=round(x, 1), y=round(y, 1), **attrs)


def markers(prefix: str) -> str:
    """Arrow heads in the two mark colours, ids prefixed per figure (several share a page)."""
    return el(
        "defs",
        [
            el(
                "marker",
                el("path", d="M0 0L10 5L0 10z", fill=colour),
                id=f"{prefix}-{name}",
                viewBox="0 0 10 10",
                refX=7,
                refY=5,
                markerWidth=4,
                markerHeight=4,
                orient="auto-start-reverse",
            )
            for name, colour in (("ok", OK), ("no", NO), ("focus", FOCUS))
        ],
    )


def arrow(x1: float, y1: float, x2: float, y2: float, colour: str, marker: str,
          shorten: float = 0.0, width: float = 3.5) -> str:
    """A straight arrow, both ends pulled in by ``shorten`` so it does not hide the pieces."""
    dx, dy = x2 - x1, y2 - y1
    length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    ux, uy = dx / length, dy / length
    return el(
        "line",
        x1=round(x1 + ux * shorten, 1),
        y1=round(y1 + uy * shorten, 1),
        x2=round(x2 - ux * shorten, 1),
        y2=round(y2 - uy * shorten, 1),
        stroke=colour,
        stroke_width=width,
        stroke_linecap="round",
        marker_end=f"url(#{marker})",
    )


def cross(x: float, y: float, size: float = 9.0, colour: str = NO) -> str:
    d = f"M{x - size} {y - size}L{x + size} {y + size}M{x + size} {y - size}L{x - size} {y + size}"
    return el("path", d=d, stroke=colour, stroke_width=4, stroke_linecap="round", fill="none")


def svg(width: float, height: float, children: Iterable[str], label: str) -> str:
    return el(
        "svg",
        children,
        viewBox=f"0 0 {round(width)} {round(height)}",
        width=round(width),
        role="img",
        aria_label=label,
        font_family=FONT,
    )
