// Family pages: the browser's time zone for a new family, more checklist rows, the repeat's next
// dates as the form changes (GET /family/reminders/occurrences), and live updates from /v1/live.
// Without this file every action still works through plain forms (the preview has its button).
(function () {
  "use strict";

  document.documentElement.classList.add("js");
  var root = document.getElementById("family-page");
  if (!root) return;

  setUpZone();
  setUpChecklistRows();
  setUpPreview();
  setUpLive();

  // ---------------------------------------------------------------------------------------------
  // A new family's time zone: the browser's, unless the server already knew it (kith_tz).

  function setUpZone() {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (error) { zone = ""; }
    if (!zone) return;
    document.cookie = "kith_tz=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; SameSite=Lax";
    var select = document.getElementById("create-timeZone");
    if (!select || select.dataset.zoneKnown === "true") return;
    var option = Array.prototype.find.call(select.options, function (candidate) { return candidate.value === zone; });
    if (option) select.value = zone;
  }

  // ---------------------------------------------------------------------------------------------
  // The reminder form: another checklist row on demand, up to the form's maximum.

  function setUpChecklistRows() {
    var form = document.getElementById("reminder-form");
    var button = document.getElementById("add-item");
    var list = document.getElementById("checklist-rows");
    if (!form || !button || !list) return;
    var maximum = parseInt(form.dataset.maximum, 10) || 50;
    function update() { button.hidden = list.children.length >= maximum; }
    button.addEventListener("click", function () {
      var last = list.lastElementChild;
      if (!last) return;
      var index = list.children.length;
      var row = last.cloneNode(true);
      row.querySelectorAll(".field-error, input[type=hidden]").forEach(function (element) { element.remove(); });
      var input = row.querySelector("input");
      input.name = "checklist." + index + ".text";
      input.id = "checklist-" + index + "-text";
      input.value = "";
      input.removeAttribute("aria-invalid");
      var label = row.querySelector("label");
      label.htmlFor = input.id;
      label.textContent = "Item " + (index + 1);
      list.appendChild(row);
      input.focus();
      update();
    });
    update();
  }

  // ---------------------------------------------------------------------------------------------
  // The repeat's next dates, asked of the server (it counts them in the family's zone).

  function setUpPreview() {
    var form = document.getElementById("reminder-form");
    var preview = document.getElementById("occurrence-preview");
    if (!form || !preview) return;
    var names = /^(repeat\.[A-Z]{2}|repeatInterval|repeatStart|repeatTime)$/;
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
        none.textContent = "Tick a day to see when it comes next.";
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
        if (field.type === "checkbox" && !field.checked) return;
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
  // Live: another member changed something; the lists and the reminder are read again in place
  // (forms being typed in are left alone).

  function setUpLive() {
    var parts = {
      home: ["reminders", "family-summary"],
      reminder: ["reminder-detail"],
      members: ["members", "codes-list"]
    }[root.dataset.page];
    if (!parts || !window.KithLive) return;
    var status = document.getElementById("sync-status");
    var states = {
      connecting: "Connecting…",
      live: "Up to date · live",
      offline: "Offline: reconnecting… Changes can't be saved until the connection is back."
    };
    function setStatus(state, text) {
      if (!status) return;
      status.dataset.state = state;
      status.textContent = text || states[state];
    }

    var refreshTimer = null;
    var refreshing = false;
    function refresh() {
      if (refreshing) { scheduleRefresh(); return; }
      refreshing = true;
      fetch(window.location.pathname + window.location.search, { credentials: "same-origin" })
        .then(function (response) {
          // Removed from the family, or the reminder was deleted: the page itself says so.
          if (response.status === 404) { window.location.reload(); return null; }
          return response.ok ? response.text() : Promise.reject(new Error(String(response.status)));
        })
        .then(function (html) {
          if (html === null) return;
          var fresh = new DOMParser().parseFromString(html, "text/html");
          parts.forEach(function (id) {
            var current = document.getElementById(id);
            var replacement = fresh.getElementById(id);
            if (!current || !replacement) return;
            // Keep the keyboard where it was (tick and Done buttons have ids for this).
            var focusedID = current.contains(document.activeElement) && document.activeElement.id;
            current.replaceWith(document.adoptNode(replacement));
            if (focusedID && document.getElementById(focusedID)) document.getElementById(focusedID).focus();
          });
        })
        .catch(function () { /* the next nudge or reconnect tries again */ })
        .then(function () { refreshing = false; });
    }
    function scheduleRefresh() {
      window.clearTimeout(refreshTimer);
      refreshTimer = window.setTimeout(refresh, 150);
    }

    KithLive.follow(setStatus, scheduleRefresh);
  }
})();
