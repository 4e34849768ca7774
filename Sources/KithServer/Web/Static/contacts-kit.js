// What the Contacts pages share: calling the server's Monica-compatible /api with the session
// cookie, the seed's error messages, relative dates, and building DOM without innerHTML (every
// value comes from the user's data, so it only ever goes into textContent and attributes).
(function () {
  "use strict";

  var TIMEOUT_MS = 10000;
  var csrfMeta = document.querySelector('meta[name="csrf-token"]');

  // Seed 004, story 9: what a person is told, by what went wrong.
  var MESSAGES = {
    offline: "Cannot connect. Check your internet and try again.",
    unauthenticated: "Your session expired. Please log in again.",
    rateLimited: "Too many requests. Please wait a moment.",
    server: "Monica is having trouble. Please try again.",
    notFound: "This contact was not found."
  };

  function ApiError(kind, status, messages) {
    this.kind = kind;
    this.status = status;
    this.messages = messages;
    this.message = messages.join(" ");
  }

  function errorOf(status, body) {
    if (status === 401) return new ApiError("unauthenticated", status, [MESSAGES.unauthenticated]);
    if (status === 404) return new ApiError("notFound", status, ["This was not found: it may have been deleted."]);
    if (status === 429) return new ApiError("rateLimited", status, [MESSAGES.rateLimited]);
    if (status >= 500) return new ApiError("server", status, [MESSAGES.server]);
    // Monica's envelope: {"error":{"message": text or [texts], "error_code"}}.
    var message = body && body.error && body.error.message;
    var messages = Array.isArray(message) ? message : [message || "The server refused this (" + status + ")."];
    var kind = status === 422 ? "invalid" : status === 412 ? "changed" : status === 409 ? "busy" : "refused";
    return new ApiError(kind, status, messages.map(String));
  }

  // ---- Write keys ---------------------------------------------------------------------------------

  // Every write carries an Idempotency-Key, one per thing the person did. Sent again while its
  // outcome is unknown (no answer in time, offline, the server failing, or "still being made"),
  // the same request is that same action retried (Retry, a second click on Save) and reuses its
  // key, so the server makes the change once. An answer that settles it ends the action: the
  // same request later is a new one.
  var openActions = {};

  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (byte) { return (byte + 0x100).toString(16).slice(1); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  // The server answers 409 while the first request with a key is still making its change: the
  // retry waits for it, then gets its answer.
  var BUSY_WAITS_MS = [250, 500, 1000, 2000];

  function wait(ms) {
    return new Promise(function (resolve) { window.setTimeout(resolve, ms); });
  }

  // A form's fields as a write's identity: a file by its name, size, type and time, so the same
  // file sent again is the same action and another file is another.
  function formIdentity(form) {
    var entries = [];
    form.forEach(function (value, name) {
      entries.push(typeof value === "string" ? [name, value] : [name, value.name, value.size, value.type, value.lastModified]);
    });
    return entries;
  }

  // One /api call: JSON in and out, the CSRF token and a write key on writes, a 10 s limit.
  // options: {ifMatch: the version the change was made against (a 412 if it is no longer the
  // object's), key: a write key of the caller's own, contentType: a text body's own type,
  // timeout: milliseconds, for a body that takes longer to send (a photo)}.
  // Resolves with the answer's JSON, carrying
  // the object's version (its ETag) as `etag` when it is one object; rejects with an ApiError.
  function api(method, path, body, options) {
    options = options || {};
    var headers = { Accept: "application/json" };
    // A body is JSON, unless options.contentType says it is text of another type (a vCard file),
    // or it is a FormData (a file), which the browser sends as multipart/form-data with its boundary.
    var multipart = typeof FormData !== "undefined" && body instanceof FormData;
    var raw = !!options.contentType || multipart;
    if (body !== undefined && !multipart) headers["Content-Type"] = options.contentType || "application/json";
    var action = null;
    if (method !== "GET") {
      if (csrfMeta) headers["X-CSRF-Token"] = csrfMeta.content;
      if (options.ifMatch) headers["If-Match"] = options.ifMatch;
      var identity = body === undefined ? null : multipart ? formIdentity(body) : body;
      action = JSON.stringify([method, path, identity, options.ifMatch || null]);
      headers["Idempotency-Key"] = options.key || openActions[action] || (openActions[action] = newKey());
    }
    function attempt(busyWaits) {
      var controller = new AbortController();
      var timer = window.setTimeout(function () { controller.abort(); }, options.timeout || TIMEOUT_MS);
      return fetch(path, {
        method: method,
        headers: headers,
        body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
        credentials: "same-origin",
        signal: controller.signal
      }).then(function (response) {
        return response.json().catch(function () { return null; }).then(function (json) {
          window.clearTimeout(timer);
          if (response.status === 409 && action && busyWaits.length) {
            return wait(busyWaits[0]).then(function () { return attempt(busyWaits.slice(1)); });
          }
          if (action && response.status < 500 && response.status !== 409) delete openActions[action];
          if (!response.ok) throw errorOf(response.status, json);
          if (json && typeof json === "object" && !Array.isArray(json)) json.etag = response.headers.get("ETag");
          return json;
        });
      }, function () {
        window.clearTimeout(timer);
        throw new ApiError("offline", 0, [MESSAGES.offline]);
      });
    }
    return attempt(BUSY_WAITS_MS);
  }

  // ---- Changes made elsewhere ---------------------------------------------------------------------

  // An edit is kept as the values its form was filled with (`base`), the object they came from
  // (`latest`) and its version (`etag`). Values are plain (text, numbers, booleans, small objects).
  function same(a, b) {
    return JSON.stringify(a === undefined ? null : a) === JSON.stringify(b === undefined ? null : b);
  }

  // The names of the values the person changed.
  function changedNames(base, mine) {
    return Object.keys(mine).filter(function (name) { return !same(base[name], mine[name]); });
  }

  // Saves the person's changes on top of the latest copy, never over someone else's change.
  // edit: {base, etag, latest, mine: the form's values, send(values, etag, latest): a promise of
  // the write, reload(): a promise of the object as it is now, {values, etag, latest}}.
  // The write names the version the form was filled from. When someone changed the object since
  // (412), it is loaded again and the person's changes go on top of it; if the other change left
  // alone what the person changed (or made it the same), that is sent, and the promise resolves
  // with {answer, elsewhere: the names changed elsewhere, kept}. If both changed a value
  // differently, it rejects with {kind: "conflict", names: those values, fresh: the object as it
  // is now ({values, etag, latest}), merged: its values with the person's changes on top,
  // messages} and sends nothing: the person chooses.
  function saveOnTop(edit) {
    var mine = changedNames(edit.base, edit.mine);
    var elsewhere = [];
    function round(base, etag, latest, values, tries) {
      return edit.send(values, etag, latest).then(function (answer) {
        return { answer: answer, elsewhere: elsewhere };
      }, function (error) {
        if (error.kind !== "changed" || !tries) throw error;
        return edit.reload().then(function (fresh) {
          changedNames(base, fresh.values).forEach(function (name) {
            if (mine.indexOf(name) === -1 && elsewhere.indexOf(name) === -1) elsewhere.push(name);
          });
          var clashes = mine.filter(function (name) {
            return !same(fresh.values[name], base[name]) && !same(fresh.values[name], edit.mine[name]);
          });
          var merged = {};
          Object.keys(fresh.values).forEach(function (name) { merged[name] = fresh.values[name]; });
          mine.forEach(function (name) { merged[name] = edit.mine[name]; });
          if (clashes.length) {
            throw { kind: "conflict", names: clashes, fresh: fresh, merged: merged, messages: [CONFLICT_TEXT] };
          }
          return round(fresh.values, fresh.etag, fresh.latest, merged, tries - 1);
        });
      });
    }
    return round(edit.base, edit.etag, edit.latest, edit.mine, 3);
  }

  var CONFLICT_TEXT = "Someone changed this while you were editing it. Where you both changed the same thing, " +
    "choose which to keep, then save again.";

  // " Changes made elsewhere at the same time were kept too (birthday)." after a save that
  // kept them; "" when there were none. labels: name → words.
  function keptElsewhere(names, labels) {
    if (!names.length) return "";
    var words = names.map(function (name) { return (labels[name] || name.replace(/_/g, " ")).toLowerCase(); });
    return " Changes made elsewhere at the same time were kept too (" + words.join(", ") + ").";
  }

  // Reads something again before acting on it (Edit, Delete), with `button` off meanwhile:
  // act(what read() gave), gone() when it was deleted elsewhere, failed(error) otherwise.
  function readFirst(button, read, act, gone, failed) {
    button.disabled = true;
    read().then(function (state) {
      button.disabled = false;
      act(state);
    }, function (error) {
      button.disabled = false;
      if (error.kind === "notFound") gone();
      else failed(error);
    });
  }

  var panels = 0;

  // The choice, in the form, for each value both the person and someone else changed:
  // choices: [{name, label, mine: words, theirs: words}]; choose(name, "mine" or "theirs") sets
  // the form's field. {element, focus(), ready(): true when every value has a choice, else
  // says so in the panel, moves to the first unanswered choice and is false}.
  function conflictPanel(choices, choose) {
    panels += 1;
    var id = "conflict-" + panels;
    var intro = el("p", { className: "conflict-intro", id: id + "-intro", text: CONFLICT_TEXT });
    var missing = el("p", { className: "field-error conflict-missing", role: "alert", hidden: true });
    var panel = el("div", { className: "fieldset card-warning conflict", id: id, role: "group", tabindex: "-1",
      "aria-labelledby": id + "-intro" }, [intro]);
    var answered = {};
    choices.forEach(function (choice, index) {
      var name = id + "-" + index;
      function option(which, words) {
        var radio = el("input", { type: "radio", name: name, id: name + "-" + which, value: which,
          className: "conflict-" + which });
        radio.addEventListener("change", function () {
          answered[choice.name] = which;
          choose(choice.name, which);
          if (choices.every(function (each) { return answered[each.name]; })) missing.hidden = true;
        });
        return el("label", { className: "choice", for: name + "-" + which }, [radio, " ", words]);
      }
      panel.appendChild(el("fieldset", { className: "fieldset conflict-field", "data-field": choice.name }, [
        el("legend", { text: choice.label }),
        el("div", { className: "choice-row" }, [
          option("mine", "Keep yours: " + choice.mine),
          option("theirs", "Take the other change: " + choice.theirs)
        ])
      ]));
    });
    panel.appendChild(missing);
    return {
      element: panel,
      focus: function () { panel.focus(); },
      ready: function () {
        var open = choices.filter(function (choice) { return !answered[choice.name]; })[0];
        // Said each time: a form clearing its refusals clears this line too.
        missing.textContent = open ? "Choose which change to keep for each value both of you changed." : "";
        missing.hidden = !open;
        if (open) panel.querySelector('[data-field="' + open.name + '"] input').focus();
        return !open;
      }
    };
  }

  // A value in a sentence: “text”, or "(empty)".
  function quotedValue(value) {
    return value === null || value === undefined || value === "" ? "(empty)" : "“" + value + "”";
  }

  // Every page of a list, for lists the page sorts itself (Monica cannot sort them by date).
  function allPages(path) {
    var separator = path.indexOf("?") === -1 ? "?" : "&";
    var items = [];
    function page(number) {
      return api("GET", path + separator + "limit=100&page=" + number).then(function (answer) {
        items = items.concat(answer.data || []);
        var meta = answer.meta || {};
        return meta.current_page < meta.last_page ? page(number + 1) : items;
      });
    }
    return page(1);
  }

  // The path of one of this server's /api addresses (a photo's `link`), to load from this page's
  // own origin: `link` is written with the server's public address, which may not be the one
  // the page was opened at, and the pages load images from their own origin only. null for
  // anything not under /api/.
  function samePagePath(address) {
    if (!address) return null;
    try {
      var url = new URL(address, window.location.href);
      return url.pathname.indexOf("/api/") === 0 ? url.pathname + url.search : null;
    } catch (error) {
      return null;
    }
  }

  // el("a", {href: …, className: …, text: …}, [children]): attributes, never markup.
  function el(tag, props, children) {
    var element = document.createElement(tag);
    Object.keys(props || {}).forEach(function (key) {
      var value = props[key];
      if (value === undefined || value === null || value === false) return;
      if (key === "text") element.textContent = value;
      else if (key === "className") element.className = value;
      else element.setAttribute(key, value === true ? "" : String(value));
    });
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      element.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return element;
  }

  function clear(element) {
    while (element.firstChild) element.removeChild(element.firstChild);
  }

  // An error where the content would be: the message, Retry when trying again can help, the
  // way to sign in when the session is gone.
  function errorBox(error, retry) {
    var box = el("div", { className: "alert alert-error load-error", role: "alert" }, [
      el("p", { text: error.message })
    ]);
    if (error.kind === "unauthenticated") {
      box.appendChild(el("p", {}, [el("a", { href: window.KithSignInAgain(), className: "btn btn-secondary btn-small", text: "Sign in again" })]));
    } else if (retry && ["offline", "server", "rateLimited"].indexOf(error.kind) !== -1) {
      var button = el("button", { type: "button", className: "btn btn-secondary btn-small retry", text: "Retry" });
      button.addEventListener("click", retry);
      box.appendChild(el("p", {}, [button]));
    }
    return box;
  }

  // One of eight colours (app.css .hue-0 … .hue-7), the same for the same text every time.
  function hueClass(text) {
    var hash = 0;
    var folded = String(text || "").toLowerCase();
    for (var index = 0; index < folded.length; index += 1) hash = (hash * 31 + folded.charCodeAt(index)) >>> 0;
    return "hue-" + (hash % 8);
  }

  function loading(text) {
    return el("p", { className: "loading muted", text: text || "Loading…" });
  }

  // ---- Dates ----------------------------------------------------------------------------------

  var relativeFormat = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  // The app's one style (app.js): "10 Dec 1815", "10 Dec 2026, 14:05", in the reader's zone.
  var dayFormat = { format: window.KithTime.day };
  var dayMonthFormat = {
    format: function (day) { return day.getDate() + " " + window.KithTime.months[day.getMonth()]; }
  };
  var timeFormat = { format: window.KithTime.moment };
  var DAY_MS = 86400000;

  // Midnight of a calendar day in the reader's zone, for any year: `new Date(y, m, d)` reads
  // years 0 to 99 as 1900 to 1999, so a birthday in year 1 became 1901. A month or day past its
  // end rolls over, as with the constructor.
  function makeDay(year, monthIndex, day) {
    var date = new Date(2000, 0, 1);
    date.setFullYear(year, monthIndex, day);
    return date;
  }

  // "2018-05-01" or the midnight timestamp Monica gives days ("2018-05-01T00:00:00Z"): a
  // calendar day, in the reader's time zone.
  function parseDay(text) {
    var match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text || "");
    return match ? makeDay(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : null;
  }

  function parseTime(text) {
    var date = text ? new Date(text) : null;
    return date && !isNaN(date) ? date : null;
  }

  function startOfToday() {
    var now = new Date();
    return makeDay(now.getFullYear(), now.getMonth(), now.getDate());
  }

  // Days, then months, then years: "yesterday", "in 3 days", "2 months ago".
  function relativeDays(days) {
    var size = Math.abs(days);
    if (size < 30) return relativeFormat.format(days, "day");
    if (size < 365) return relativeFormat.format(Math.round(days / 30.4), "month");
    return relativeFormat.format(Math.round(days / 365.25), "year");
  }

  function relativeDay(day) {
    return relativeDays(Math.round((day - startOfToday()) / DAY_MS));
  }

  function relativeTime(date) {
    var seconds = Math.round((date - new Date()) / 1000);
    var size = Math.abs(seconds);
    if (size < 60) return relativeFormat.format(0, "second");
    if (size < 3600) return relativeFormat.format(Math.round(seconds / 60), "minute");
    if (size < DAY_MS / 1000) return relativeFormat.format(Math.round(seconds / 3600), "hour");
    return relativeDay(makeDay(date.getFullYear(), date.getMonth(), date.getDate()));
  }

  function isoDay(day) {
    function padded(number, width) { return ("000" + number).slice(-width); }
    // Four digits for the year, as Y-m-d and <input type=date> want it: "0001-01-01".
    return padded(day.getFullYear(), 4) + "-" + padded(day.getMonth() + 1, 2) + "-" + padded(day.getDate(), 2);
  }

  // <time datetime="…" title="full date">2 days ago</time>
  function timeElement(text, kind) {
    if (kind === "day") {
      var day = parseDay(text);
      if (!day) return null;
      return el("time", { datetime: isoDay(day), title: dayFormat.format(day), text: relativeDay(day) });
    }
    var date = parseTime(text);
    if (!date) return null;
    return el("time", { datetime: date.toISOString(), title: timeFormat.format(date), text: relativeTime(date) });
  }

  // A moment kept as midnight UTC is a day given without a time (a call "on 12 March", as
  // Monica's pages keep them): shown as that day, not as a time of day in the reader's zone.
  function isDayAlone(text) {
    return /T00:00:00(\.0+)?Z$/.test(text || "");
  }

  function momentElement(text) {
    return isDayAlone(text) ? timeElement(text, "day") : timeElement(text);
  }

  // ---- Notices across pages -------------------------------------------------------------------

  // What a page says after another one did something ("Added Ada Lovelace."), carried in the
  // tab's session storage rather than the address, so a link can't put words on the page.
  var FLASH_KEY = "kith-contacts-notice";

  function flash(text) {
    try { window.sessionStorage.setItem(FLASH_KEY, text); } catch (error) { /* private mode: no notice */ }
  }

  function takeFlash() {
    var text = null;
    try {
      text = window.sessionStorage.getItem(FLASH_KEY);
      window.sessionStorage.removeItem(FLASH_KEY);
    } catch (error) { text = null; }
    return text;
  }

  // Shows `text` in a section's notice line (role=status, so it is read out), faded after 8 s.
  // The faded line keeps its height: collapsing it moved everything below it, so a click aimed
  // at a form's checkbox could land on its Save.
  function notify(element, text) {
    element.textContent = text;
    element.classList.remove("is-spent");
    window.clearTimeout(element.kithTimer);
    element.kithTimer = window.setTimeout(function () { element.classList.add("is-spent"); }, 8000);
  }

  // "The note “…”" from "the note “…”", to begin a sentence.
  function sentenceCase(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function contactName(contact) {
    return (contact && contact.complete_name) || "(no name)";
  }

  // The name in a sentence ("Deleted Marie Curie."): first and last name, without the marks
  // Monica's complete_name may carry (⚰ for someone who died).
  function sentenceName(contact) {
    var name = [contact && contact.first_name, contact && contact.last_name].filter(Boolean).join(" ");
    return name || contactName(contact);
  }

  window.KithContacts = {
    MESSAGES: MESSAGES,
    api: api,
    errorOf: errorOf,
    saveOnTop: saveOnTop,
    keptElsewhere: keptElsewhere,
    readFirst: readFirst,
    conflictPanel: conflictPanel,
    quotedValue: quotedValue,
    allPages: allPages,
    samePagePath: samePagePath,
    el: el,
    clear: clear,
    errorBox: errorBox,
    hueClass: hueClass,
    loading: loading,
    makeDay: makeDay,
    parseDay: parseDay,
    parseTime: parseTime,
    startOfToday: startOfToday,
    relativeDay: relativeDay,
    isoDay: isoDay,
    dayFormat: dayFormat,
    dayMonthFormat: dayMonthFormat,
    timeElement: timeElement,
    isDayAlone: isDayAlone,
    momentElement: momentElement,
    flash: flash,
    takeFlash: takeFlash,
    notify: notify,
    sentenceCase: sentenceCase,
    contactName: contactName,
    sentenceName: sentenceName
  };
})();
