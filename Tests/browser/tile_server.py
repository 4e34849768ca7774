"""A map tile server stand-in on loopback: answers every /tiles/{z}/{x}/{y}.png with a small PNG
(a colour of its own per tile, so a screenshot shows the grid) and remembers which tiles were
asked for. The browser tests start Kith with KITH_MAP_TILES pointing here, so they can check the
map asked for the right tiles and show "Map unavailable" once it is stopped."""

import re
import struct
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TILE = re.compile(r"^/tiles/(\d+)/(\d+)/(\d+)\.png$")
ATTRIBUTION = "Test tiles © Kith"


def png(width: int, height: int, rgb: tuple) -> bytes:
    """A solid-colour RGB PNG, made by hand (no imaging library needed)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    row = b"\x00" + bytes(rgb) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


class TileServer:
    """start() listens on a free port (the same one again after stop()); requests lists the
    (z, x, y) asked for since the last clear()."""

    def __init__(self):
        self.port = 0
        self.requests = []
        self._lock = threading.Lock()
        self._server = None
        self._thread = None

    @property
    def template(self) -> str:
        return f"http://127.0.0.1:{self.port}/tiles/{{z}}/{{x}}/{{y}}.png"

    @property
    def setting(self) -> str:
        """The value of KITH_MAP_TILES: the template, then the attribution."""
        return f"{self.template} {ATTRIBUTION}"

    def start(self):
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                match = TILE.match(self.path)
                if not match:
                    self.send_error(404)
                    return
                z, x, y = (int(part) for part in match.groups())
                with owner._lock:
                    owner.requests.append((z, x, y))
                body = png(256, 256, ((x * 67) % 200 + 40, (y * 97) % 200 + 40, 180))
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        ThreadingHTTPServer.allow_reuse_address = True
        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, name="tile-server", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        if self._server:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(5)
            self._server = None

    def asked(self) -> list:
        with self._lock:
            return list(self.requests)

    def clear(self):
        with self._lock:
            self.requests.clear()
