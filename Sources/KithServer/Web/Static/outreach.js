// Outreach pages: one-click Delivered, the year selector, CSV files, local times, and live
// updates from /v1/live. Without this file every action still works through plain forms.
(function () {
  "use strict";

  var root = document.getElementById("outreach");
  var personPage = document.getElementById("outreach-person");
  document.documentElement.classList.add("js");

  var setStatus = KithLive.statusLine(document.getElementById("sync-status"), { saving: "Saving…" });

  // Times in the reader's own zone and the app's one style (app.js, which did the page already).
  var localizeTimes = window.KithTime.localize;
  if (!root) return;

  // Choosing a year shows it at once (the list refreshed by a nudge brings a new selector).
  function bindYearPicker() {
    var picker = document.getElementById("year-select");
    if (picker) picker.addEventListener("change", function () { picker.form.requestSubmit(); });
  }
  bindYearPicker();

  var savesInFlight = 0;
  var savesDone = 0;

  // Search: the list follows what is typed (the same search the server does for the plain form),
  // and the address keeps it, so a reload or a shared link shows the same people.
  var searchForm = document.getElementById("people-search");
  var searchText = document.getElementById("search-text");
  var searchShow = document.getElementById("search-show");
  function searchQuery() {
    var query = "";
    var text = searchText ? searchText.value.trim() : "";
    if (text) query += "&q=" + encodeURIComponent(text);
    if (searchShow && searchShow.value !== "all") query += "&show=" + encodeURIComponent(searchShow.value);
    return query;
  }
  var searchTimer = null;
  function searchChanged() {
    window.clearTimeout(searchTimer);
    searchTimer = window.setTimeout(function () {
      var address = "/outreach?year=" + encodeURIComponent(root.dataset.year) + searchQuery();
      if (window.history && window.history.replaceState) window.history.replaceState(null, "", address);
      refresh();
    }, 200);
  }
  if (searchForm) {
    searchForm.addEventListener("submit", function (event) { event.preventDefault(); searchChanged(); });
    // "search": the field's own clear button; "change": a value set without typing.
    if (searchText) ["input", "search", "change"].forEach(function (name) { searchText.addEventListener(name, searchChanged); });
    if (searchShow) searchShow.addEventListener("change", searchChanged);
  }

  // Selecting: ticking people to mark or delete them together (the bar's buttons send the list's
  // form to /outreach/many; the answer offers Undo).
  var card = document.getElementById("people-card");
  var selectToggle = document.getElementById("select-toggle");
  function pickBoxes() { return root.querySelectorAll(".pick-box"); }
  function drawPicked() {
    var count = 0;
    pickBoxes().forEach(function (box) { if (box.checked) count += 1; });
    var label = document.getElementById("picked-count");
    if (label) label.textContent = count === 0 ? "Tick people, then:" : (count === 1 ? "1 person selected:" : count + " people selected:");
    ["many-deliver", "many-undeliver", "many-delete"].forEach(function (id) {
      var button = document.getElementById(id);
      if (button) button.disabled = count === 0;
    });
    var all = document.getElementById("pick-all");
    if (all) {
      var boxes = pickBoxes();
      all.checked = boxes.length > 0 && count === boxes.length;
      all.indeterminate = count > 0 && count < boxes.length;
    }
  }
  function setSelecting(on) {
    if (!card || !selectToggle) return;
    card.classList.toggle("people-card-selecting", on);
    selectToggle.setAttribute("aria-pressed", on ? "true" : "false");
    selectToggle.textContent = on ? "Done" : "Select";
    if (!on) pickBoxes().forEach(function (box) { box.checked = false; });
    drawPicked();
  }
  if (selectToggle) {
    selectToggle.addEventListener("click", function () {
      setSelecting(!card.classList.contains("people-card-selecting"));
    });
  }
  root.addEventListener("change", function (event) {
    var box = event.target;
    if (box.id === "pick-all") {
      pickBoxes().forEach(function (each) { each.checked = box.checked; });
      drawPicked();
    } else if (box.classList && box.classList.contains("pick-box")) {
      drawPicked();
    }
  });
  drawPicked();

  var file = document.getElementById("import-file");
  var text = document.getElementById("import-csv");
  if (file && text) {
    file.addEventListener("change", function () {
      if (!file.files.length) return;
      file.files[0].text().then(function (content) { text.value = content; });
    });
  }

  function setProgress(progress) {
    var bar = document.getElementById("progress");
    if (bar) { bar.max = progress.total; bar.value = progress.delivered; }
    var delivered = document.getElementById("progress-delivered");
    var total = document.getElementById("progress-total");
    if (delivered) delivered.textContent = progress.delivered;
    if (total) total.textContent = progress.total;
  }

  // Delivered: saved at once on click; the row shows the time of the click.
  root.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.classList || !box.classList.contains("deliver-box")) return;
    var form = box.form;
    var data = new URLSearchParams();
    data.set("_csrf", form.elements._csrf.value);
    // Each click is its own change: a retry of this one would reuse its key.
    data.set("_key", window.KithWriteKey());
    data.set("set", box.dataset.person + ":" + (box.checked ? "true" : "false"));
    box.disabled = true;
    savesInFlight += 1;
    setStatus("saving");
    fetch(form.action, { method: "POST", body: data, headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) {
          return response.json().then(function (body) {
            throw new Error((body && body.error && body.error.message) || "The server refused the change.");
          }, function () { throw new Error("The server refused the change (" + response.status + ")."); });
        }
        return response.json();
      })
      .then(function (answer) {
        var row = document.getElementById("person-" + answer.id);
        box.checked = answer.delivered;
        if (row) {
          row.classList.toggle("is-delivered", answer.delivered);
          var cell = row.querySelector(".delivered-at");
          cell.textContent = "";
          if (answer.deliveredAt) {
            var time = document.createElement("time");
            time.setAttribute("datetime", answer.deliveredAt);
            time.setAttribute("data-local", "");
            time.textContent = answer.deliveredAtText;
            cell.appendChild(time);
            localizeTimes(cell);
          }
          var button = row.querySelector('button[name="set"]');
          if (button) button.value = answer.id + ":" + (answer.delivered ? "false" : "true");
        }
        setProgress(answer.progress);
        setStatus(live.isOpen() ? "live" : "offline", live.isOpen() ? "Saved · live" : null);
      })
      .catch(function (error) {
        var offline = error instanceof TypeError;
        if (offline && window.KithOffline && window.KithOffline.usable) {
          // Kept with its key in the outbox, and sent when the server is back: the tick stays.
          return window.KithOffline.queue(form.action, data, "application/json").then(function () {
            setStatus("offline", "Offline: the tick is kept on this device and sent when the server is back.");
          });
        }
        box.checked = !box.checked;
        setStatus("failed", offline ? "Not saved: you are offline. Try again when the connection is back." : "Not saved: " + error.message);
      })
      .then(function () {
        box.disabled = false;
        savesInFlight -= 1;
        savesDone += 1;
      });
  });

  // Live: another browser, the command line or a phone changed something; show it without reload.
  // A page fetched while a click was being saved may predate it: such a page is dropped and
  // fetched again, so the list never goes back to an older state.
  var refreshTimer = null;
  var refreshing = false;
  function refresh() {
    if (refreshing || savesInFlight) { scheduleRefresh(); return; }
    refreshing = true;
    var savesBefore = savesDone;
    var picked = {};
    pickBoxes().forEach(function (box) { if (box.checked) picked[box.value] = true; });
    fetch("/outreach?year=" + encodeURIComponent(root.dataset.year) + searchQuery(), { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : Promise.reject(new Error(response.status)); })
      .then(function (html) {
        if (savesInFlight || savesDone !== savesBefore) { scheduleRefresh(); return; }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        ["summary", "people"].forEach(function (id) {
          var current = document.getElementById(id);
          var replacement = fresh.getElementById(id);
          if (current && replacement) current.replaceWith(document.adoptNode(replacement));
        });
        var name = fresh.getElementById("year-name");
        if (name) document.getElementById("year-name").textContent = name.textContent;
        var freshRoot = fresh.getElementById("outreach");
        if (freshRoot && freshRoot.dataset.year !== root.dataset.year) window.location.assign("/outreach");
        bindYearPicker();
        // The people ticked before the refresh stay ticked (those still shown).
        pickBoxes().forEach(function (box) { box.checked = !!picked[box.value]; });
        drawPicked();
        localizeTimes(document.getElementById("people") || document);
        drawOutbox();
      })
      .catch(function () { /* the next nudge or reconnect tries again */ })
      .then(function () { refreshing = false; });
  }
  function scheduleRefresh() {
    window.clearTimeout(refreshTimer);
    refreshTimer = window.setTimeout(refresh, 150);
  }

  var live = KithLive.follow(setStatus, scheduleRefresh);

  // Offline: ticks kept in the outbox (offline.js) show on their rows, ticked or not as they will
  // be, marked waiting (or refused, with the server's sentence), until the server has them.
  var waitingEntries = [];
  function drawOutbox() {
    var people = document.getElementById("people");
    if (!people || !window.KithOffline) return;
    window.KithOffline.unmark(people);
    waitingEntries.forEach(function (entry) {
      if (entry.action.split("?")[0] !== new URL(document.getElementById("deliveries").action).pathname) return;
      var set = (entry.fields.get("set") || "").split(":");
      var row = document.getElementById("person-" + set[0]);
      if (!row) return;
      if (entry.state === "waiting") {
        var box = row.querySelector(".deliver-box");
        if (box) box.checked = set[1] === "true";
        row.classList.toggle("is-delivered", set[1] === "true");
      }
      window.KithOffline.mark(row.querySelector(".person-name") || row, entry);
    });
  }
  if (window.KithOffline) {
    window.KithOffline.onChange(function (entries) {
      waitingEntries = entries;
      drawOutbox();
    });
    window.addEventListener("kith-outbox-sent", scheduleRefresh);
  }
})();
