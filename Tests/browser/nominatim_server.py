"""A Nominatim stand-in on loopback for the browser tests: answers /search as Nominatim does
(coordinates as strings, [] for a place it does not know) for a few cities, and remembers each
request with its User-Agent. The tests start Kith with KITH_GEOCODER_URL pointing here, so no test
asks OpenStreetMap's public geocoder. (The Swift tests' twin is KithTestSupport's NominatimStandIn.)"""

import json
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PLACES = {"paris": ("fr", "48.8566", "2.3522"), "lyon": ("fr", "45.7640", "4.8357")}


class NominatimServer:
    """start() listens on a free port; requests lists (query, user agent) in order."""

    def __init__(self):
        self.port = 0
        self.requests = []
        self._lock = threading.Lock()
        self._server = None
        self._thread = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                parsed = urllib.parse.urlsplit(self.path)
                if parsed.path != "/search":
                    self.send_error(404)
                    return
                query = dict(urllib.parse.parse_qsl(parsed.query))
                with owner._lock:
                    owner.requests.append((query, self.headers.get("User-Agent")))
                place = PLACES.get(query.get("city", "").lower())
                found = place and query.get("countrycodes", place[0]) == place[0]
                answer = [{"place_id": 1, "lat": place[1], "lon": place[2]}] if found else []
                body = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, name="nominatim", daemon=True)
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
