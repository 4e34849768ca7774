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

  var mealPage = document.getElementById("food-meal-page");
  if (mealPage) setUpSearch(fillIngredient, "Add to the meal");
  if (!root) return;
  setUpSearch(logFood, null);
  setUpMealTarget();
  setUpLive();
  setUpOutbox();

  // ---------------------------------------------------------------------------------------------
  // "Add to": every add form on the day page (search, by hand, recent, favourites, a custom meal's
  // Log) adds to the meal chosen here; without this script they add to the one the page chose.

  function setUpMealTarget() {
    var select = document.getElementById("add-to-meal");
    if (!select) return;
    select.addEventListener("change", applyMealTarget);
    applyMealTarget();
  }

  // Also after a live update redrew the forms that carry it.
  function applyMealTarget() {
    var select = document.getElementById("add-to-meal");
    if (!select) return;
    document.querySelectorAll("input.meal-target").forEach(function (input) { input.value = select.value; });
  }

  // A food found, in the amount typed next to it, logged on the day shown.
  function logFood(food, amount) {
    var form = document.getElementById("search-add-form");
    if (!form) return;
    setFoodFields(function (field) { return form.elements[field]; }, food);
    form.elements.amount.value = amount;
    form.requestSubmit();
  }

  // A food found, in the amount typed next to it, put in the meal form's first empty ingredient
  // row (a new row when every row is taken).
  function fillIngredient(food, amount) {
    function rows() { return Array.prototype.slice.call(document.querySelectorAll("#ingredient-list li")); }
    function field(row, name) { return row.querySelector("[name$='." + name + "']"); }
    var empty = rows().filter(function (row) { return !field(row, "name").value.trim(); })[0];
    if (!empty) {
      var more = document.getElementById("add-ingredient");
      if (more && !more.disabled) more.click();
      empty = rows().filter(function (row) { return !field(row, "name").value.trim(); })[0];
    }
    if (!empty) return false;
    setFoodFields(function (name) { return field(empty, name); }, food);
    field(empty, "amount").value = amount;
    return true;
  }

  // A food's number as text, to `places` decimals (two for the forms, one to read); "" when absent.
  function roundedNumber(value, places) {
    if (value === null || value === undefined || value === "") return "";
    var parsed = typeof value === "number" ? value : parseFloat(value);
    var scale = Math.pow(10, places === undefined ? 2 : places);
    return isFinite(parsed) ? String(Math.round(parsed * scale) / scale) : "";
  }

  function setFoodFields(fieldNamed, food) {
    ["name", "calories", "protein", "carbs", "fat", "servingSize", "servingUnit"].forEach(function (name) {
      var element = fieldNamed(name);
      if (!element) return;
      var value = food[name];
      element.value = name === "name" || name === "servingUnit" ? (value || "") : roundedNumber(value);
    });
  }

  // A serving in grams or millilitres is measured: its amount is typed in that unit (150 g).
  // (The same list as KithCore's Food.measures.)
  function isMeasured(unit, size) {
    var measures = ["g", "gr", "gram", "grams", "ml", "millilitre", "millilitres", "milliliter", "milliliters", "oz", "ounce", "ounces", "fl oz"];
    return !!size && measures.indexOf(String(unit || "").trim().toLowerCase()) >= 0;
  }

  // ---------------------------------------------------------------------------------------------
  // Food search: as you type (300 ms after the last key), through the server, with the session.

  // `pick(food, amount)` takes a result and the amount typed next to it; `label` names its button
  // ("Add" on the day page).
  function setUpSearch(pick, label) {
    var input = document.getElementById("search-query");
    var results = document.getElementById("search-results");
    var status = document.getElementById("search-status");
    if (!input || !results || !status) return;
    var timer = null;
    var latest = 0;

    function say(text) { status.textContent = text; }
    function clear() { results.textContent = ""; }
    function number(value) { return roundedNumber(value, 1); }

    function show(foods, source) {
      clear();
      if (!foods.length) { say("No food found."); return; }
      say(foods.length + (foods.length === 1 ? " food found" : " foods found") + (source ? " (" + source + ")" : "") + ".");
      var day = !root ? "" : root.dataset.date === root.dataset.today ? "today" : root.dataset.date;
      foods.forEach(function (food, index) {
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
        // How much: grams for a food known per 100 g (its serving first), else servings (1 first).
        var measured = isMeasured(food.servingUnit, food.servingSize);
        var amount = document.createElement("span");
        amount.className = "search-amount";
        var amountInput = document.createElement("input");
        amountInput.type = "number";
        amountInput.min = "0";
        amountInput.step = "any";
        amountInput.inputMode = "decimal";
        amountInput.id = "search-amount-" + index;
        amountInput.className = "search-amount-input";
        amountInput.value = measured ? number(food.servingSize) : "1";
        var amountLabel = document.createElement("label");
        amountLabel.htmlFor = amountInput.id;
        amountLabel.textContent = measured ? String(food.servingUnit).trim() : "×";
        amountLabel.setAttribute("aria-label", measured ? "Amount of " + food.name + " in " + String(food.servingUnit).trim() : "Servings of " + food.name);
        amount.appendChild(amountInput);
        amount.appendChild(amountLabel);
        var button = document.createElement("button");
        button.type = "button";
        button.className = "btn btn-secondary btn-small";
        button.textContent = label || "Add";
        button.setAttribute("aria-label", (label || "Add") + ": " + food.name + (day ? " to " + day : ""));
        button.addEventListener("click", function () {
          var typed = parseFloat(amountInput.value);
          if (!(typed > 0)) { say("Enter how much, more than 0."); amountInput.focus(); return; }
          if (pick(food, String(typed)) === false) say("The meal has no room for another ingredient.");
          else if (label) say("Added " + food.name + " to the meal.");
        });
        item.appendChild(text);
        item.appendChild(amount);
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
    var parts = ["summary", "items", "quick", "meals", "history"];
    KithLive.followParts(setStatus, url, parts, function (fresh) {
      // The goal field follows too, unless the reader is typing in it.
      var goal = document.getElementById("goal-calories-input");
      var freshGoal = fresh.getElementById("goal-calories-input");
      if (goal && freshGoal && document.activeElement !== goal) goal.value = freshGoal.value;
      applyMealTarget();
      drawOutbox();
    });
    // Changes sent from the outbox (or one discarded): the server's day replaces the waiting one.
    window.addEventListener("kith-outbox-sent", function () {
      KithLive.refreshParts(url(), parts).then(function () { applyMealTarget(); drawOutbox(); }).catch(function () {});
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Offline: foods logged while the server could not be reached wait in the outbox (offline.js);
  // they are drawn in the day's list, marked waiting (or refused, with the server's sentence), and
  // counted in its totals, until the server has them.

  var waitingEntries = [];

  function setUpOutbox() {
    if (!window.KithOffline) return;
    window.KithOffline.onChange(function (entries) {
      waitingEntries = entries;
      drawOutbox();
    });
  }

  function number(text) { return parseFloat(String(text || "").replace(/,/g, "")) || 0; }

  // How many servings a waiting form's amount is, as the server will read it.
  function servingsOf(fields) {
    var amount = parseFloat(String(fields.get("amount") || "").replace(",", "."));
    if (!(amount > 0)) return 1;
    var size = parseFloat(String(fields.get("servingSize") || "").replace(",", "."));
    return isMeasured(fields.get("servingUnit"), size) ? amount / size : amount;
  }

  function grouped(value) {
    var rounded = Math.round(value);
    var digits = String(Math.abs(rounded)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return (rounded < 0 ? "-" : "") + digits;
  }

  // Totals as the server wrote them, kept on the element so drawing again never adds twice.
  function serverValue(element) {
    if (!element) return 0;
    if (element.dataset.server === undefined) element.dataset.server = element.textContent;
    return number(element.dataset.server);
  }

  function drawOutbox() {
    if (!window.KithOffline) return;
    var itemsCard = document.getElementById("items");
    document.querySelectorAll(".food-item.outbox-item").forEach(function (item) { item.remove(); });
    if (itemsCard) window.KithOffline.unmark(itemsCard);
    var added = { calories: 0, protein: 0, carbs: 0, fat: 0 };
    waitingEntries.forEach(function (entry) {
      var path = entry.action.split("?")[0];
      var deleted = /^\/food\/items\/([^/]+)\/delete$/.exec(path);
      if (deleted) {
        window.KithOffline.mark(document.getElementById("item-" + deleted[1]), entry);
        return;
      }
      if (path !== "/food/items" || entry.fields.get("date") !== root.dataset.date) return;
      // In the meal it was sent to (the day's first meal when the form said none).
      var meal = entry.fields.get("mealOfDay") || "breakfast";
      var section = document.getElementById("meal-section-" + meal);
      var list = document.getElementById("food-list-" + meal);
      if (!list && section) {
        list = document.createElement("ul");
        list.className = "food-list";
        list.id = "food-list-" + meal;
        section.appendChild(list);
      }
      if (!list) return;
      var emptyDay = document.getElementById("no-items");
      if (emptyDay) emptyDay.hidden = true;
      var emptyMeal = section && section.querySelector(".meal-empty");
      if (emptyMeal) emptyMeal.hidden = true;
      var item = document.createElement("li");
      item.className = "food-item outbox-item";
      item.setAttribute("data-outbox-seq", entry.seq);
      var main = document.createElement("div");
      main.className = "food-main";
      var name = document.createElement("span");
      name.className = "food-name";
      name.textContent = entry.fields.get("name");
      main.appendChild(name);
      var kcal = document.createElement("span");
      kcal.className = "food-kcal";
      kcal.innerHTML = '<span class="food-calories"></span> kcal';
      var scale = servingsOf(entry.fields);
      kcal.firstChild.textContent = grouped(number(entry.fields.get("calories")) * scale);
      item.appendChild(main);
      item.appendChild(kcal);
      list.appendChild(item);
      window.KithOffline.mark(main, entry);
      if (entry.state === "waiting") {
        Object.keys(added).forEach(function (field) { added[field] += number(entry.fields.get(field)) * scale; });
      }
    });
    var total = document.getElementById("total-calories");
    if (total) {
      var eaten = serverValue(total) + added.calories;
      total.textContent = grouped(eaten);
      var goal = document.getElementById("goal-calories");
      var remaining = document.getElementById("remaining");
      if (goal && remaining) {
        serverValue(remaining);
        var left = number(goal.textContent) - eaten;
        remaining.textContent = added.calories === 0 ? remaining.dataset.server
          : left < 0 ? grouped(-left) + " kcal over" : grouped(left) + " kcal left";
      }
    }
    ["protein", "carbs", "fat"].forEach(function (field) {
      var element = document.getElementById("total-" + field);
      if (!element) return;
      var server = serverValue(element);
      if (added[field]) element.textContent = String(Math.round((server + added[field]) * 10) / 10) + " g";
      else element.textContent = element.dataset.server;
    });
  }
})();
