"""Draws the app's PNG icons (static/icons/) from the favicon's shapes: the web app manifest
needs raster icons, "any" (rounded, transparent corners) and "maskable" (full bleed, the stairs
inside the 80 % safe circle). Pure Python (zlib), so no imaging library is needed; run by hand
after changing the favicon: ``python scripts/make_icons.py``."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "static" / "icons"
BACK = (0x2D, 0x4A, 0x6B)
GOLD = (0xF3, 0xC9, 0x6B)
STEPS = ((11, 21, 16, 26), (16, 16, 21, 26), (21, 11, 27, 26))
"""The favicon's stairs in its 32-unit box: (x0, y0, x1, y1) rectangles."""
SAMPLES = 4


def _png(size: int, pixels: bytearray) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(pixels[y * size * 4:(y + 1) * size * 4]) for y in range(size))
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9))
            + chunk(b"IEND", b""))


def _inside_rounded(x: float, y: float, radius: float) -> bool:
    """In the 32-unit square with corners rounded by ``radius``."""
    cx = min(max(x, radius), 32 - radius)
    cy = min(max(y, radius), 32 - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2


def draw(size: int, maskable: bool) -> bytes:
    scale = 32 / size
    # Maskable: the stairs centred (their box's middle is (19, 18.5)), inside the safe circle.
    shift = (3.0, 2.5) if maskable else (0.0, 0.0)
    pixels = bytearray(size * size * 4)
    for py in range(size):
        for px in range(size):
            back = gold = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (px + (sx + 0.5) / SAMPLES) * scale
                    y = (py + (sy + 0.5) / SAMPLES) * scale
                    if not maskable and not _inside_rounded(x, y, 6):
                        continue
                    ux, uy = x + shift[0], y + shift[1]
                    if any(x0 <= ux < x1 and y0 <= uy < y1 for x0, y0, x1, y1 in STEPS):
                        gold += 1
                    else:
                        back += 1
            total = SAMPLES * SAMPLES
            covered = back + gold
            i = (py * size + px) * 4
            if covered:
                for c in range(3):
                    pixels[i + c] = round((BACK[c] * back + GOLD[c] * gold) / covered)
                pixels[i + 3] = round(255 * covered / total)
    return _png(size, pixels)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        (OUT / f"icon-{size}.png").write_bytes(draw(size, maskable=False))
        (OUT / f"maskable-{size}.png").write_bytes(draw(size, maskable=True))
    (OUT / "apple-touch-icon.png").write_bytes(draw(180, maskable=True))


if __name__ == "__main__":
    main()
