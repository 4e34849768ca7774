// A small map drawn from a tile server's square 256-pixel images (the "slippy map" scheme that
// OpenStreetMap and most tile servers share): the tiles around a point, placed so the point is at
// the centre of the frame, with a pin there and the tile server's attribution. No library: this
// is all a contact's address needs (decision in docs/decisions.md), and the page's content
// security policy lets images come from the configured tile server only.
(function () {
  "use strict";

  var TILE = 256;
  var MAX_LATITUDE = 85.0511287798; // where the square Web Mercator world ends
  var GIVE_UP_MS = 10000;

  // The point's position in pixels on the whole world at `zoom` (Web Mercator).
  function worldPixel(lat, lon, zoom) {
    var size = TILE * Math.pow(2, zoom);
    var clamped = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
    var radians = clamped * Math.PI / 180;
    return {
      x: (lon + 180) / 360 * size,
      y: (1 - Math.log(Math.tan(radians) + 1 / Math.cos(radians)) / Math.PI) / 2 * size
    };
  }

  function tileURL(template, zoom, x, y) {
    return template.replace("{z}", zoom).replace("{x}", x).replace("{y}", y).replace("{s}", "a");
  }

  // draw(frame, {lat, lon, zoom, template, attribution, onFail}) fills `frame` (sized by CSS) with
  // the tiles that cover it. onFail() runs once when no tile could load (offline, the tile server
  // down or refusing): the caller shows its "Map unavailable" instead.
  function draw(frame, options) {
    while (frame.firstChild) frame.removeChild(frame.firstChild);
    frame.classList.add("tile-map");
    var width = frame.clientWidth;
    var height = frame.clientHeight;
    var zoom = options.zoom;
    var count = Math.pow(2, zoom);
    var centre = worldPixel(options.lat, options.lon, zoom);
    var left = centre.x - width / 2;
    var top = centre.y - height / 2;
    var layer = document.createElement("div");
    layer.className = "tile-layer";
    var tiles = 0;
    var loaded = 0;
    var failed = 0;
    var finished = false;
    function fail() {
      if (finished) return;
      finished = true;
      options.onFail();
    }
    for (var tileY = Math.floor(top / TILE); tileY * TILE < top + height; tileY += 1) {
      if (tileY < 0 || tileY >= count) continue;
      for (var tileX = Math.floor(left / TILE); tileX * TILE < left + width; tileX += 1) {
        var image = document.createElement("img");
        image.className = "tile";
        image.alt = "";
        image.draggable = false;
        image.decoding = "async";
        // The server's own address only: tile servers ask for a Referer, and the contact's page
        // address must not leave (the pages send none otherwise).
        image.referrerPolicy = "origin";
        image.width = TILE;
        image.height = TILE;
        // Through the CSSOM, which the content security policy allows (a style attribute it would not).
        image.style.left = Math.round(tileX * TILE - left) + "px";
        image.style.top = Math.round(tileY * TILE - top) + "px";
        image.addEventListener("load", function () { loaded += 1; });
        image.addEventListener("error", function () {
          failed += 1;
          if (failed === tiles) fail();
        });
        image.src = tileURL(options.template, zoom, ((tileX % count) + count) % count, tileY);
        layer.appendChild(image);
        tiles += 1;
      }
    }
    frame.appendChild(layer);
    var pin = document.createElement("span");
    pin.className = "tile-pin";
    pin.setAttribute("aria-hidden", "true");
    frame.appendChild(pin);
    var credit = document.createElement("span");
    credit.className = "tile-attribution";
    credit.textContent = options.attribution;
    frame.appendChild(credit);
    // A tile server that never answers is no better than one that refuses.
    window.setTimeout(function () { if (!loaded) fail(); }, GIVE_UP_MS);
    if (!tiles) fail();
  }

  window.KithTileMap = { draw: draw, worldPixel: worldPixel, TILE: TILE };
})();
