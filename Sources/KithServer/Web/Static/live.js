// Kith web app: follows /v1/live for a page that shows synced data (Outreach, Food). The page
// passes how to show the connection's state and what to do when its data changed elsewhere; this
// connects with the session cookie, reconnects with backoff (and at once when the browser comes
// back online), and sends a person whose session ended to the sign-in page.
(function () {
  "use strict";

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
        } else if (message.type === "error" && (message.code === "unauthorized" || message.code === "token_expired")) {
          socket.close();
          window.location.assign("/signin");
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

  window.KithLive = { follow: follow };
})();
