"""The installable app's identity, written by ``build.py``: the web manifest and the icons (PNG and SVG),
drawn here in pure Python (no image library) from the English board's cross.

>>> manifest()["short_name"], png_bytes(1, 1, bytearray(4))[:8]
('Peg Lab', b'\\x89PNG\\r\\n\\x1a\\n')
"""

from __future__ import annotations

import math
import struct
import zlib

THEME = "#1f4e3d"
"""The theme colour (manifest, icons, the page's header)."""


def png_bytes(width: int, height: int, pixels: bytearray) -> bytes:
    """A minimal RGBA PNG (one IDAT chunk) from raw row-major pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    stride = width * 4
    raw = b"".join(b"\x00" + bytes(pixels[y * stride:(y + 1) * stride]) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def _icon_pegs() -> list[tuple[float, float, bool]]:
    """The English cross as (x, y, filled) in 0..1 icon coordinates, the centre empty."""
    out = []
    for r in range(7):
        for c in range(7):
            if (2 <= r <= 4) or (2 <= c <= 4):
                out.append(((c + 0.5) / 7, (r + 0.5) / 7, (r, c) != (3, 3)))
    return out


def draw_icon(size: int) -> bytes:
    """The app icon: pegs of the English board on a green tile (safe zone for maskable icons)."""
    bg = bytes.fromhex(THEME[1:]) + b"\xff"
    peg = bytes.fromhex("f2c14e") + b"\xff"
    hole = bytes.fromhex("163a2d") + b"\xff"
    px = bytearray(bg * (size * size))
    margin = size * 0.14
    span = size - 2 * margin
    radius = span / 7 * 0.36
    for fx, fy, filled in _icon_pegs():
        cx, cy = margin + fx * span, margin + fy * span
        colour = peg if filled else hole
        for y in range(max(0, int(cy - radius - 1)), min(size, int(cy + radius + 2))):
            for x in range(max(0, int(cx - radius - 1)), min(size, int(cx + radius + 2))):
                if math.hypot(x + 0.5 - cx, y + 0.5 - cy) <= radius:
                    i = (y * size + x) * 4
                    px[i:i + 4] = colour
    return png_bytes(size, size, px)


def icon_svg() -> str:
    """The same icon as SVG (the favicon)."""
    circles = []
    for fx, fy, filled in _icon_pegs():
        fill = "#f2c14e" if filled else "#163a2d"
        x, y, r = 14 + fx * 72, 14 + fy * 72, 72 / 7 * 0.36
        circles.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}" fill="{fill}"/>')
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            f'<rect width="100" height="100" rx="18" fill="{THEME}"/>' + "".join(circles) + "</svg>\n")


def manifest() -> dict:
    return {
        "name": "Peg Solitaire Lab",
        "short_name": "Peg Lab",
        "description": "Play, solve and share peg solitaire on every classic board, offline.",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#f4f1e8",
        "theme_color": THEME,
        "icons": [
            {"src": "icons/icon.svg", "sizes": "any", "type": "image/svg+xml"},
            {"src": "icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any maskable"},
        ],
    }
