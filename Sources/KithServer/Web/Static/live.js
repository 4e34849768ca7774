// Kith web app: follows /v1/live for a page that shows synced data (Outreach, Food, Family). The page
// passes how to show the connection's state and what to do when its data changed elsewhere; this
// connects with the session cookie, reconnects with backoff (and at once when the browser comes
// back online), and sends a person whose session ended to the sign-in page, which brings them back.
(function () {
  "use strict";

  // Who hears the server's `notice` messages (a family notice just delivered to this person).
  var noticeListeners = [];
  function onNotice(listener) { noticeListeners.push(listener); }

  // setStatus(state, text?): "connecting", "live", "offline" or "failed".
  // changed(): the page's data changed on the server (or may have, after a reconnect).
  // Returns { isOpen() }: whether the socket is connected now.
  function follow(setStatus, changed) {
    var socketOpen = false;
    var connectedBefore = false;
    var retryDelay = 1000;
    var retryTimer = null;
    function connect() {
      retryTimer = null;
      if (!("WebSocket" in window)) {
        setStatus("failed", "Saved on the server (this browser can't show live changes).");
        return;
      }
      setStatus("connecting");
      var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
      var socket = new WebSocket(scheme + window.location.host + "/v1/live");
      socket.addEventListener("message", function (event) {
        var message;
        try { message = JSON.parse(event.data); } catch (error) { return; }
        if (message.type === "ready") {
          socketOpen = true;
          retryDelay = 1000;
          setStatus("live");
          // Whatever changed while the socket was down.
          if (connectedBefore) changed();
          connectedBefore = true;
        } else if (message.type === "changed") {
          changed();
        } else if (message.type === "notice" && message.notice) {
          noticeListeners.forEach(function (listener) { listener(message.notice); });
        } else if (message.type === "error" && (message.code === "unauthorized" || message.code === "token_expired")) {
          socket.close();
          window.location.assign(window.KithSignInAgain());
        }
      });
      socket.addEventListener("close", function () {
        socketOpen = false;
        setStatus("offline");
        retryTimer = window.setTimeout(connect, retryDelay + Math.random() * 500);
        retryDelay = Math.min(retryDelay * 2, 30000);
      });
    }
    connect();

    // Back online: try now rather than when the backoff says.
    window.addEventListener("online", function () {
      if (socketOpen || retryTimer === null) return;
      window.clearTimeout(retryTimer);
      retryDelay = 1000;
      connect();
    });
    window.addEventListener("offline", function () { setStatus("offline"); });
    return { isOpen: function () { return socketOpen; } };
  }

  // How the page's status line (an element with data-state) says what follow() reports; `extra`
  // adds the page's own states (Outreach's "saving").
  function statusLine(element, extra) {
    // With the service worker in charge, what is changed offline is kept (offline.js).
    var keptOffline = Boolean(window.KithOffline && window.KithOffline.usable &&
      navigator.serviceWorker && navigator.serviceWorker.controller);
    var states = {
      connecting: "Connecting…",
      live: "Up to date · live",
      offline: keptOffline
        ? "Offline: reconnecting… Changes are kept on this device and sent when the connection is back."
        : "Offline: reconnecting… Changes can't be saved until the connection is back."
    };
    Object.keys(extra || {}).forEach(function (state) { states[state] = extra[state]; });
    return function (state, text) {
      if (!element) return;
      element.dataset.state = state;
      element.textContent = text || states[state];
    };
  }

  // Reads `url` again and replaces the elements with these ids by their fresh copies, keeping
  // which <details> are open and where the keyboard was (by id). Resolves with the fresh
  // document, or null when the page is gone (404: reloaded, so the page itself says why).
  function refreshParts(url, ids) {
    return fetch(url, { credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 404) { window.location.reload(); return null; }
        return response.ok ? response.text() : Promise.reject(new Error(String(response.status)));
      })
      .then(function (html) {
        if (html === null) return null;
        var fresh = new DOMParser().parseFromString(html, "text/html");
        ids.forEach(function (id) {
          var current = document.getElementById(id);
          var replacement = fresh.getElementById(id);
          if (!current || !replacement) return;
          current.querySelectorAll("details[id]").forEach(function (details) {
            var twin = replacement.querySelector("#" + details.id);
            if (twin) twin.open = details.open;
          });
          var focused = current.contains(document.activeElement) && document.activeElement.id;
          current.replaceWith(document.adoptNode(replacement));
          if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
        });
        return fresh;
      });
  }

  // follow() for a page that shows parts of itself again (refreshParts) when its data changed
  // elsewhere: a burst of nudges costs one read of url(); after(fresh) runs after each. The page's
  // forms are not among the parts: someone may be typing.
  function followParts(setStatus, url, ids, after) {
    var timer = null;
    var busy = false;
    function refresh() {
      if (busy) { schedule(); return; }
      busy = true;
      refreshParts(url(), ids)
        .then(function (fresh) { if (fresh && after) after(fresh); })
        .catch(function () { /* the next nudge or reconnect tries again */ })
        .then(function () { busy = false; });
    }
    function schedule() {
      window.clearTimeout(timer);
      timer = window.setTimeout(refresh, 150);
    }
    return follow(setStatus, schedule);
  }

  window.KithLive = {
    follow: follow, statusLine: statusLine, refreshParts: refreshParts, followParts: followParts, onNotice: onNotice
  };
})();
