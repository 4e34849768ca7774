"""A Nominatim stand-in on loopback for the browser tests: answers /search as Nominatim does
(coordinates as strings, [] for a place it does not know) for a few cities, and remembers each
request with its User-Agent. The tests start Kith with KITH_GEOCODER_URL pointing here, so no test
asks OpenStreetMap's public geocoder. (The Swift tests' twin is KithTestSupport's NominatimStandIn.)"""

import json
import urllib.parse

from loopback_server import LoopbackServer

PLACES = {"paris": ("fr", "48.8566", "2.3522"), "lyon": ("fr", "45.7640", "4.8357")}


class NominatimServer(LoopbackServer):
    """start() listens on a free port; asked() lists (query, user agent) in order."""

    name = "nominatim"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def answer(self, handler):
        parsed = urllib.parse.urlsplit(handler.path)
        if parsed.path != "/search":
            return None
        query = dict(urllib.parse.parse_qsl(parsed.query))
        self.record((query, handler.headers.get("User-Agent")))
        place = PLACES.get(query.get("city", "").lower())
        found = place and query.get("countrycodes", place[0]) == place[0]
        answer = [{"place_id": 1, "lat": place[1], "lon": place[2]}] if found else []
        return 200, "application/json", json.dumps(answer).encode()
