// Kith's service worker, served as /sw.js so that it controls every page (WebAppShell.swift writes
// the shell's version in). It makes the web app usable without a connection:
// - the shell (styles, scripts, icons) is kept per version, and served from here;
// - each page a person opens is kept for their account (the `Kith-Account` header names it) and
//   shown, with a banner, when the server cannot be reached; a page never opened says so;
// - a form sent without a connection is kept in the outbox (outbox-store.js) and the person is
//   taken back to the page it came from, which shows the change as waiting; it is sent when the
//   connection is back (pages send it on load and on `online`, this worker on Background Sync);
// - a push message is shown as a notification, and a tap on it opens its page.
/* global KithOutboxStore */
"use strict";

importScripts("/static/outbox-store.js");

var VERSION = "__KITH_SHELL_VERSION__";
var SHELL = "kith-shell-" + VERSION;
var PAGES = "kith-pages-";
// Pages kept per account; the oldest go first.
var MOST_PAGES = 150;
// How long a page may take before the kept copy is shown instead (a train's weak signal).
var PAGE_PATIENCE_MS = 6000;

var SHELL_FILES = [
  "/static/app.css", "/static/app.js", "/static/outbox-store.js", "/static/offline.js", "/static/live.js",
  "/static/home.js", "/static/food.js", "/static/outreach.js", "/static/family.js",
  "/static/contacts.js", "/static/contact.js", "/static/contacts-kit.js", "/static/contact-form.js",
  "/static/contact-editor.js", "/static/contact-sections.js", "/static/contact-addresses.js",
  "/static/address-lines.js", "/static/tile-map.js",
  "/static/icon.svg", "/static/icons/icon-192.png", "/static/icons/icon-512.png",
  "/static/icons/icon-maskable-512.png", "/manifest.webmanifest"
];

// Forms a person may send offline: the apps' changes, each applied once under its write key.
// Signing in or out, and account settings, need the server there and then.
var QUEUED_FORMS = /^\/(food|outreach|family)\//;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) {
    // Past the HTTP cache: a new version must not keep an hour-old script.
    return cache.addAll(SHELL_FILES.map(function (path) { return new Request(path, { cache: "reload" }); }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("kith-shell-") === 0 && name !== SHELL;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

// ---- The account whose pages are shown -------------------------------------------------------

function currentAccount() {
  return KithOutboxStore.getMeta("account").then(function (account) { return account || ""; });
}

// The server named who is signed in (or nobody): remember it, and drop every other account's
// pages, so a person signing in after another never sees the other's.
function learnAccount(account) {
  return currentAccount().then(function (known) {
    if (known === account) return;
    return KithOutboxStore.setMeta("account", account).then(function () {
      if (!account) return;
      return caches.keys().then(function (names) {
        return Promise.all(names.filter(function (name) {
          return name.indexOf(PAGES) === 0 && name !== PAGES + account;
        }).map(function (name) { return caches.delete(name); }));
      });
    });
  });
}

// ---- Pages ---------------------------------------------------------------------------------

// `response` is a copy made before the page went to the browser, which reads the original's body.
function keep(request, response, account) {
  return response.blob().then(function (body) {
    var headers = new Headers(response.headers);
    headers.set("Kith-Kept-At", String(Date.now()));
    return caches.open(PAGES + account).then(function (cache) {
      return cache.put(request.url, new Response(body, { status: response.status, headers: headers }))
        .then(function () { return cache.keys(); })
        .then(function (keys) {
          return Promise.all(keys.slice(0, Math.max(0, keys.length - MOST_PAGES)).map(function (key) {
            return cache.delete(key);
          }));
        });
    });
  });
}

// Looking never creates the account's cache (caches.open would): one deleted at sign-out stays gone.
function kept(url, account) {
  if (!account) return Promise.resolve(null);
  return caches.match(url, { cacheName: PAGES + account }).then(function (copy) { return copy || null; });
}

// A kept page, marked as shown offline: offline.js reads the mark and says since when.
function shownOffline(response) {
  var at = response.headers.get("Kith-Kept-At") || "";
  return response.text().then(function (html) {
    var marked = html.replace("<head>", '<head>\n<meta name="kith-offline-at" content="' + at + '">');
    var headers = new Headers(response.headers);
    headers.set("Cache-Control", "no-store");
    return new Response(marked, { status: 200, headers: headers });
  });
}

function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, function (c) {
    return { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }[c];
  });
}

// The page for an address never opened while the server could be reached: what is available.
function notKept(url, account) {
  var listing = account
    ? caches.has(PAGES + account).then(function (exists) {
      return exists ? caches.open(PAGES + account) : null;
    }).then(function (cache) {
      if (!cache) return [];
      return cache.keys().then(function (keys) {
        return Promise.all(keys.map(function (key) {
          return cache.match(key).then(function (response) {
            // The Contacts pages' /api reads are kept in the same place; only pages are listed.
            if ((response.headers.get("Content-Type") || "").indexOf("text/html") !== 0) return null;
            return response.text().then(function (html) {
              var title = /<title>([^<]*)<\/title>/.exec(html);
              var path = new URL(key.url).pathname + new URL(key.url).search;
              return { path: path, title: title ? title[1] : path };
            });
          });
        }));
      });
    })
    : Promise.resolve([]);
  return listing.then(function (found) {
    // One link a title: the same page kept under several addresses (after a form, with its notice).
    var byTitle = {};
    found.forEach(function (page) {
      if (page && (!byTitle[page.title] || page.path.length < byTitle[page.title].path.length)) byTitle[page.title] = page;
    });
    var pages = Object.keys(byTitle).sort().map(function (title) { return byTitle[title]; });
    var items = pages.map(function (page) {
      return '<li><a href="' + escapeHTML(page.path) + '">' + page.title + "</a></li>";
    }).join("");
    var html = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" +
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
      "<meta name=\"color-scheme\" content=\"light dark\">" +
      "<title>Not available offline · Kith</title><link rel=\"stylesheet\" href=\"/static/app.css\">" +
      "<link rel=\"manifest\" href=\"/manifest.webmanifest\"></head><body><main id=\"main\" class=\"stack\">" +
      "<div class=\"card\" id=\"not-kept\"><h1>Not available offline</h1>" +
      "<p>The server cannot be reached, and " + escapeHTML(new URL(url).pathname) +
      " was not opened on this device before, so there is no copy of it here.</p>" +
      (items
        ? "<h2>Pages you can open offline</h2><ul id=\"kept-pages\">" + items + "</ul>"
        : "<p id=\"no-kept-pages\">No page has been kept on this device yet: pages are kept once you open them online.</p>") +
      "<p><a class=\"btn btn-primary\" href=\"" + escapeHTML(url) + "\">Try again</a></p></div></main></body></html>";
    return new Response(html, {
      status: 503, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }
    });
  });
}

function withPatience(promise, ms) {
  return new Promise(function (resolve, reject) {
    var timer = setTimeout(function () { reject(new Error("slow")); }, ms);
    promise.then(function (value) { clearTimeout(timer); resolve(value); },
      function (error) { clearTimeout(timer); reject(error); });
  });
}

// Network first; the server's page is kept for its account. Without an answer (or a slow one when
// a copy is kept), the kept copy; without a copy, the list of what is.
function page(event) {
  var request = event.request;
  var fromNetwork = fetch(request).then(function (response) {
    var account = response.headers.get("Kith-Account") || "";
    var isHTML = (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
    if (isHTML && response.status === 200 && new URL(response.url).origin === self.location.origin) {
      var copy = response.clone();
      event.waitUntil(learnAccount(account).then(function () {
        if (account && !response.redirected) return keep(request, copy, account);
      }));
    }
    return response;
  });
  return currentAccount().then(function (account) {
    return kept(request.url, account).then(function (copy) {
      var attempt = copy ? withPatience(fromNetwork, PAGE_PATIENCE_MS) : fromNetwork;
      return attempt.catch(function () {
        if (copy) return shownOffline(copy);
        return notKept(request.url, account);
      });
    });
  });
}

// A form sent while the server cannot be reached: kept for its account with its write key, and
// the person goes back to the page it came from, which shows it waiting.
function form(event) {
  var request = event.request;
  var copy = request.clone();
  return fetch(request).catch(function () {
    var path = new URL(request.url).pathname;
    var from = request.referrer && new URL(request.referrer).origin === self.location.origin
      ? request.referrer : "/";
    return currentAccount().then(function (account) {
      if (!account || !QUEUED_FORMS.test(path)) return cannotSend(from);
      return copy.text().then(function (body) {
        return KithOutboxStore.add({
          account: account, action: path + new URL(request.url).search, body: body, page: from,
          key: new URLSearchParams(body).get("_key") || ""
        });
      }).then(function () {
        if (self.registration.sync) return self.registration.sync.register("kith-outbox").catch(function () {});
      }).then(function () {
        return Response.redirect(from, 303);
      });
    });
  });
}

function cannotSend(from) {
  var html = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" +
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
    "<title>Not sent · Kith</title><link rel=\"stylesheet\" href=\"/static/app.css\"></head>" +
    "<body><main id=\"main\" class=\"stack\"><div class=\"card\" id=\"not-sent\"><h1>Not sent</h1>" +
    "<p>The server cannot be reached, and this needs it there and then: try again once the connection is back.</p>" +
    "<p><a class=\"btn btn-primary\" href=\"" + escapeHTML(from) + "\">Back</a></p></div></main></body></html>";
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

// The Contacts pages read /api: what they read is kept too, and given back offline.
function apiRead(event) {
  var request = event.request;
  return fetch(request).then(function (response) {
    if (response.status === 200) {
      var copy = response.clone();
      event.waitUntil(currentAccount().then(function (account) {
        if (!account) return;
        return caches.open(PAGES + account).then(function (cache) { return cache.put(request, copy); });
      }));
    }
    return response;
  }, function (error) {
    return currentAccount().then(function (account) { return kept(request, account); }).then(function (copy) {
      if (copy) return copy;
      throw error;
    });
  });
}

function shellFile(request) {
  return caches.open(SHELL).then(function (cache) {
    return cache.match(request, { ignoreSearch: true }).then(function (copy) {
      return copy || fetch(request);
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (request.method === "GET") event.respondWith(page(event));
    else if (request.method === "POST") event.respondWith(form(event));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.indexOf("/static/") === 0 || url.pathname === "/manifest.webmanifest") {
    event.respondWith(shellFile(request));
  } else if (url.pathname.indexOf("/api/") === 0) {
    event.respondWith(apiRead(event));
  }
});

// ---- Background Sync -----------------------------------------------------------------------

self.addEventListener("sync", function (event) {
  if (event.tag !== "kith-outbox") return;
  event.waitUntil(currentAccount().then(function (account) {
    if (!account) return;
    return KithOutboxStore.send(account).then(function (result) {
      return self.clients.matchAll({ type: "window" }).then(function (windows) {
        windows.forEach(function (client) { client.postMessage({ type: "kith-outbox-sent", result: result }); });
      }).then(function () {
        // Asked to run again later when the server was still away.
        if (result.stopped) throw new Error("the server is still unreachable");
      });
    });
  }));
});

self.addEventListener("message", function (event) {
  var message = event.data || {};
  if (message.type === "kith-forget-account") {
    event.waitUntil(caches.delete(PAGES + message.account).then(function () {
      return KithOutboxStore.setMeta("account", "");
    }));
  }
});

// ---- Push ------------------------------------------------------------------------------------

self.addEventListener("push", function (event) {
  var notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (error) {
    notice = { title: "Kith", body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(self.registration.showNotification(notice.title || "Kith", {
    body: notice.body || "",
    icon: "/static/icons/icon-192.png",
    badge: "/static/icons/icon-192.png",
    tag: notice.tag || undefined,
    renotify: Boolean(notice.tag),
    timestamp: notice.at ? Date.parse(notice.at) || undefined : undefined,
    data: { url: notice.url || "/family/notices" }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i += 1) {
      if (new URL(windows[i].url).pathname === target.pathname && "focus" in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(target.href);
  }));
});
