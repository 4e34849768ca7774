// Food pages: the browser's time zone (so "today" is the reader's today), food search through
// /v1/food/search, and live updates from /v1/live (app.js adds ingredient rows to the meal form).
// Without this file every action still works through plain forms.
(function () {
  "use strict";

  document.documentElement.classList.add("js");

  // The reader's time zone (app.js keeps it in the kith_tz cookie for the pages), in the goal forms.
  var zone = window.KithTime.zone;
  if (zone) {
    document.querySelectorAll("input.browser-zone").forEach(function (input) { input.value = zone; });
  }

  var root = document.getElementById("food");
  if (root && zone && root.dataset.zone !== zone) {
    // Rendered before the server knew the zone: once, show the reader's own today.
    var key = "kith-food-zone-reload";
    if (window.sessionStorage && sessionStorage.getItem(key) !== zone) {
      sessionStorage.setItem(key, zone);
      window.location.reload();
      return;
    }
  }

  if (!root) return;
  setUpSearch();
  setUpLive();

  // ---------------------------------------------------------------------------------------------
  // Food search: as you type (300 ms after the last key), through the server, with the session.

  function setUpSearch() {
    var input = document.getElementById("search-query");
    var results = document.getElementById("search-results");
    var status = document.getElementById("search-status");
    var form = document.getElementById("search-add-form");
    if (!input || !results || !status || !form) return;
    var timer = null;
    var latest = 0;

    function say(text) { status.textContent = text; }
    function clear() { results.textContent = ""; }
    function number(value) {
      if (value === null || value === undefined || value === "") return "";
      var parsed = typeof value === "number" ? value : parseFloat(value);
      return isFinite(parsed) ? String(Math.round(parsed * 10) / 10) : "";
    }

    function add(food) {
      ["name", "calories", "protein", "carbs", "fat", "servingSize", "servingUnit"].forEach(function (field) {
        var value = food[field];
        form.elements[field].value = field === "name" || field === "servingUnit" ? (value || "") : number(value);
      });
      form.requestSubmit();
    }

    function show(foods, source) {
      clear();
      if (!foods.length) { say("No food found."); return; }
      say(foods.length + (foods.length === 1 ? " food found" : " foods found") + (source ? " (" + source + ")" : "") + ".");
      var day = root.dataset.date === root.dataset.today ? "today" : root.dataset.date;
      foods.forEach(function (food) {
        if (!food || typeof food.name !== "string") return;
        var item = document.createElement("li");
        item.className = "search-result";
        var text = document.createElement("span");
        text.className = "search-result-text";
        var name = document.createElement("span");
        name.className = "food-name";
        name.textContent = food.name;
        var meta = document.createElement("span");
        meta.className = "food-meta";
        var parts = [number(food.calories) + " kcal"];
        var serving = [number(food.servingSize), food.servingUnit || ""].join(" ").trim();
        if (serving) parts.push(serving);
        meta.textContent = parts.join(" · ");
        text.appendChild(name);
        text.appendChild(meta);
        var button = document.createElement("button");
        button.type = "button";
        button.className = "btn btn-secondary btn-small";
        button.textContent = "Add";
        button.setAttribute("aria-label", "Add " + food.name + " to " + day);
        button.addEventListener("click", function () { add(food); });
        item.appendChild(text);
        item.appendChild(button);
        results.appendChild(item);
      });
    }

    function search(query) {
      var ticket = ++latest;
      var controller = "AbortController" in window ? new AbortController() : null;
      var deadline = window.setTimeout(function () { if (controller) controller.abort(); }, 10000);
      say("Searching…");
      fetch("/v1/food/search?q=" + encodeURIComponent(query), {
        credentials: "same-origin", headers: { Accept: "application/json" }, signal: controller ? controller.signal : undefined
      })
        .then(function (response) {
          if (ticket !== latest) return null;
          if (response.status === 404) throw new Error("Food search is not available on this server.");
          if (response.status === 401) throw new Error("Your session expired. Sign in again to search.");
          if (response.status === 429) throw new Error("Too many searches. Please wait a moment.");
          if (!response.ok) {
            return response.json().then(function (body) {
              throw new Error((body && body.error && body.error.message) || "Search failed. Please try again.");
            }, function () { throw new Error("Search failed (" + response.status + "). Please try again."); });
          }
          return response.json();
        })
        .then(function (body) {
          if (ticket !== latest || body === null) return;
          var foods = Array.isArray(body) ? body : (body && (body.results || body.foods)) || [];
          show(Array.isArray(foods) ? foods : [], body && typeof body.source === "string" ? body.source : "");
        })
        .catch(function (error) {
          if (ticket !== latest) return;
          clear();
          var offline = error instanceof TypeError || (error && error.name === "AbortError");
          say(offline ? "Cannot connect. Check your internet and try again." : error.message);
        })
        .then(function () { window.clearTimeout(deadline); });
    }

    input.addEventListener("input", function () {
      window.clearTimeout(timer);
      var query = input.value.trim();
      if (!query) { latest++; clear(); say(""); return; }
      timer = window.setTimeout(function () { search(query); }, 300);
    });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { input.value = ""; latest++; clear(); say(""); }
      if (event.key === "Enter") {
        event.preventDefault();
        window.clearTimeout(timer);
        if (input.value.trim()) search(input.value.trim());
      }
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Live: another browser, the command line or a phone changed the log; show it without reload.

  function setUpLive() {
    var setStatus = KithLive.statusLine(document.getElementById("sync-status"));
    function url() { return "/food?date=" + encodeURIComponent(root.dataset.date); }
    KithLive.followParts(setStatus, url, ["summary", "items", "meals", "history"], function (fresh) {
      // The goal field follows too, unless the reader is typing in it.
      var goal = document.getElementById("goal-calories-input");
      var freshGoal = fresh.getElementById("goal-calories-input");
      if (goal && freshGoal && document.activeElement !== goal) goal.value = freshGoal.value;
    });
  }
})();
