// Family pages: the browser's time zone for a new family, the repeat's next dates as the form
// changes (GET /family/reminders/occurrences), "Use my location" for a reminder's place, and live
// updates from /v1/live: changed parts read again, new notices shown at once (and as browser
// notifications when the person allowed them), and the undo of a completion taken away when its
// 30 s are up. app.js adds checklist rows.
// Without this file every action still works through plain forms (the preview has its button).
(function () {
  "use strict";

  document.documentElement.classList.add("js");
  var root = document.getElementById("family-page");
  if (!root) return;

  setUpZone();
  setUpRepeatChoice();
  setUpPlaceChoice();
  setUpPreview();
  setUpLocation();
  setUpPush();
  setUpLive();
  setUpUndo();
  setUpOutbox();

  // ---------------------------------------------------------------------------------------------
  // A new family's time zone: the browser's, unless the server already knew it (kith_tz).

  function setUpZone() {
    var zone = window.KithTime.zone;  // app.js keeps it in the kith_tz cookie
    if (!zone) return;
    var field = document.getElementById("create-timeZone");
    if (!field || field.dataset.zoneKnown === "true") return;
    var list = document.getElementById("time-zones");
    var known = list && Array.prototype.some.call(list.options, function (option) { return option.value === zone; });
    if (known) field.value = zone;
  }

  // ---------------------------------------------------------------------------------------------
  // "Repeats": only the parts the choice uses are shown (the server renders them all, so the form
  // works without this), and the interval says days, weeks or months with that frequency's bounds.
  // Hidden parts are still sent; the server reads only what the frequency uses.

  function setUpRepeatChoice() {
    var select = document.getElementById("reminder-repeatFrequency");
    var card = document.getElementById("repeat-card");
    if (!select || !card) return;
    var interval = document.getElementById("reminder-repeatInterval");
    var unit = document.getElementById("repeat-unit");
    function apply() {
      var chosen = select.value;
      card.dataset.repeats = chosen;
      Array.prototype.forEach.call(card.querySelectorAll("[data-repeat-part]"), function (part) {
        part.hidden = part.dataset.repeatPart.split(" ").indexOf(chosen) < 0;
      });
      if (interval && interval.dataset[chosen + "Max"]) {
        interval.max = interval.dataset[chosen + "Max"];
        if (unit) unit.textContent = interval.dataset[chosen + "Unit"];
      }
    }
    // Typing a day of the month, or choosing a weekday's place, picks that kind of monthly repeat.
    [["reminder-repeatMonthDay", "repeat-monthly-day"], ["reminder-repeatOrdinal", "repeat-monthly-weekday"],
      ["reminder-repeatWeekday", "repeat-monthly-weekday"]].forEach(function (pair) {
      var field = document.getElementById(pair[0]);
      var radio = document.getElementById(pair[1]);
      if (!field || !radio) return;
      field.addEventListener("input", function () { radio.checked = true; });
      field.addEventListener("change", function () { radio.checked = true; });
    });
    select.addEventListener("change", apply);
    apply();
  }

  // ---------------------------------------------------------------------------------------------
  // The place's fields only while "At a place" is chosen (or a refusal is about them). The server
  // renders them shown, so the form works without this; a link to #place-card (a notice's "Set
  // the place") chooses it.

  function setUpPlaceChoice() {
    var fields = document.getElementById("place-fields");
    var place = document.getElementById("where-place");
    var anywhere = document.getElementById("where-anywhere");
    if (!fields || !place || !anywhere) return;
    if (window.location.hash === "#place-card") place.checked = true;
    function apply() { fields.hidden = !place.checked && fields.dataset.hasErrors !== "true"; }
    place.addEventListener("change", function () {
      apply();
      if (place.checked) document.getElementById("reminder-latitude").focus();
    });
    anywhere.addEventListener("change", function () {
      delete fields.dataset.hasErrors;
      apply();
    });
    apply();
  }

  // ---------------------------------------------------------------------------------------------
  // The repeat's next dates, asked of the server (it counts them in the family's zone).

  function setUpPreview() {
    var form = document.getElementById("reminder-form");
    var preview = document.getElementById("occurrence-preview");
    if (!form || !preview) return;
    var names = /^(repeat\.[A-Z]{2}|repeatFrequency|repeatInterval|repeatStart|repeatTime|repeatMonthly|repeatMonthDay|repeatOrdinal|repeatWeekday)$/;
    var timer = null;
    var latest = 0;

    function show(answer) {
      preview.textContent = "";
      if (answer.error) {
        var problem = document.createElement("p");
        problem.className = "field-error";
        problem.id = "preview-error";
        problem.textContent = answer.error;
        preview.appendChild(problem);
      } else if (!answer.occurrences || !answer.occurrences.length) {
        var none = document.createElement("p");
        none.className = "hint";
        none.id = "no-occurrences";
        none.textContent = "Choose how it repeats to see when it comes next.";
        preview.appendChild(none);
      } else {
        var list = document.createElement("ol");
        list.className = "occurrence-list";
        list.id = "occurrence-list";
        list.setAttribute("aria-labelledby", "occurrences-heading");
        answer.occurrences.forEach(function (text) {
          var item = document.createElement("li");
          item.textContent = text;
          list.appendChild(item);
        });
        preview.appendChild(list);
      }
    }

    function refresh() {
      var query = new URLSearchParams();
      Array.prototype.forEach.call(form.elements, function (field) {
        if (!names.test(field.name)) return;
        if ((field.type === "checkbox" || field.type === "radio") && !field.checked) return;
        query.append(field.name, field.value);
      });
      var ticket = ++latest;
      fetch("/family/reminders/occurrences?" + query.toString(), { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) { return response.ok ? response.json() : Promise.reject(new Error(String(response.status))); })
        .then(function (answer) { if (ticket === latest) show(answer); })
        .catch(function () { /* the Preview button still works, and saving shows any problem */ });
    }

    function changed(event) {
      if (!event.target || !names.test(event.target.name || "")) return;
      window.clearTimeout(timer);
      timer = window.setTimeout(refresh, 250);
    }
    form.addEventListener("input", changed);
    form.addEventListener("change", changed);
  }

  // ---------------------------------------------------------------------------------------------
  // Undo: the server draws the button with the seconds left; counted from when it arrived (a
  // live refresh may draw it again), so the device's clock does not matter. Sent late, the
  // server refuses it anyway and says why.

  function setUpUndo() {
    if (root.dataset.page !== "reminder") return;
    window.setInterval(function () {
      Array.prototype.forEach.call(document.querySelectorAll("[data-seconds-left]"), function (form) {
        if (!form.dataset.deadline) form.dataset.deadline = String(Date.now() + Number(form.dataset.secondsLeft) * 1000);
        if (Date.now() >= Number(form.dataset.deadline)) form.remove();
      });
    }, 500);
  }

  // ---------------------------------------------------------------------------------------------
  // Live: another member changed something; the lists and the reminder are read again in place
  // (forms being typed in are left alone).

  function setUpLive() {
    if (!window.KithLive) return;
    var parts = {
      home: ["reminders", "family-summary"],
      reminder: ["reminder-detail"],
      members: ["members", "codes-list"],
      notices: ["notices"]
    }[root.dataset.page] || [];
    var setStatus = KithLive.statusLine(document.getElementById("sync-status"));
    function here() { return window.location.pathname + window.location.search; }
    var toasts = noticeToasts();
    KithLive.onNotice(function (sent) {
      var notice = onThisClock(sent);
      toasts.show(notice);
      countUnread(1);
      showAsBrowserNotification(notice);
      if (root.dataset.page === "notices") KithLive.refreshParts(here(), parts).catch(function () {});
    });
    if (parts.length) KithLive.followParts(setStatus, here, parts, drawOutbox);
    else KithLive.follow(setStatus, function () { /* nothing on this page follows changes */ });
    // Changes sent from the outbox (or one discarded): the server's state replaces the waiting one.
    window.addEventListener("kith-outbox-sent", function () {
      if (parts.length) KithLive.refreshParts(here(), parts).then(drawOutbox).catch(function () {});
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Offline: a reminder completed while the server could not be reached waits in the outbox
  // (offline.js); it shows completed, marked waiting (or refused, with the server's sentence).

  var waitingEntries = [];

  function setUpOutbox() {
    if (!window.KithOffline) return;
    window.KithOffline.onChange(function (entries) {
      waitingEntries = entries;
      drawOutbox();
    });
  }

  function drawOutbox() {
    if (!window.KithOffline) return;
    window.KithOffline.unmark(root);
    waitingEntries.forEach(function (entry) {
      var completed = /^\/family\/reminders\/([^/]+)\/complete$/.exec(entry.action.split("?")[0]);
      if (!completed) return;
      // Its row in a list, or the reminder's own page.
      var item = document.getElementById("reminder-" + completed[1]) ||
        (location.pathname === "/family/reminders/" + completed[1] && document.getElementById("reminder-detail"));
      if (!item) return;
      if (entry.state === "waiting") {
        item.classList.add("is-completed");
        var badge = item.querySelector(".badge");
        if (badge) {
          badge.textContent = "Completed";
          badge.className = "badge status-completed";
        }
        item.querySelectorAll(".complete-form").forEach(function (form) { form.hidden = true; });
      }
      var place = item.querySelector(".reminder-main") || item;
      window.KithOffline.mark(place, entry);
    });
  }

  // ---------------------------------------------------------------------------------------------
  // A live notice's words keep their moments ("{time:ms}", "{day:ms}"); the socket does not know
  // the reader's zone, so they are written here on the browser's clock, as the notices page does.
  function onThisClock(notice) {
    if (!notice.wording) return notice;
    var days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    function two(n) { return (n < 10 ? "0" : "") + n; }
    function words(text) {
      return text.replace(/\{(time|day):(-?\d+)\}/g, function (_, kind, millis) {
        var at = new Date(Number(millis));
        var clock = two(at.getHours()) + ":" + two(at.getMinutes());
        return kind === "day" ? days[at.getDay()] + " " + clock : clock;
      });
    }
    var copy = Object.assign({}, notice);
    copy.title = words(notice.wording.title);
    copy.body = words(notice.wording.body);
    return copy;
  }

  // New notices: a small region at the foot of the window (on a phone, at the top of the page),
  // announced politely; each notice stays until dismissed (its button, or Escape), at most three
  // at once.

  function noticeToasts() {
    var region = document.createElement("div");
    region.className = "notice-toasts";
    region.id = "notice-toasts";
    region.setAttribute("role", "region");
    region.setAttribute("aria-label", "New notices");
    var list = document.createElement("div");
    list.setAttribute("role", "status");
    list.setAttribute("aria-live", "polite");
    region.appendChild(list);
    // In the page's flow, under its header: on a phone the region is part of the page there
    // (app.css), so a notice pushes the buttons down instead of lying over them; wider, it floats
    // at the foot of the window.
    var header = root.querySelector(".page-header");
    root.insertBefore(region, header ? header.nextSibling : root.firstChild);

    function dismiss(toast) {
      var hadFocus = toast.contains(document.activeElement);
      toast.remove();
      if (hadFocus) (list.lastElementChild && list.lastElementChild.querySelector("button") || document.getElementById("main")).focus();
    }

    document.addEventListener("keydown", function (event) {
      if (event.key !== "Escape" || !list.lastElementChild) return;
      var target = event.target;
      var typing = target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName) && !region.contains(target);
      if (typing) return;
      var toast = region.contains(target) && target.closest(".notice-toast") || list.lastElementChild;
      dismiss(toast);
    });

    return {
      show: function (notice) {
        var toast = document.createElement("div");
        toast.className = "notice-toast";
        toast.id = "toast-" + notice.id;
        toast.dataset.kind = notice.kind;
        var text = document.createElement("div");
        text.className = "notice-toast-text";
        var title = document.createElement("a");
        title.className = "notice-toast-title";
        title.href = "/family/reminders/" + encodeURIComponent(notice.reminderId);
        title.textContent = notice.title;
        var body = document.createElement("span");
        body.className = "notice-toast-body";
        body.textContent = notice.body + (notice.late ? " (late)" : "");
        text.appendChild(title);
        text.appendChild(body);
        var close = document.createElement("button");
        close.type = "button";
        close.className = "btn btn-secondary btn-small notice-toast-close";
        close.textContent = "Dismiss";
        close.setAttribute("aria-label", "Dismiss the notice " + notice.title);
        close.addEventListener("click", function () { dismiss(toast); });
        toast.appendChild(text);
        toast.appendChild(close);
        list.appendChild(toast);
        while (list.children.length > 3) list.firstElementChild.remove();
      }
    };
  }

  // The header's unread count, one more per notice that arrives (the server's count on the next page).
  function countUnread(more) {
    var badge = document.getElementById("nav-unread");
    if (!badge) return;
    var number = badge.querySelector(".nav-count-number");
    number.textContent = String((parseInt(number.textContent, 10) || 0) + more);
    badge.hidden = false;
  }

  // While this device has push turned on, its notices come as push notifications (sw.js shows
  // them): a notification from the page as well would show each twice.
  var pushOn = false;

  function browserNotificationsAllowed() {
    return !pushOn && "Notification" in window && Notification.permission === "granted";
  }

  function showAsBrowserNotification(notice) {
    if (!browserNotificationsAllowed()) return;
    try {
      var shown = new Notification(notice.title, { body: notice.body, tag: "kith-notice-" + notice.id });
      shown.addEventListener("click", function () {
        window.focus();
        window.location.assign("/family/reminders/" + encodeURIComponent(notice.reminderId));
      });
    } catch (error) { /* some browsers allow notifications only from a service worker: the page shows it */ }
  }

  // ---------------------------------------------------------------------------------------------
  // Notices on the lock screen: this device subscribes with its browser's push service (Web Push)
  // and gives the server the subscription (POST /v1/push/subscriptions, with the session and the
  // CSRF token); the server then pushes each notice to it, and sw.js shows it, page open or not.

  function base64urlToBytes(text) {
    var padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
    var raw = window.atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function csrfToken() {
    var input = document.querySelector('input[name="_csrf"]');
    return input ? input.value : "";
  }

  function pushAPI(method, path, body) {
    return fetch(path, {
      method: method, credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrfToken() },
      body: body ? JSON.stringify(body) : undefined
    }).then(function (response) {
      if (response.ok || response.status === 404) return response.status === 204 ? null : response.json().catch(function () { return null; });
      return response.json().then(function (answer) {
        throw new Error((answer && answer.error && answer.error.message) || "The server refused (" + response.status + ").");
      }, function () { throw new Error("The server refused (" + response.status + ")."); });
    });
  }

  var PUSH_PATIENCE_SECONDS = 10;

  function setUpPush() {
    var enable = document.getElementById("enable-push");
    var disable = document.getElementById("disable-push");
    var status = document.getElementById("push-status");
    if (!enable || !disable || !status) return;
    function say(text, canEnable, canDisable) {
      status.textContent = text;
      enable.hidden = !canEnable;
      disable.hidden = !canDisable;
    }
    var standalone = window.matchMedia && window.matchMedia("(display-mode: standalone)").matches;
    var apple = /iPhone|iPad|iPod/.test(navigator.userAgent);
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      say(apple && !standalone
        ? "On an iPhone or iPad, add Kith to the Home Screen first (Share, then Add to Home Screen) and turn notifications on from there."
        : "This browser can't show notices while Kith is closed; they still appear on every Family page while one is open.",
        false, false);
      return;
    }
    function current() {
      return navigator.serviceWorker.ready.then(function (registration) {
        return registration.pushManager.getSubscription().then(function (subscription) {
          return { registration: registration, subscription: subscription };
        });
      });
    }
    function show() {
      if (Notification.permission === "denied") {
        say("This browser blocks notifications from Kith; its site settings can allow them.", false, false);
        return Promise.resolve();
      }
      return current().then(function (found) {
        pushOn = Boolean(found.subscription);
        if (pushOn) say("Notifications are on for this device.", false, true);
        else say("", true, false);
      });
    }
    enable.addEventListener("click", function () {
      enable.disabled = true;
      say("Turning notifications on…", true, false);
      var asked = Notification.requestPermission();
      Promise.resolve(asked).then(function (permission) {
        if (permission !== "granted") throw new Error("Notifications were not allowed.");
        return Promise.all([current(), fetch("/v1/push/key", { credentials: "same-origin" }).then(function (response) {
          if (!response.ok) throw new Error("This server does not send notifications (" + response.status + ").");
          return response.json();
        })]);
      }).then(function (both) {
        var found = both[0];
        if (found.subscription) return found.subscription;
        // The browser asks its push service for an address; without an answer (no connection to
        // it) some browsers wait for good, so the page gives up after a while and says so.
        return new Promise(function (resolve, reject) {
          var timer = window.setTimeout(function () {
            reject(new Error("This browser could not reach its push service (no answer in " +
              PUSH_PATIENCE_SECONDS + " s). Check the connection and try again."));
          }, PUSH_PATIENCE_SECONDS * 1000);
          found.registration.pushManager.subscribe({
            userVisibleOnly: true, applicationServerKey: base64urlToBytes(both[1].publicKey)
          }).then(function (subscription) {
            window.clearTimeout(timer);
            resolve(subscription);
          }, function (error) {
            window.clearTimeout(timer);
            reject(new Error("This browser could not reach its push service (" + (error.message || error.name) + ")."));
          });
        });
      }).then(function (subscription) {
        var body = subscription.toJSON();
        return pushAPI("POST", "/v1/push/subscriptions", {
          endpoint: body.endpoint, keys: body.keys, expirationTime: body.expirationTime || null
        });
      }).then(show, function (error) {
        say(error.message, Notification.permission !== "denied", false);
      }).then(function () { enable.disabled = false; });
    });
    disable.addEventListener("click", function () {
      disable.disabled = true;
      current().then(function (found) {
        if (!found.subscription) return null;
        var endpoint = found.subscription.endpoint;
        return found.subscription.unsubscribe().then(function () {
          return pushAPI("DELETE", "/v1/push/subscriptions", { endpoint: endpoint });
        });
      }).then(show, function (error) { say(error.message, false, true); })
        .then(function () { disable.disabled = false; });
    });
    show();
  }

  // ---------------------------------------------------------------------------------------------
  // A reminder's place from the browser's location service; typing the numbers works without it.

  function setUpLocation() {
    var button = document.getElementById("use-my-location");
    var status = document.getElementById("location-status");
    if (!button || !status) return;
    if (!("geolocation" in navigator)) {
      button.hidden = true;
      status.textContent = "This browser can't tell where it is; type the numbers instead.";
      return;
    }
    var reasons = {
      1: "The browser was not allowed to tell where it is.",
      2: "The browser could not find where it is.",
      3: "Finding the place took too long. Try again."
    };
    button.addEventListener("click", function () {
      button.disabled = true;
      status.textContent = "Finding where you are…";
      navigator.geolocation.getCurrentPosition(function (position) {
        document.getElementById("reminder-latitude").value = position.coords.latitude.toFixed(6);
        document.getElementById("reminder-longitude").value = position.coords.longitude.toFixed(6);
        document.getElementById("reminder-locationAccuracy").value = String(Math.round(position.coords.accuracy));
        status.textContent = "Filled in: within " + Math.round(position.coords.accuracy) + " m. Save to keep it.";
        button.disabled = false;
      }, function (problem) {
        status.textContent = reasons[problem.code] || "The place could not be found.";
        button.disabled = false;
      }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 });
    });
  }
})();
