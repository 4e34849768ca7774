// Family pages: the browser's time zone for a new family, the repeat's next dates as the form
// changes (GET /family/reminders/occurrences), and live updates from /v1/live (app.js adds
// checklist rows).
// Without this file every action still works through plain forms (the preview has its button).
(function () {
  "use strict";

  document.documentElement.classList.add("js");
  var root = document.getElementById("family-page");
  if (!root) return;

  setUpZone();
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
    var setStatus = KithLive.statusLine(document.getElementById("sync-status"));
    KithLive.followParts(setStatus, function () { return window.location.pathname + window.location.search; }, parts);
  }
})();
