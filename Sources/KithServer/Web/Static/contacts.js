// The contact list (/contacts): 50 at a time from /api/contacts with "Load more", sorted by first
// or last name or by when contacts were added (the choice kept in this browser), search as you
// type, and the list, search and scroll position restored when coming back to it.
(function () {
  "use strict";

  var K = window.KithContacts;
  var el = K.el;
  var list = document.getElementById("contact-list");
  if (!list) return;
  var search = document.getElementById("contact-search");
  var clearButton = document.getElementById("search-clear");
  var status = document.getElementById("contacts-status");
  var empty = document.getElementById("contacts-empty");
  var more = document.getElementById("load-more");
  var count = document.getElementById("contacts-count");
  var welcome = document.getElementById("contacts-welcome");
  var sortChoice = document.getElementById("contact-sort");
  var notice = document.getElementById("contacts-notice");

  var PAGE_SIZE = 50;
  var DEBOUNCE_MS = 300;
  // The answer shown is the one to the latest request; `shown` is what it was for.
  var latestRequest = 0;
  var shown = { query: "", page: 0 };
  var debounce = null;

  // ---- Order -------------------------------------------------------------------------------------

  // `sort` as /api takes it: Monica's created_at, and first_name/last_name, Kith's documented
  // extension (docs/monica.md). Kept in this browser.
  var SORT_KEY = "kith-contacts-sort";
  var SORTS = ["first_name", "last_name", "-created_at", "created_at"];

  function savedSort() {
    var saved = null;
    try { saved = window.localStorage.getItem(SORT_KEY); } catch (error) { saved = null; }
    return SORTS.indexOf(saved) === -1 ? "first_name" : saved;
  }

  sortChoice.value = savedSort();
  sortChoice.addEventListener("change", function () {
    try { window.localStorage.setItem(SORT_KEY, sortChoice.value); } catch (error) { /* this visit only */ }
    load(search.value.trim(), 1);
  });

  function lastInteraction(contact) {
    var times = [contact.last_activity_together, contact.last_called].map(K.parseTime).filter(Boolean);
    if (!times.length) return null;
    var latest = times.reduce(function (a, b) { return a > b ? a : b; });
    return el("span", { className: "contact-last" }, [
      el("span", { className: "visually-hidden", text: "Last interaction " }),
      K.timeElement(latest.toISOString())
    ]);
  }

  function row(contact) {
    var name = contact.complete_name || "(no name)";
    return el("li", { className: "contact-row" }, [
      el("a", { href: "/contacts/" + contact.id, className: "contact-link" }, [
        el("span", { className: "avatar " + K.hueClass(name), "aria-hidden": "true", text: contact.initials || "?" }),
        el("span", { className: "contact-main" }, [
          el("span", { className: "contact-name", text: name }),
          contact.nickname ? el("span", { className: "contact-nickname", text: contact.nickname }) : null
        ]),
        lastInteraction(contact)
      ])
    ]);
  }

  function showTotal(total, query) {
    // No contacts at all: how to add the first, here or from a Monica app.
    welcome.hidden = total > 0 || !!query;
    empty.hidden = total > 0 || !query;
    empty.textContent = "No contacts found. Try another spelling, a nickname, a company or an email address.";
    var noun = total === 1 ? "contact" : "contacts";
    count.textContent = query ? total + " " + noun + " found" : total + " " + noun;
  }

  // Loads one page of `query` (page 1 replaces the list). Resolves true once it is shown; an
  // answer to an older request is dropped, so a slow "Jo" never replaces "Jon".
  function load(query, page) {
    var request = ++latestRequest;
    K.clear(status);
    status.appendChild(K.loading(page === 1 ? "Loading…" : "Loading more…"));
    more.disabled = true;
    var params = new URLSearchParams({ limit: String(PAGE_SIZE), page: String(page), sort: sortChoice.value });
    if (query) params.set("query", query);
    return K.api("GET", "/api/contacts?" + params).then(function (answer) {
      if (request !== latestRequest) return false;
      K.clear(status);
      if (page === 1) K.clear(list);
      answer.data.forEach(function (contact) { list.appendChild(row(contact)); });
      shown = { query: query, page: page };
      more.hidden = answer.meta.current_page >= answer.meta.last_page;
      more.disabled = false;
      showTotal(answer.meta.total, query);
      remember();
      return true;
    }, function (error) {
      if (request !== latestRequest) return false;
      K.clear(status);
      more.disabled = false;
      if (page === 1) {
        K.clear(list);
        more.hidden = true;
        empty.hidden = true;
        welcome.hidden = true;
        count.textContent = "";
      }
      status.appendChild(K.errorBox(error, function () { load(query, page); }));
      return false;
    });
  }

  // ---- Search ----------------------------------------------------------------------------------

  search.addEventListener("input", function () {
    clearButton.hidden = search.value === "";
    window.clearTimeout(debounce);
    debounce = window.setTimeout(function () { load(search.value.trim(), 1); }, DEBOUNCE_MS);
  });

  function clearSearch() {
    window.clearTimeout(debounce);
    search.value = "";
    clearButton.hidden = true;
    load("", 1);
    search.focus();
  }

  clearButton.addEventListener("click", clearSearch);
  search.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && search.value !== "") {
      event.preventDefault();
      clearSearch();
    }
  });

  more.addEventListener("click", function () { load(shown.query, shown.page + 1); });
  // Another part of the page (an import) added contacts: the first page again, as searched.
  window.KithContactList = { reload: function () { return load(search.value.trim(), 1); } };

  // ---- Coming back -------------------------------------------------------------------------------

  // The pages are not cached (no-store), so Back reloads this one: the query, how many pages
  // were shown and where the reader was are kept in the history entry to show the same place.
  if ("scrollRestoration" in window.history) window.history.scrollRestoration = "manual";

  function remember() {
    window.history.replaceState({ query: shown.query, pages: shown.page, scrollY: window.scrollY }, "");
  }

  list.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("a")) remember();
  });

  function restore(saved) {
    search.value = saved.query || "";
    clearButton.hidden = search.value === "";
    var pages = Math.min(Math.max(1, saved.pages || 1), 20);
    var chain = load(search.value, 1);
    for (var page = 2; page <= pages; page += 1) {
      chain = chain.then(function (page) {
        return function (ok) { return ok && load(search.value, page); };
      }(page));
    }
    chain.then(function (ok) { if (ok) window.scrollTo(0, saved.scrollY || 0); });
  }

  var said = K.takeFlash();
  if (said) K.notify(notice, said);

  var saved = window.history.state;
  if (saved && typeof saved.pages === "number") restore(saved);
  else load("", 1);
})();
