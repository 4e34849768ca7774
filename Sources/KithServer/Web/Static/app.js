// Kith web app: progressive enhancement only. Every page works without this file.
(function () {
  "use strict";

  function ready(fn) {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", fn);
    } else {
      fn();
    }
  }

  // A write key: a random id naming one change (docs/sync.md, "Write keys"). The server applies
  // a change once per key, so a form sent twice (a double click, a retry, Back and send again)
  // changes nothing the second time. crypto.getRandomValues works on plain http too.
  function newWriteKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }
  window.KithWriteKey = newWriteKey;

  // The sign-in page for a person whose session ended on this page: it says so, and signing in
  // comes back here (the server keeps `next` to its own paths).
  window.KithSignInAgain = function () {
    return "/signin?next=" + encodeURIComponent(window.location.pathname + window.location.search) + "&ended=1";
  };

  // Every form that changes something carries its key, made once per form shown: sending the
  // same form again sends the same key.
  function keyed(form) {
    if ((form.getAttribute("method") || "").toLowerCase() !== "post") return;
    if (form.elements._key) return;
    var input = document.createElement("input");
    input.type = "hidden";
    input.name = "_key";
    input.value = newWriteKey();
    form.appendChild(input);
  }

  function submitButtons(form) {
    return form.querySelectorAll('button[type="submit"], button:not([type]), input[type="submit"]');
  }

  // Ask before dangerous forms (data-confirm), then disable the submit buttons so a double
  // click sends the form once. The button is disabled on the next tick: disabling it inside
  // the submit event could drop it from the submitted data.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    // A page script sends this form itself (the Contacts pages call /api): its buttons are its
    // own business. Disabling them here left a refused form's Save disabled for good.
    if (event.defaultPrevented) return;
    if (form.dataset.submitting === "true") {
      event.preventDefault();
      return;
    }
    var question = form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      event.preventDefault();
      return;
    }
    keyed(form);
    rememberSubmission(form);
    form.dataset.submitting = "true";
    var buttons = submitButtons(form);
    window.setTimeout(function () {
      buttons.forEach(function (button) {
        button.disabled = true;
        button.setAttribute("aria-busy", "true");
      });
    }, 0);
  });

  // A refused form comes back as the answer to the POST, and the browser keeps that answer in its
  // history as a POST: Back or Reload to it would offer to send the form again. So the page a form
  // was sent from is remembered for the next page load; when that load is the form's own answer
  // (its address is the form's action, not a redirect's target), its history entry is turned
  // into the form page's address, which the browser reads with a GET.
  var SUBMISSION = "kith.submission";

  function rememberSubmission(form) {
    if ((form.getAttribute("method") || "").toLowerCase() !== "post") return;
    var action = new URL(form.action, window.location.href);
    if (action.origin !== window.location.origin) return;
    try {
      window.sessionStorage.setItem(SUBMISSION, JSON.stringify({
        action: action.pathname + action.search,
        page: window.location.pathname + window.location.search,
        at: Date.now()
      }));
    } catch (error) {
      // No session storage (a private window's quota): the page stays as the browser keeps it.
    }
  }

  function forgetAnsweredSubmission() {
    var sent = null;
    try {
      sent = JSON.parse(window.sessionStorage.getItem(SUBMISSION) || "null");
      window.sessionStorage.removeItem(SUBMISSION);
    } catch (error) {
      return;
    }
    if (!sent || Date.now() - sent.at > 10 * 60 * 1000 || !window.history.replaceState) return;
    var navigation = window.performance && performance.getEntriesByType
      ? performance.getEntriesByType("navigation")[0] : null;
    if (!navigation || navigation.type !== "navigate" || navigation.redirectCount > 0) return;
    if (window.location.pathname + window.location.search !== sent.action) return;
    window.history.replaceState(null, "", sent.page + window.location.hash);
  }

  // Coming back with the Back button can restore a page whose buttons were disabled.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    document.querySelectorAll("form[data-submitting]").forEach(function (form) {
      delete form.dataset.submitting;
      submitButtons(form).forEach(function (button) {
        button.disabled = false;
        button.removeAttribute("aria-busy");
      });
    });
  });

  // ---- Times ------------------------------------------------------------------------------------

  // One style for moments on every page, in the reader's own time zone: "25 Nov 2026, 14:05"
  // (the server writes the same, WebTime.swift, once it knows the zone from the kith_tz cookie).
  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  function two(number) { return (number < 10 ? "0" : "") + number; }
  function dayText(date) { return date.getDate() + " " + MONTHS[date.getMonth()] + " " + date.getFullYear(); }
  function momentText(date) { return dayText(date) + ", " + two(date.getHours()) + ":" + two(date.getMinutes()); }

  // Every <time datetime data-local> in `scope`, rewritten in the reader's zone.
  function localize(scope) {
    (scope || document).querySelectorAll("time[datetime][data-local]").forEach(function (element) {
      var date = new Date(element.getAttribute("datetime"));
      if (!isNaN(date)) element.textContent = momentText(date);
    });
  }

  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (error) { zone = ""; }
  // The server writes times in this zone from the next page on.
  if (zone) document.cookie = "kith_tz=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; SameSite=Lax";

  window.KithTime = { zone: zone, day: dayText, moment: momentText, localize: localize, months: MONTHS };

  function copyText(input, done) {
    var text = input.value;
    function fallback() {
      input.focus();
      input.select();
      var ok = false;
      try {
        ok = document.execCommand("copy");
      } catch (error) {
        ok = false;
      }
      done(ok);
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () {
        done(true);
      }, fallback);
    } else {
      fallback();
    }
  }

  function setUpCopyButtons() {
    document.querySelectorAll("[data-copy-target]").forEach(function (button) {
      var input = document.getElementById(button.getAttribute("data-copy-target"));
      if (!input) return;
      var status = document.getElementById("copy-status");
      var label = button.textContent;
      var timer = null;
      button.hidden = false;
      input.addEventListener("focus", function () {
        input.select();
      });
      button.addEventListener("click", function () {
        copyText(input, function (ok) {
          if (status) {
            status.textContent = ok
              ? "Copied to the clipboard."
              : "Could not copy automatically: select the token and copy it yourself.";
          }
          button.textContent = ok ? "Copied" : label;
          window.clearTimeout(timer);
          timer = window.setTimeout(function () {
            button.textContent = label;
          }, 2500);
        });
      });
    });
  }

  // "Add another" for a form of numbered rows (a meal's ingredients, a reminder's checklist): the
  // button names its list (data-add-row) and the most rows (data-maximum). The new row is the last
  // one emptied, with the number in its fields' names and ids, and in its [data-row-number] text,
  // moved on; the keyboard goes to its first field.
  function setUpAddRowButtons() {
    document.querySelectorAll("button[data-add-row]").forEach(function (button) {
      var list = document.getElementById(button.getAttribute("data-add-row"));
      if (!list) return;
      var maximum = parseInt(button.getAttribute("data-maximum"), 10) || 30;
      function update() {
        button.hidden = list.children.length >= maximum;
      }
      button.addEventListener("click", function () {
        var last = list.lastElementChild;
        if (!last) return;
        var index = list.children.length;
        function renumber(text, first) {
          return text.replace(/\d+/, String(index + first));
        }
        var row = last.cloneNode(true);
        row.querySelectorAll(".field-error, input[type=hidden]").forEach(function (element) {
          element.remove();
        });
        row.querySelectorAll("input").forEach(function (input) {
          input.name = renumber(input.name, 0);
          input.id = renumber(input.id, 0);
          input.value = "";
          input.removeAttribute("aria-invalid");
        });
        row.querySelectorAll("label").forEach(function (label) {
          label.htmlFor = renumber(label.htmlFor, 0);
        });
        row.querySelectorAll("[data-row-number]").forEach(function (element) {
          element.textContent = renumber(element.textContent, 1);
        });
        list.appendChild(row);
        row.querySelector("input").focus();
        update();
      });
      update();
    });
  }

  ready(function () {
    forgetAnsweredSubmission();
    // A page rendered in answer to a form (POST /account/tokens, …) gets its canonical address,
    // so reloading it reads the page again instead of sending the form again.
    var canonical = document.querySelector("[data-canonical-path]");
    if (canonical && window.history && window.history.replaceState) {
      var path = canonical.getAttribute("data-canonical-path");
      if (path && window.location.pathname !== path) {
        window.history.replaceState(null, "", path);
      }
    }

    setUpCopyButtons();
    setUpAddRowButtons();
    localize(document);

    // Take the keyboard to the first field the server complained about.
    var invalid = document.querySelector('[aria-invalid="true"]');
    if (invalid) {
      invalid.focus();
    } else if (document.getElementById("form-error")) {
      // A form-level error on a sign-in style page (wrong password): to the first empty field.
      var empty = Array.prototype.find.call(
        document.querySelectorAll(".auth form input:not([type=hidden])"),
        function (input) {
          return input.value === "";
        }
      );
      if (empty) empty.focus();
    }
  });
})();
