// The web app offline, on the page's side (sw.js is the service worker's): registers the worker,
// says when a page is a kept copy, shows the changes waiting in the outbox (outbox-store.js) and
// the ones the server refused, sends them when the server is back, and empties this account's
// copies and outbox when the person signs out. Page scripts draw waiting changes on their items
// through window.KithOffline.
(function () {
  "use strict";

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
      // Without a worker (a private window may refuse one) the app works online as before.
    });
  }

  function metaContent(name) {
    var meta = document.querySelector('meta[name="' + name + '"]');
    return meta ? meta.getAttribute("content") : "";
  }

  var account = metaContent("kith-account");
  var offlineAt = parseInt(metaContent("kith-offline-at"), 10) || 0;
  var listeners = [];
  var entries = [];
  var sending = false;
  var usable = Boolean(account && window.indexedDB && window.KithOutboxStore);

  // ---- What a change is, in words --------------------------------------------------------------

  function describe(entry) {
    var fields = entry.fields;
    var path = entry.action.split("?")[0];
    if (path === "/food/items" && fields.get("name")) return "Log " + fields.get("name");
    if (/^\/food\/items\/[^/]+\/delete$/.test(path)) return "Delete a food";
    if (/^\/food\/items\/[^/]+$/.test(path)) return "Edit " + (fields.get("name") || "a food");
    if (/^\/food\/meals\/[^/]+\/log$/.test(path)) return "Log a meal";
    if (path === "/food/goal") return "Set the daily goal to " + fields.get("dailyCalories") + " kcal";
    if (path === "/outreach/delivered" && fields.get("set")) {
      return fields.get("set").split(":")[1] === "true" ? "Mark delivered" : "Mark not delivered";
    }
    if (/^\/family\/reminders\/[^/]+\/complete$/.test(path)) return "Complete a reminder";
    return "A change on " + (entry.page ? new URL(entry.page, location.href).pathname : path);
  }

  function withFields(entry) {
    entry.fields = new URLSearchParams(entry.body);
    entry.description = describe(entry);
    return entry;
  }

  // ---- The banner ----------------------------------------------------------------------------

  function two(number) { return (number < 10 ? "0" : "") + number; }
  function clock(ms) {
    var date = new Date(ms);
    var time = two(date.getHours()) + ":" + two(date.getMinutes());
    var today = new Date();
    if (date.toDateString() === today.toDateString()) return "at " + time;
    return "on " + (window.KithTime ? window.KithTime.day(date) : date.toDateString()) + " at " + time;
  }

  function plural(count, one, many) { return count + " " + (count === 1 ? one : many); }

  function button(text, className, onClick) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = "btn btn-small " + className;
    element.textContent = text;
    element.addEventListener("click", onClick);
    return element;
  }

  // Try again / Discard for a refused change.
  function refusedActions(entry) {
    var actions = document.createElement("span");
    actions.className = "outbox-actions";
    actions.appendChild(button("Try again", "btn-secondary outbox-retry", function () { retry(entry.seq); }));
    actions.appendChild(button("Discard", "btn-danger-outline outbox-discard", function () { discard(entry.seq); }));
    return actions;
  }

  function banner() {
    var element = document.getElementById("offline-banner");
    // Inside the page's column when it has one (every app page's .stack), else atop <main>.
    var main = document.querySelector("#main > .stack") || document.getElementById("main");
    if (!main) return;
    var waiting = entries.filter(function (entry) { return entry.state === "waiting"; }).length;
    var refusedAll = entries.filter(function (entry) { return entry.state === "refused"; });
    // A refused change the page shows on its item (mark) is not listed here a second time.
    var refused = refusedAll.filter(function (entry) {
      return !document.querySelector('.outbox-mark[data-outbox-seq="' + entry.seq + '"]');
    });
    var shownOnItems = refusedAll.length - refused.length;
    if (!offlineAt && !waiting && !refusedAll.length) {
      if (element) element.remove();
      return;
    }
    if (!element) {
      element = document.createElement("section");
      element.id = "offline-banner";
      element.className = "offline-banner";
      element.setAttribute("aria-label", "Offline");
      main.insertBefore(element, main.firstChild);
    }
    element.textContent = "";
    var line = document.createElement("p");
    line.id = "offline-status";
    line.setAttribute("role", "status");
    var text = offlineAt ? "Offline: showing what you had " + clock(offlineAt) : "";
    if (waiting) {
      text += (text ? "; " : "") + plural(waiting, "change", "changes") + " waiting" +
        (offlineAt ? "" : " to be sent when the server is back");
    }
    if (shownOnItems) {
      text += (text ? "; " : "") + plural(shownOnItems, "change was", "changes were") + " not saved: see " +
        (shownOnItems === 1 ? "it" : "each") + " below";
    }
    line.textContent = (text || "Some changes were not saved") + ".";
    element.appendChild(line);
    if (refused.length) {
      var list = document.createElement("ul");
      list.className = "outbox-refused";
      list.id = "outbox-refused";
      refused.forEach(function (entry) {
        var item = document.createElement("li");
        item.setAttribute("data-outbox-seq", entry.seq);
        var what = document.createElement("span");
        what.className = "outbox-sentence";
        what.textContent = "Not saved: " + entry.description + ". " + entry.sentence;
        item.appendChild(what);
        item.appendChild(refusedActions(entry));
        list.appendChild(item);
      });
      element.appendChild(list);
    }
  }

  // ---- The outbox ----------------------------------------------------------------------------

  function refresh() {
    if (!usable) return Promise.resolve([]);
    return window.KithOutboxStore.list(account).then(function (found) {
      entries = found.map(withFields);
      listeners.forEach(function (listener) { listener(entries); });
      banner();
      return entries;
    });
  }

  function csrf() {
    var input = document.querySelector('input[name="_csrf"]');
    return (input && input.value) || metaContent("csrf-token");
  }

  // Sends what waits. A page shown from a kept copy is read again from the server once its
  // changes are in, so it shows the server's truth (not when signing out: that leaves the page).
  function send(leaving) {
    if (!usable || sending) return Promise.resolve(null);
    if (!entries.some(function (entry) { return entry.state === "waiting"; })) return Promise.resolve(null);
    sending = true;
    return window.KithOutboxStore.send(account, csrf()).then(function (result) {
      sending = false;
      return refresh().then(function () {
        if (result.sent) {
          window.dispatchEvent(new CustomEvent("kith-outbox-sent", { detail: result }));
          if (offlineAt && !result.stopped && leaving !== true) window.location.reload();
        }
        return result;
      });
    }, function () {
      sending = false;
      return null;
    });
  }

  function askToSendLater() {
    if (!navigator.serviceWorker) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.sync) return registration.sync.register("kith-outbox");
    }).catch(function () {});
  }

  // A change a page script sends itself (a tick saved with fetch) that could not reach the server.
  function queue(action, body, accept) {
    if (!usable) return Promise.reject(new Error("This browser cannot keep changes offline."));
    var target = new URL(action, location.href);
    return window.KithOutboxStore.add({
      account: account, action: target.pathname + target.search, body: body.toString(), accept: accept || "text/html",
      page: location.pathname + location.search, key: body.get("_key") || ""
    }).then(function () {
      askToSendLater();
      return refresh();
    });
  }

  function retry(seq) {
    var entry = entries.find(function (each) { return each.seq === seq; });
    if (!entry) return;
    entry.state = "waiting";
    delete entry.sentence;
    var stored = Object.assign({}, entry);
    delete stored.fields;
    delete stored.description;
    window.KithOutboxStore.put(stored).then(refresh).then(function () { return send(); });
  }

  function discard(seq) {
    window.KithOutboxStore.remove(seq).then(refresh).then(function () {
      // A kept copy drew the discarded change as waiting: read it again without it.
      if (offlineAt) return;
      window.dispatchEvent(new CustomEvent("kith-outbox-sent", { detail: { discarded: 1 } }));
    });
  }

  // Marks `element` (a food, a person's row, a reminder) with its change's state: waiting, or
  // refused with the server's sentence and Try again / Discard.
  function mark(element, entry) {
    if (!element) return;
    var existing = element.querySelector(".outbox-mark");
    if (existing) existing.remove();
    element.classList.toggle("is-waiting", entry.state === "waiting");
    element.classList.toggle("is-refused", entry.state === "refused");
    var note = document.createElement("span");
    note.className = "outbox-mark";
    note.setAttribute("data-outbox-seq", entry.seq);
    var text = document.createElement("span");
    text.className = "outbox-mark-text";
    text.textContent = entry.state === "refused" ? "Not saved: " + entry.sentence : "Waiting to be sent";
    note.appendChild(text);
    if (entry.state === "refused") note.appendChild(refusedActions(entry));
    element.appendChild(note);
  }

  // Removes every mark `mark` made under `scope`, before a page draws its outbox again.
  function unmark(scope) {
    (scope || document).querySelectorAll(".outbox-mark").forEach(function (note) {
      var owner = note.parentElement;
      note.remove();
      if (owner) owner.classList.remove("is-waiting", "is-refused");
    });
  }

  // ---- Signing out ---------------------------------------------------------------------------

  function forgetAccount() {
    var steps = [window.KithOutboxStore.clear(account)];
    if (window.caches) steps.push(window.caches.delete("kith-pages-" + account));
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "kith-forget-account", account: account });
    }
    return Promise.all(steps).catch(function () {});
  }

  function signOutDialog(form, waiting) {
    var dialog = document.createElement("dialog");
    dialog.className = "dialog";
    dialog.id = "signout-dialog";
    dialog.setAttribute("aria-labelledby", "signout-dialog-title");
    var title = document.createElement("h2");
    title.id = "signout-dialog-title";
    title.textContent = plural(waiting, "change is", "changes are") + " not sent yet";
    var text = document.createElement("p");
    text.id = "signout-dialog-text";
    text.textContent = "Signing out removes this account's pages and waiting changes from this browser.";
    var actions = document.createElement("div");
    actions.className = "dialog-actions";
    function leave() { forgetAccount().then(function () { form.submit(); }); }
    actions.appendChild(button("Cancel", "btn-secondary", function () { dialog.close(); }));
    actions.appendChild(button("Discard them and sign out", "btn-danger-outline", leave));
    var sendButton = button("Send them, then sign out", "btn-primary", function () {
      sendButton.disabled = true;
      text.textContent = "Sending…";
      send(true).then(function (result) {
        sendButton.disabled = false;
        var left = entries.length;
        if (!left) return leave();
        text.textContent = result && result.stopped
          ? "The server cannot be reached: " + plural(left, "change is", "changes are") +
            " still waiting. Sign out later, or discard them."
          : plural(left, "change was", "changes were") + " refused: see each one on the page, or discard them.";
      });
    });
    actions.appendChild(sendButton);
    dialog.appendChild(title);
    dialog.appendChild(text);
    dialog.appendChild(actions);
    document.body.appendChild(dialog);
    dialog.addEventListener("close", function () { dialog.remove(); });
    dialog.showModal();
    sendButton.focus();
  }

  function guardSignOut() {
    var form = document.getElementById("signout-form");
    if (!form || !usable) return;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      refresh().then(function () {
        if (entries.length) signOutDialog(form, entries.length);
        else forgetAccount().then(function () { form.submit(); });
      });
    });
  }

  window.KithOffline = {
    usable: usable,
    offlineAt: offlineAt,
    // listener(entries): now and whenever the outbox changes; each entry has `fields`
    // (URLSearchParams), `action`, `state` ("waiting" or "refused") and `sentence`.
    onChange: function (listener) {
      listeners.push(listener);
      listener(entries);
    },
    queue: queue,
    send: send,
    mark: mark,
    unmark: unmark
  };

  function ready(fn) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn);
    else fn();
  }

  ready(function () {
    guardSignOut();
    if (!usable) {
      banner();
      return;
    }
    // Page scripts run after this one (deferred in order): they add listeners, then see the outbox.
    window.setTimeout(function () { refresh().then(function () { return send(); }); }, 0);
    window.addEventListener("online", function () { send(); });
    if (navigator.serviceWorker) {
      navigator.serviceWorker.addEventListener("message", function (event) {
        if (event.data && event.data.type === "kith-outbox-sent") {
          refresh().then(function () {
            if (offlineAt && event.data.result && event.data.result.sent) window.location.reload();
          });
        }
      });
    }
    // The server may come back without the browser noticing a change of network (it was the
    // server that was down): try again now and then while something waits.
    window.setInterval(function () {
      if (document.visibilityState === "visible") send();
    }, 15000);
  });
})();
