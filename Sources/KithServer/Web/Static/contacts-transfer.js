// Import and export on the contact list (/contacts): a .vcf file read in the browser and sent to
// Kith's POST /api/vcards as it is, then what it made ("Imported 12 contacts; 2 look like people
// you already have") with a link to compare and merge each likely duplicate (contact-merge.js);
// Export is a plain link to GET /api/vcards, a file download.
(function () {
  "use strict";

  var K = window.KithContacts;
  var el = K.el;
  var form = document.getElementById("import-form");
  if (!form) return;
  var input = document.getElementById("import-file");
  var fileError = document.getElementById("import-file-error");
  var result = document.getElementById("import-result");
  var submit = document.getElementById("import-submit");

  function refuse(text) {
    fileError.textContent = text;
    fileError.hidden = false;
    input.setAttribute("aria-invalid", "true");
    input.focus();
  }

  function plural(number, one, many) { return number + " " + (number === 1 ? one : many); }

  function summary(done) {
    var pairs = done.possible_duplicates || [];
    var text = "Imported " + plural(done.imported, "contact", "contacts");
    if (!pairs.length) return [el("p", { className: "import-summary", text: text + "." })];
    text += "; " + pairs.length + (pairs.length === 1 ? " looks like someone" : " look like people") +
      " you already have.";
    return [
      el("p", { className: "import-summary", text: text }),
      el("ul", { className: "item-list duplicate-list", id: "duplicate-list" }, pairs.map(function (pair) {
        return el("li", { className: "item duplicate", "data-id": pair.contact.id }, [
          el("div", { className: "item-head" }, [
            el("a", { href: "/contacts/" + pair.contact.id, className: "item-title", text: pair.contact.complete_name }),
            el("span", { className: "muted", text: "and" }),
            el("a", { href: "/contacts/" + pair.existing.id, className: "item-title", text: pair.existing.complete_name }),
            el("span", { className: "badge", text: pair.reason })
          ]),
          el("a", { className: "btn btn-secondary btn-small compare-merge",
            href: "/contacts/" + pair.existing.id + "?merge=" + pair.contact.id, text: "Compare and merge" })
        ]);
      }))
    ];
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    fileError.hidden = true;
    input.removeAttribute("aria-invalid");
    var file = input.files && input.files[0];
    if (!file) { refuse("Choose a .vcf file first."); return; }
    submit.disabled = true;
    K.clear(result);
    result.appendChild(K.loading("Importing " + file.name + "…"));
    file.text().then(function (text) {
      return K.api("POST", "/api/vcards", text, { contentType: "text/vcard; charset=utf-8" });
    }).then(function (answer) {
      K.clear(result);
      summary(answer.data).forEach(function (node) { result.appendChild(node); });
      form.reset();
      if (window.KithContactList) window.KithContactList.reload();
    }, function (error) {
      K.clear(result);
      if (error.kind === "invalid") refuse(error.messages.join(" "));
      else result.appendChild(K.errorBox(error));
    }).then(function () { submit.disabled = false; });
  });
})();
