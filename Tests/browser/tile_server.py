"""A map tile server stand-in on loopback: answers every /tiles/{z}/{x}/{y}.png with a small PNG
(a colour of its own per tile, so a screenshot shows the grid) and remembers which tiles were
asked for. The browser tests start Kith with KITH_MAP_TILES pointing here, so they can check the
map asked for the right tiles and show "Map unavailable" once it is stopped."""

import re
import struct
import zlib

from loopback_server import LoopbackServer

TILE = re.compile(r"^/tiles/(\d+)/(\d+)/(\d+)\.png$")
ATTRIBUTION = "Test tiles © Kith"


def png(width: int, height: int, rgb: tuple) -> bytes:
    """A solid-colour RGB PNG, made by hand (no imaging library needed)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    row = b"\x00" + bytes(rgb) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


class TileServer(LoopbackServer):
    """start() listens on a free port (the same one again after stop()); asked() lists the
    (z, x, y) asked for since the last clear()."""

    name = "tile-server"

    @property
    def template(self) -> str:
        return f"http://127.0.0.1:{self.port}/tiles/{{z}}/{{x}}/{{y}}.png"

    @property
    def setting(self) -> str:
        """The value of KITH_MAP_TILES: the template, then the attribution."""
        return f"{self.template} {ATTRIBUTION}"

    def answer(self, handler):
        match = TILE.match(handler.path)
        if not match:
            return None
        z, x, y = (int(part) for part in match.groups())
        self.record((z, x, y))
        return 200, "image/png", png(256, 256, ((x * 67) % 200 + 40, (y * 97) % 200 + 40, 180))
