#!/usr/bin/env python3
"""Draws the web app's PNG icons from the same shapes as Static/icon.svg (an indigo tile with two
rings), for the manifest and iOS's home screen, which want bitmaps. Pure Python (zlib only), so it
runs anywhere: python3 scripts/make-icons.py writes Sources/KithServer/Web/Static/icons/."""
import math
import os
import struct
import zlib

TILE = (0x43, 0x38, 0xCA)
LEFT_RING = (0xFF, 0xFF, 0xFF)
RIGHT_RING = (0xA5, 0xB4, 0xFC)
SAMPLES = 4  # per side: 16 samples a pixel for smooth edges


def coverage_ring(x, y, cx, cy, radius, width):
    return abs(math.hypot(x - cx, y - cy) - radius) <= width / 2


def coverage_rounded(x, y, size, corner):
    if corner == 0:
        return 0 <= x <= size and 0 <= y <= size
    nx = min(max(x, corner), size - corner)
    ny = min(max(y, corner), size - corner)
    return math.hypot(x - nx, y - ny) <= corner


def draw(size, corner_fraction, art_scale):
    """An RGBA image: the tile (corners rounded by corner_fraction of its side) and the rings, drawn
    on the 32-unit grid of icon.svg scaled by art_scale about the centre (a maskable icon keeps its
    art inside the middle 80 %)."""
    unit = size / 32.0
    corner = corner_fraction * size
    rows = []
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            tile = left = right = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = px + (sx + 0.5) / SAMPLES
                    y = py + (sy + 0.5) / SAMPLES
                    if not coverage_rounded(x, y, size, corner):
                        continue
                    tile += 1
                    # The art's coordinates on icon.svg's 32-unit grid, scaled about the centre.
                    gx = 16 + (x / unit - 16) / art_scale
                    gy = 16 + (y / unit - 16) / art_scale
                    if coverage_ring(gx, gy, 19.5, 16, 6.25, 2.5):
                        right += 1
                    elif coverage_ring(gx, gy, 12.5, 16, 6.25, 2.5):
                        left += 1
            total = SAMPLES * SAMPLES
            if tile == 0:
                row += bytes([0, 0, 0, 0])
                continue
            colour = [0.0, 0.0, 0.0]
            for weight, rgb in ((tile - left - right, TILE), (left, LEFT_RING), (right, RIGHT_RING)):
                for i in range(3):
                    colour[i] += weight * rgb[i]
            row += bytes([round(c / tile) for c in colour] + [round(255 * tile / total)])
        rows.append(bytes(row))
    return rows


def png(rows, size):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")


def main():
    out = os.path.join(os.path.dirname(__file__), "..", "Sources", "KithServer", "Web", "Static", "icons")
    os.makedirs(out, exist_ok=True)
    icons = {
        # Rounded like icon.svg (rx 8 of 32) for launchers that show the icon as it is.
        "icon-192.png": (192, 0.25, 1.0),
        "icon-512.png": (512, 0.25, 1.0),
        # Full bleed, art within the safe zone: the launcher cuts its own shape.
        "icon-maskable-512.png": (512, 0, 0.75),
        # iOS rounds the corners itself and shows transparency as black.
        "apple-touch-icon.png": (180, 0, 0.85),
    }
    for name, (size, corner, scale) in icons.items():
        with open(os.path.join(out, name), "wb") as file:
            file.write(png(draw(size, corner, scale), size))
        print("wrote", name)


if __name__ == "__main__":
    main()
