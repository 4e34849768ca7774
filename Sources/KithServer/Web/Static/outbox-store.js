// The offline outbox: changes made while the server could not be reached, kept in IndexedDB until
// they are sent. Loaded by the pages (offline.js draws it) and by the service worker (sw.js sends it
// from Background Sync), so both keep and send changes the same way.
//
// An entry is one form as it was sent: its action, its body (with its `_key`, the write key the
// server applies a change once under, docs/sync.md) and the page it came from, for one account
// (the `Kith-Account` mark, never shown to another account). Entries are sent one at a time in
// the order they were made; a change the server refuses stays, with the server's sentence, until
// the person tries it again or discards it.
(function (global) {
  "use strict";

  var DATABASE = "kith-offline";
  var OUTBOX = "outbox";
  var META = "meta";

  function request(idbRequest) {
    return new Promise(function (resolve, reject) {
      idbRequest.onsuccess = function () { resolve(idbRequest.result); };
      idbRequest.onerror = function () { reject(idbRequest.error); };
    });
  }

  var opened = null;
  function open() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        var opening = global.indexedDB.open(DATABASE, 1);
        opening.onupgradeneeded = function () {
          var db = opening.result;
          var outbox = db.createObjectStore(OUTBOX, { keyPath: "seq", autoIncrement: true });
          outbox.createIndex("account", "account");
          db.createObjectStore(META);
        };
        opening.onsuccess = function () { resolve(opening.result); };
        opening.onerror = function () { opened = null; reject(opening.error); };
      });
    }
    return opened;
  }

  function store(name, mode) {
    return open().then(function (db) { return db.transaction(name, mode).objectStore(name); });
  }

  // Entries of `account`, oldest first (the key grows with each change made).
  function list(account) {
    return store(OUTBOX, "readonly").then(function (outbox) {
      return request(outbox.index("account").getAll(account));
    }).then(function (entries) {
      return entries.sort(function (a, b) { return a.seq - b.seq; });
    });
  }

  function add(entry) {
    entry.state = "waiting";
    entry.madeAt = entry.madeAt || Date.now();
    return store(OUTBOX, "readwrite").then(function (outbox) { return request(outbox.add(entry)); });
  }

  function put(entry) {
    return store(OUTBOX, "readwrite").then(function (outbox) { return request(outbox.put(entry)); });
  }

  function remove(seq) {
    return store(OUTBOX, "readwrite").then(function (outbox) { return request(outbox.delete(seq)); });
  }

  function clear(account) {
    return list(account).then(function (entries) {
      return Promise.all(entries.map(function (entry) { return remove(entry.seq); }));
    });
  }

  function getMeta(key) {
    return store(META, "readonly").then(function (meta) { return request(meta.get(key)); });
  }

  function setMeta(key, value) {
    return store(META, "readwrite").then(function (meta) { return request(meta.put(value, key)); });
  }

  // HTML text of the server's first complaint on a refused form's page: the form's alert, the
  // first field's error, or an error page's message. Read with a pattern because the service worker has no DOM parser.
  function sentenceIn(html) {
    var found = /(?:class="(?:alert alert-error|field-error)"|id="error-message")[^>]*>([\s\S]*?)<\/(?:p|div)>/.exec(html);
    if (!found) return null;
    var text = found[1].replace(/<[^>]*>/g, "")
      .replace(/&#(\d+);/g, function (_, code) { return String.fromCharCode(parseInt(code, 10)); })
      .replace(/&quot;/g, "\"").replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&").replace(/\s+/g, " ").trim();
    return text || null;
  }

  // What the server said about a refused change, as a sentence for the person.
  function refusal(response) {
    var type = response.headers.get("Content-Type") || "";
    return response.text().then(function (text) {
      if (type.indexOf("json") >= 0) {
        try {
          var body = JSON.parse(text);
          if (body && body.error && body.error.message) return body.error.message;
        } catch (error) { /* fall through to the status */ }
      } else {
        var sentence = sentenceIn(text);
        if (sentence) return sentence;
      }
      return "The server refused this change (" + response.status + ").";
    });
  }

  // Sends one entry. Resolves to "sent", "refused" (the entry now carries the sentence), or
  // "stopped" (no connection, the server busy or down, or the session gone: try later).
  function sendOne(entry, csrf) {
    var body = new URLSearchParams(entry.body);
    // The page that sends it may have a newer session token than the page that made it.
    if (csrf && body.has("_csrf")) body.set("_csrf", csrf);
    return global.fetch(entry.action, {
      method: "POST",
      body: body,
      headers: { Accept: entry.accept || "text/html" },
      credentials: "same-origin",
      redirect: "follow",
      cache: "no-store"
    }).then(function (response) {
      var landed = new URL(response.url || entry.action, global.location.href).pathname;
      if (response.redirected && landed === "/signin") return "stopped";
      if (response.status === 401 || response.status === 429 || response.status >= 500) return "stopped";
      if (response.ok) return remove(entry.seq).then(function () { return "sent"; });
      return refusal(response).then(function (sentence) {
        entry.state = "refused";
        entry.sentence = sentence;
        return put(entry).then(function () { return "refused"; });
      });
    }, function () {
      return "stopped";
    });
  }

  // Sends `account`'s waiting entries in order, one at a time, across every tab and the service
  // worker at once (a Web Lock where the browser has them). A refused entry does not stop the
  // ones after it: each change is its own. Resolves to {sent, refused, stopped, waiting}.
  function send(account, csrf) {
    function run() {
      var result = { sent: 0, refused: 0, stopped: false, waiting: 0 };
      return list(account).then(function (entries) {
        var waiting = entries.filter(function (entry) { return entry.state === "waiting"; });
        var next = Promise.resolve();
        waiting.forEach(function (entry) {
          next = next.then(function () {
            if (result.stopped) { result.waiting += 1; return; }
            return sendOne(entry, csrf).then(function (outcome) {
              if (outcome === "sent") result.sent += 1;
              else if (outcome === "refused") result.refused += 1;
              else { result.stopped = true; result.waiting += 1; }
            });
          });
        });
        return next.then(function () { return result; });
      });
    }
    if (global.navigator && global.navigator.locks && global.navigator.locks.request) {
      return global.navigator.locks.request("kith-outbox", run);
    }
    return run();
  }

  global.KithOutboxStore = {
    list: list,
    add: add,
    put: put,
    remove: remove,
    clear: clear,
    send: send,
    getMeta: getMeta,
    setMeta: setMeta,
    sentenceIn: sentenceIn
  };
})(self);
