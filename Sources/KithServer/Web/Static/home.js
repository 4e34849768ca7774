// The home page: how many contacts there are, from /api as the Contacts pages read it (the server
// renders the other apps' lines).
(function () {
  "use strict";

  var summary = document.getElementById("contacts-summary");
  if (!summary) return;
  fetch("/api/contacts?limit=1", { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then(function (response) { return response.ok ? response.json() : Promise.reject(new Error(String(response.status))); })
    .then(function (answer) {
      var total = answer.meta && answer.meta.total;
      if (typeof total !== "number") return;
      summary.textContent = total === 0 ? "No contacts yet: add the first one" : total === 1 ? "1 contact" : total + " contacts";
    })
    .catch(function () { /* the line keeps its "Open your contact book" */ });
})();
